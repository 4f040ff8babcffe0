import ModeS
/// The sighting log read back, kept bounded, and closed after a crash: visits, their track
/// points and receivers. Written once for both engines, on the storage seam
/// (`store.sightings`). The batch writes of a run are each engine's own still
/// (`SightingStore.write`: PostgreSQL buffers them while its server is away).
public struct SightingLogRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    /// An aircraft's visits (`AircraftKey.packed`), newest first.
    public func visits(address: UInt32, limit: Int = 100) async throws -> [VisitRecord] {
        try await database.all("SELECT * FROM visit WHERE address = \(Int(address)) ORDER BY firstSeen DESC, id DESC LIMIT \(limit)")
    }

    /// Visits of an aircraft by registration (compared without `-`, spaces, dots and case,
    /// as `RegistrationKey.normalize`), newest first.
    public func visits(registration: String, limit: Int = 100) async throws -> [VisitRecord] {
        try await database.all("""
            SELECT * FROM visit WHERE REPLACE(REPLACE(REPLACE(UPPER(registration), '-', ''), ' ', ''), '.', '') = \(RegistrationKey.normalize(registration))
            ORDER BY firstSeen DESC, id DESC LIMIT \(limit)
            """)
    }

    /// Every visit, oldest first (exports and tests: the whole table in memory).
    public func allVisits() async throws -> [VisitRecord] {
        try await database.all("SELECT * FROM visit ORDER BY firstSeen, id")
    }

    /// The receivers that heard a visit, by receiver id.
    public func visitReceivers(visitId: Int64) async throws -> [VisitReceiverRecord] {
        try await database.all("SELECT * FROM visitReceiver WHERE visitId = \(visitId) ORDER BY receiver")
    }

    /// A visit's track points in time order.
    public func trackPoints(visitId: Int64) async throws -> [TrackPointRecord] {
        try await database.all("SELECT * FROM trackPoint WHERE visitId = \(visitId) ORDER BY time, id")
    }

    /// Closes every visit still open that was last seen before `time` (Unix s), as a visit
    /// left open by a process that was killed: each is closed at its last sighting and enters
    /// the statistics once (one statement: the close trigger adds each to the rollups once).
    /// Returns them as closed, oldest first.
    public func closeInterruptedVisits(lastSeenBefore time: Double) async throws -> [VisitRecord] {
        let closed: [VisitRecord] = try await database.write("UPDATE visit SET closed = \(true) WHERE NOT closed AND lastSeen < \(time) RETURNING *")
            .map { try $0.decode(record: VisitRecord.self) }
        return closed.sorted { ($0.firstSeen, $0.id ?? 0) < ($1.firstSeen, $1.id ?? 0) }
    }

    /// Applies `policy` at `now` (Unix s) in one transaction: closed visits (with their
    /// points), track points, journal events and deliveries older than their limits, and the
    /// oldest track points beyond the bound. Rollup rows of days before the rollups'
    /// `validFrom` (no longer exact, never read) go once a week of them has accumulated.
    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Double) async throws -> PruneReport {
        let day = 86_400.0
        enum Count { case visits, trackPoints, journalEvents, deliveries }
        var statements: [(Count?, SQL)] = []
        if let days = policy.visitDays {
            statements.append((.visits, "DELETE FROM visit WHERE closed AND lastSeen < \(now - days * day) RETURNING 1"))
        }
        if let days = policy.trackPointDays {
            statements.append((.trackPoints, "DELETE FROM trackPoint WHERE time < \(now - days * day) RETURNING 1"))
        }
        if let limit = policy.maxTrackPoints {
            statements.append((.trackPoints, """
                DELETE FROM trackPoint WHERE id IN (SELECT id FROM trackPoint ORDER BY time, id
                    LIMIT (SELECT \(dialect: { $0.greatest })(COUNT(*) - \(limit), 0) FROM trackPoint)) RETURNING 1
                """))
        }
        if let days = policy.journalDays {
            statements.append((.journalEvents, "DELETE FROM journalEvent WHERE time < \(now - days * day) RETURNING 1"))
        }
        if let days = policy.deliveryDays {
            statements.append((.deliveries, "DELETE FROM alertDelivery WHERE time < \(now - days * day) RETURNING 1"))
        }
        let stale: SQL = "(SELECT validFrom FROM statMeta WHERE validFrom - cleanedTo >= 7)"
        statements += [
            (nil, "DELETE FROM statDay WHERE day < \(stale)"),
            (nil, "DELETE FROM statMember WHERE lastDay < \(stale)"),
            (nil, "UPDATE statMeta SET cleanedTo = validFrom WHERE validFrom - cleanedTo >= 7"),
        ]
        let results = try await database.transaction(statements.map(\.1))
        var report = PruneReport()
        for ((count, _), rows) in zip(statements, results) {
            switch count {
            case .visits: report.visits += rows.count
            case .trackPoints: report.trackPoints += rows.count
            case .journalEvents: report.journalEvents += rows.count
            case .deliveries: report.deliveries += rows.count
            case nil: break
            }
        }
        return report
    }
}
