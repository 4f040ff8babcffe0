import GRDB

/// How long the bulky tables keep rows, and a bound on the track points (the biggest table),
/// so the database stays bounded on an SD card. Nil = keep forever.
public struct RetentionPolicy: Sendable, Equatable {
    /// Track points older than this many days are deleted.
    public var trackPointDays: Double? = 30
    /// Closed visits (and their points) older than this many days are deleted.
    public var visitDays: Double? = 730
    /// Journal events older than this many days are deleted.
    public var journalDays: Double? = 365
    /// Alert delivery log rows older than this many days are deleted.
    public var deliveryDays: Double? = 90
    /// At most this many track points are kept (the oldest go first).
    public var maxTrackPoints: Int? = 20_000_000

    public init(trackPointDays: Double? = 30, visitDays: Double? = 730, journalDays: Double? = 365,
                deliveryDays: Double? = 90, maxTrackPoints: Int? = 20_000_000) {
        self.trackPointDays = trackPointDays
        self.visitDays = visitDays
        self.journalDays = journalDays
        self.deliveryDays = deliveryDays
        self.maxTrackPoints = maxTrackPoints
    }
}

/// Rows deleted by `AppDatabase.prune`.
public struct PruneReport: Sendable, Equatable {
    public var trackPoints = 0
    public var visits = 0
    public var journalEvents = 0
    public var deliveries = 0

    public init() {}
}

extension AppDatabase {
    /// Applies `policy` at `now` (Unix seconds) in one transaction.
    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Double) throws -> PruneReport {
        try writer.write { db in
            var report = PruneReport()
            let day = 86_400.0
            if let days = policy.visitDays {
                try db.execute(sql: "DELETE FROM visit WHERE closed AND lastSeen < ?", arguments: [now - days * day])
                report.visits = db.changesCount
            }
            if let days = policy.trackPointDays {
                try db.execute(sql: "DELETE FROM trackPoint WHERE time < ?", arguments: [now - days * day])
                report.trackPoints += db.changesCount
            }
            if let limit = policy.maxTrackPoints {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM trackPoint") ?? 0
                if count > limit {
                    try db.execute(sql: "DELETE FROM trackPoint WHERE id IN (SELECT id FROM trackPoint ORDER BY time LIMIT ?)",
                                   arguments: [count - limit])
                    report.trackPoints += db.changesCount
                }
            }
            if let days = policy.journalDays {
                try db.execute(sql: "DELETE FROM journalEvent WHERE time < ?", arguments: [now - days * day])
                report.journalEvents = db.changesCount
            }
            if let days = policy.deliveryDays {
                try db.execute(sql: "DELETE FROM alertDelivery WHERE time < ?", arguments: [now - days * day])
                report.deliveries = db.changesCount
            }
            // Deleted closed visits moved the statistics rollups' validFrom; drop the stale rows.
            try Self.cleanRollups(db)
            return report
        }
    }
}
