import Foundation
import GRDB

/// One journal event and what became of its alert, from the delivery log.
public struct AlertLogSummary: Sendable, Equatable {
    public var event: JournalEventRecord
    /// Delivery-log rows of the event (attempts, and a row for an alert held back).
    public var logged: Int
    /// Of those, real attempts (attempt ≥ 1).
    public var attempted: Int
    /// Of those, successful ones.
    public var succeeded: Int

    /// Events read at most (a day of a busy receiver's alerts is far fewer).
    public static let maxEvents = 20_000

    public init(event: JournalEventRecord, logged: Int, attempted: Int, succeeded: Int) {
        self.event = event
        self.logged = logged
        self.attempted = attempted
        self.succeeded = succeeded
    }
}

extension AppDatabase {
    public func alertLog(since: Double) throws -> [AlertLogSummary] {
        try writer.read { db in
            // The newest when there are more than the bound (oldest first after all).
            let events = try JournalEventRecord.filter(Column("time") >= since).order(Column("time").desc, Column("id").desc)
                .limit(AlertLogSummary.maxEvents).fetchAll(db).reversed()
            var counts: [Int64: (Int, Int, Int)] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT journalEventId, COUNT(*), SUM(attempt > 0), SUM(success) FROM alertDelivery
                WHERE journalEventId IN (SELECT id FROM journalEvent WHERE time >= ?) GROUP BY journalEventId
                """, arguments: [since])
            for row in rows { counts[row[0]] = (row[1], row[2] ?? 0, row[3] ?? 0) }
            return events.map { e in
                let c = counts[e.id ?? -1] ?? (0, 0, 0)
                return AlertLogSummary(event: e, logged: c.0, attempted: c.1, succeeded: c.2)
            }
        }
    }

    /// The delivery log, newest first.
    public func deliveries(limit: Int = 100) throws -> [AlertDeliveryRecord] {
        try writer.read { db in try AlertDeliveryRecord.order(Column("id").desc).limit(limit).fetchAll(db) }
    }
}
