import PostgresNIO
import Store

/// Statistics on PostgreSQL: the SQLite store's groups and totals (`StatsRow`), keys
/// formatted the same way; long windows from the rollups (`PostgresStore+Rollups`), the
/// rest grouped from the visit log in one statement.
extension PostgresStore: SightingStore {
    public var engine: String { "postgresql" }
    public var isAvailable: Bool { queue.withLock { $0?.failing != true } }

    /// A dimension's group key, as SQLite's `AppDatabase.keyExpression` writes it.
    static func keyExpression(_ dimension: StatsDimension) -> String {
        switch dimension {
        case .type: "typeCode"
        case .operator: "operatorName"
        case .category: "category"
        case .altitude: "ft_altitude_band(maxAltitude)"
        case .hour: "ft_utc_text(firstSeen, 'HH24')"
        case .day: "ft_utc_text(firstSeen, 'YYYY-MM-DD')"
        }
    }

    /// The WHERE clause of a filter, its values bound.
    static func whereClause(_ filter: StatsFilter, binds: inout PostgresBindings) throws -> String {
        var clauses = ["true"]
        func bind<V: PostgresDynamicTypeEncodable>(_ value: V) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        if let since = filter.since { clauses.append("lastSeen >= \(bind(since))") }
        if let until = filter.until { clauses.append("firstSeen <= \(bind(until))") }
        if let raw = filter.typePattern {
            let pattern = try WatchRule.normalize(kind: .type, value: raw)
            if pattern.hasSuffix("*") {
                clauses.append("typeCode LIKE \(bind(String(pattern.dropLast()) + "%"))")
            } else {
                clauses.append("typeCode = \(bind(pattern))")
            }
        }
        if let km = filter.withinKm { clauses.append("closestDistance <= \(bind(km / 1.852))") }
        if let receiver = filter.receiver {
            clauses.append("EXISTS (SELECT 1 FROM visitReceiver WHERE visitReceiver.visitId = visit.id AND visitReceiver.receiver = \(bind(receiver)))")
        }
        if let target = filter.towards {
            clauses.append("ft_towards(lastLatitude, lastLongitude, lastTrack, \(bind(target.latitude)), \(bind(target.longitude)), \(bind(filter.tolerance)))")
        }
        return clauses.joined(separator: " AND ")
    }

    public func statisticsWithTotal(by dimension: StatsDimension, filter: StatsFilter, limit: Int?) throws -> (rows: [StatsRow], total: StatsRow) {
        let timeOrder = dimension == .hour || dimension == .day
        if let answers = try rollupAnswers([dimension, nil], filter: filter, automatic: true) {
            return (AppDatabase.ordered(answers[0], timeOrder: timeOrder, limit: limit), answers[1].first ?? Self.noVisits)
        }
        let (rows, total) = try groupedFromVisits(by: dimension, filter: filter)
        return (AppDatabase.ordered(rows, timeOrder: timeOrder, limit: limit), total)
    }

    /// The groups of `dimension` (nil: the total alone) answered the way `path` says (tests
    /// and benchmarks compare the paths; `.rollup` throws when the rollups cannot answer).
    public func statistics(by dimension: StatsDimension?, filter: StatsFilter, limit: Int? = nil, path: StatsPath) throws -> [StatsRow] {
        let timeOrder = dimension == .hour || dimension == .day
        if path != .raw, let answers = try rollupAnswers([dimension], filter: filter, automatic: path == .automatic) {
            return dimension == nil ? [answers[0].first ?? Self.noVisits] : AppDatabase.ordered(answers[0], timeOrder: timeOrder, limit: limit)
        }
        guard path != .rollup else { throw StoreError(description: "the statistics rollups cannot answer this filter") }
        let (rows, total) = try groupedFromVisits(by: dimension ?? .type, filter: filter)
        return dimension == nil ? [total] : AppDatabase.ordered(rows, timeOrder: timeOrder, limit: limit)
    }

    static let noVisits = StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0)

    /// Groups and total straight from the visit log, in one statement.
    func groupedFromVisits(by dimension: StatsDimension, filter: StatsFilter) throws -> (rows: [StatsRow], total: StatsRow) {
        var binds = PostgresBindings()
        let condition = try Self.whereClause(filter, binds: &binds)
        let sql = """
            WITH v AS (SELECT COALESCE(\(Self.keyExpression(dimension)), '\(AppDatabase.unknownKey)') AS key, address, callsign, messages
                       FROM visit WHERE \(condition))
            SELECT key, COUNT(DISTINCT address), COUNT(DISTINCT callsign), COUNT(*), COALESCE(SUM(messages), 0) FROM v GROUP BY key
            UNION ALL
            SELECT NULL, COUNT(DISTINCT address), COUNT(DISTINCT callsign), COUNT(*), COALESCE(SUM(messages), 0) FROM v
            """
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        return try blocking { [client, logger] () -> ([StatsRow], StatsRow) in
            var rows: [StatsRow] = []
            var total = Self.noVisits
            for try await (key, aircraft, flights, visits, messages) in try await client.query(query, logger: logger).decode((String?, Int, Int, Int, Int).self) {
                let row = StatsRow(key: key ?? "total", aircraft: aircraft, flights: flights, visits: visits, messages: messages)
                if key == nil { total = row } else { rows.append(row) }
            }
            return (rows, total)
        }
    }

    public func randomVisit(filter: StatsFilter) throws -> VisitRecord? {
        var binds = PostgresBindings()
        let condition = try Self.whereClause(filter, binds: &binds)
        let query = PostgresQuery(unsafeSQL: "\(Self.visitSelect) WHERE \(condition) ORDER BY random() LIMIT 1", binds: binds)
        return try blocking { [client, logger] in
            for try await row in try await client.query(query, logger: logger) { return try Self.visit(row) }
            return nil
        }
    }
}
