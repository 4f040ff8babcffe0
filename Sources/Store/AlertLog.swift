import Foundation

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

/// The alert delivery log: every webhook attempt, and a row for each alert held back by the
/// rate limit. It is the alerts' only state across restarts. Written once for both engines,
/// on the storage seam.
public struct AlertDeliveryLog: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    /// Writes one delivery attempt; returns it with its id.
    public func record(_ delivery: AlertDeliveryRecord) async throws -> AlertDeliveryRecord {
        let d = delivery
        var written = d
        written.id = try await database.write("""
            INSERT INTO alertDelivery (userId, journalEventId, url, time, attempt, status, success, error)
            VALUES (\(d.userId), \(d.journalEventId), \(d.url), \(d.time), \(d.attempt), \(d.status), \(d.success), \(d.error))
            RETURNING id
            """).first?.decode(0, as: Int64.self)
        return written
    }

    /// The delivery log, newest first.
    public func deliveries(limit: Int = 100) async throws -> [AlertDeliveryRecord] {
        try await database.all("""
            SELECT id, userId, journalEventId, url, time, attempt, status, success, error FROM alertDelivery ORDER BY id DESC LIMIT \(limit)
            """)
    }

    /// Journal events at or after `since` (Unix s), oldest first (the newest
    /// `AlertLogSummary.maxEvents` when there are more), each with what the delivery log holds
    /// for it: the alert dispatcher's memory across restarts.
    public func summaries(since: Double) async throws -> [AlertLogSummary] {
        let events: [JournalEventRecord] = try await database.all("""
            SELECT id, userId, watchRuleId, visitId, address, time, kind, callsign, registration, typeCode,
                   latitude, longitude, altitude, distance, ruleLabel, note
            FROM journalEvent WHERE time >= \(since) ORDER BY time DESC, id DESC LIMIT \(AlertLogSummary.maxEvents)
            """)
        var counts: [Int64: (Int, Int, Int)] = [:]
        for row in try await database.query("""
            SELECT journalEventId, COUNT(*), SUM(CASE WHEN attempt > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN success THEN 1 ELSE 0 END)
            FROM alertDelivery WHERE journalEventId IN (SELECT id FROM journalEvent WHERE time >= \(since)) GROUP BY journalEventId
            """) {
            counts[try row.decode(0)] = (try row.decode(1), try row.decode(2), try row.decode(3))
        }
        return events.reversed().map { e in
            let c = counts[e.id ?? -1] ?? (0, 0, 0)
            return AlertLogSummary(event: e, logged: c.0, attempted: c.1, succeeded: c.2)
        }
    }
}
