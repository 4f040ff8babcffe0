import PostgresNIO
import Store

/// Statistics on PostgreSQL: the SQLite store's groups and totals (`StatsRow`), keys
/// formatted the same way, grouped from the visit log in one statement.
extension PostgresStore: SightingStore {
    public var engine: String { "postgresql" }
    public var isAvailable: Bool { queue.withLock { $0?.failing != true } }

    /// A dimension's group key, as SQLite's `AppDatabase.keyExpression` writes it.
    static func keyExpression(_ dimension: StatsDimension) -> String {
        let utc = "(to_timestamp(trunc(firstSeen)) AT TIME ZONE 'UTC')"
        let band = "((GREATEST(maxAltitude, 0) / 5000) * 5000)"
        return switch dimension {
        case .type: "typeCode"
        case .operator: "operatorName"
        case .category: "category"
        case .altitude: "CASE WHEN maxAltitude IS NULL THEN NULL ELSE lpad(\(band)::text, 5, '0') || '-' || lpad((\(band) + 4999)::text, 5, '0') END"
        case .hour: "to_char(\(utc), 'HH24')"
        case .day: "to_char(\(utc), 'YYYY-MM-DD')"
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
        let (rows, total) = try blocking { [client, logger] () -> ([StatsRow], StatsRow) in
            var rows: [StatsRow] = []
            var total = StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0)
            for try await (key, aircraft, flights, visits, messages) in try await client.query(query, logger: logger).decode((String?, Int, Int, Int, Int).self) {
                let row = StatsRow(key: key ?? "total", aircraft: aircraft, flights: flights, visits: visits, messages: messages)
                if key == nil { total = row } else { rows.append(row) }
            }
            return (rows, total)
        }
        return (AppDatabase.ordered(rows, timeOrder: dimension == .hour || dimension == .day, limit: limit), total)
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
