/// Statistics of the sighting log (`flytracker stats`, `/api/stats`): counts per group and
/// in total, and a random visit. Written once for both engines, on the storage seam
/// (`store.statistics`): the filter's conditions and the group keys, the answers from the
/// visit rows, the ordering. Long windows are answered from the rollup tables (read once for
/// both engines too, `StatisticsRepository+Rollups`; their upkeep is each engine's triggers);
/// the result is the same either way (`StatsPath`).
public struct StatisticsRepository: Sendable {
    let store: any SightingStore
    var database: any SQLDatabase { store.sql }

    public init(_ store: any SightingStore) {
        self.store = store
    }

    /// The group key of visits without a value.
    public static let unknownKey = "unknown"
    static let noVisits = StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0)

    /// A dimension's group key over `visit`, visits without a value in `unknown`.
    public static func key(_ dimension: StatsDimension) -> SQL {
        let expression: SQL = switch dimension {
        case .type: "typeCode"
        case .operator: "operatorName"
        case .category: "category"
        case .altitude: "\(dialect: { $0.altitudeBand("maxAltitude") })"
        case .hour: "\(dialect: { $0.utcHour("firstSeen") })"
        case .day: "\(dialect: { $0.utcDay("firstSeen") })"
        }
        return "COALESCE(\(expression), '\(raw: unknownKey)')"
    }

    /// The conditions over `visit` of a filter, its values bound; a malformed type pattern
    /// throws. `newest`: the latest `lastSeen` in the log, the end of a window without `until`.
    public static func condition(_ filter: StatsFilter, newest: Double? = nil) throws -> SQL {
        var clauses: [SQL] = ["1 = 1"]
        let end = filter.until ?? newest ?? .infinity
        let wide = end - (filter.since ?? -.infinity) > 7 * 86_400
        if let since = filter.since {
            clauses.append(wide ? "\(dialect: { $0.unindexed("lastSeen") }) >= \(since)" : "lastSeen >= \(since)")
        }
        if let until = filter.until { clauses.append("firstSeen <= \(until)") }
        if let raw = filter.typePattern {
            let pattern = try WatchRule.normalize(kind: .type, value: raw)
            clauses.append(pattern.hasSuffix("*") ? "typeCode LIKE \(String(pattern.dropLast()) + "%")" : "typeCode = \(pattern)")
        }
        if let km = filter.withinKm { clauses.append("closestDistance <= \(km / 1.852)") }
        if let receiver = filter.receiver {
            clauses.append("EXISTS (SELECT 1 FROM visitReceiver WHERE visitReceiver.visitId = visit.id AND visitReceiver.receiver = \(receiver))")
        }
        if let target = filter.towards {
            clauses.append("ft_towards(lastLatitude, lastLongitude, lastTrack, \(target.latitude), \(target.longitude), \(filter.tolerance))")
        }
        return SQL.joined(clauses, separator: " AND ")
    }

    /// The latest `lastSeen` of the log (from its index), when the filter's window needs it.
    func newest(for filter: StatsFilter) async throws -> Double? {
        guard filter.since != nil, filter.until == nil else { return nil }
        return try await database.value("SELECT MAX(lastSeen) FROM visit")
    }

    /// Counts per group of `dimension` (nil: the total, one row), biggest first (by
    /// aircraft, then key), hours and days in time order; the first `limit`. `path` chooses
    /// how (the benchmark and the tests compare the rollups with the visit rows).
    public func groups(by dimension: StatsDimension?, filter: StatsFilter = StatsFilter(), limit: Int? = nil,
                       path: StatsPath = .automatic) async throws -> [StatsRow] {
        _ = try Self.condition(filter)   // a malformed filter fails before any read
        if path != .raw, let answers = try await rollupAnswers([dimension], filter: filter, automatic: path == .automatic) {
            return dimension == nil ? [answers[0].first ?? Self.noVisits] : Self.ordered(answers[0], by: dimension, limit: limit)
        }
        guard path != .rollup else { throw StoreError(description: "the statistics rollups cannot answer this filter") }
        let condition = try await Self.condition(filter, newest: newest(for: filter))
        let counts: SQL = "COUNT(DISTINCT address), COUNT(DISTINCT callsign), COUNT(*), COALESCE(SUM(messages), 0)"
        guard let dimension else {
            let total = try await database.query("SELECT 'total', \(counts) FROM visit WHERE \(condition)")
            return [try total.first.map { try Self.row($0, key: "total") } ?? Self.noVisits]
        }
        let rows = try await database.query("SELECT \(Self.key(dimension)) AS key, \(counts) FROM visit WHERE \(condition) GROUP BY 1")
        return Self.ordered(try rows.map(Self.row), by: dimension, limit: limit)
    }

    /// Totals over every visit the filter admits.
    public func total(filter: StatsFilter = StatsFilter(), path: StatsPath = .automatic) async throws -> StatsRow {
        try await groups(by: nil, filter: filter, path: path)[0]
    }

    /// The groups and the total of one question (what `flytracker stats` prints): from the
    /// rollups when they can answer both, else from ONE pass over the admitted visit rows
    /// (`--towards`, `--within`: the filter is evaluated once, not once per answer).
    public func withTotal(by dimension: StatsDimension, filter: StatsFilter = StatsFilter(),
                          limit: Int? = nil) async throws -> (rows: [StatsRow], total: StatsRow) {
        _ = try Self.condition(filter)
        if let answers = try await rollupAnswers([dimension, nil], filter: filter, automatic: true) {
            return (Self.ordered(answers[0], by: dimension, limit: limit), answers[1].first ?? Self.noVisits)
        }
        let condition = try await Self.condition(filter, newest: newest(for: filter))
        var rows: [StatsRow] = [], total = Self.noVisits
        for row in try await database.query("""
            WITH v AS MATERIALIZED (SELECT \(Self.key(dimension)) AS key, address, callsign, messages FROM visit WHERE \(condition))
            SELECT key, COUNT(DISTINCT address), COUNT(DISTINCT callsign), COUNT(*), COALESCE(SUM(messages), 0) FROM v GROUP BY key
            UNION ALL
            SELECT NULL, COUNT(DISTINCT address), COUNT(DISTINCT callsign), COUNT(*), COALESCE(SUM(messages), 0) FROM v
            """) {
            if try row.decode(0, as: String?.self) == nil { total = try Self.row(row, key: "total") } else { rows.append(try Self.row(row)) }
        }
        return (Self.ordered(rows, by: dimension, limit: limit), total)
    }

    /// A random visit among those the filter admits (for "a plane heard recently"): `draws`
    /// random row ids between the smallest and the largest looked up in one statement, the
    /// first drawn that exists and is admitted taken (each admitted visit equally likely, to
    /// within the id range over 2³¹); else one admitted visit at random from a scan.
    public func randomVisit(filter: StatsFilter = StatsFilter(), draws: Int = 32) async throws -> VisitRecord? {
        var generator = SystemRandomNumberGenerator()
        return try await randomVisit(filter: filter, draws: draws, using: &generator)
    }

    func randomVisit<G: RandomNumberGenerator>(filter: StatsFilter, draws: Int = 32, using generator: inout G) async throws -> VisitRecord? {
        // The drawn rows are found by their ids (no window needs a scan), in one statement that
        // also tells the newest `lastSeen`, which the scan after a miss plans its window by.
        // Ids spread over more than 2³² (never in practice) go to the scan: no product overflows.
        let byId = try Self.condition(filter)
        let scale: Int64 = 1 << 31
        let drawn = SQL.joined((0..<max(draws, 1)).map { n in "(\(n), \(Int64.random(in: 0..<scale, using: &generator)))" }, separator: ", ")
        // Two subqueries: SQLite answers a lone MIN or MAX from the primary key, not both at once.
        let row = try await database.query("""
            WITH bounds AS (SELECT (SELECT MIN(id) FROM visit) AS lo, (SELECT MAX(id) FROM visit) AS hi,
                                   (SELECT MAX(lastSeen) FROM visit) AS ftNewest),
                 draw(n, x) AS (VALUES \(drawn)),
                 hit AS (SELECT visit.* FROM draw, bounds, visit
                         WHERE \(draws > 0) AND bounds.hi - bounds.lo < \(scale << 1)
                           AND visit.id = bounds.lo + (draw.x * (bounds.hi - bounds.lo + 1)) / \(scale) AND \(byId)
                         ORDER BY draw.n LIMIT 1)
            SELECT hit.*, bounds.ftNewest FROM bounds LEFT JOIN hit ON 1 = 1
            """)[0]
        if try row.decode("id", as: Int64?.self) != nil { return try row.decode(record: VisitRecord.self) }
        let newest = filter.since != nil && filter.until == nil ? try row.decode("ftNewest", as: Double?.self) : nil
        let condition = try Self.condition(filter, newest: newest)
        return try await database.first("SELECT * FROM visit WHERE \(condition) ORDER BY RANDOM() LIMIT 1")
    }

    /// Biggest groups first (by aircraft, then key) or, for hours and days, in time order;
    /// keys compared by their UTF-8 bytes (as SQLite's `BINARY`); the first `limit`.
    public static func ordered(_ rows: [StatsRow], by dimension: StatsDimension?, limit: Int?) -> [StatsRow] {
        func before(_ x: String, _ y: String) -> Bool { x.utf8.lexicographicallyPrecedes(y.utf8) }
        let timeOrder = dimension == .hour || dimension == .day
        var rows = rows
        rows.sort { timeOrder ? before($0.key, $1.key) : ($0.aircraft != $1.aircraft ? $0.aircraft > $1.aircraft : before($0.key, $1.key)) }
        if let limit { rows = Array(rows.prefix(max(0, limit))) }
        return rows
    }

    /// `(key, aircraft, flights, visits, messages)` as a row.
    static func row(_ row: SQLRow) throws -> StatsRow {
        try self.row(row, key: row.decode(0))
    }

    static func row(_ row: SQLRow, key: String) throws -> StatsRow {
        StatsRow(key: key, aircraft: try row.decode(1), flights: try row.decode(2), visits: try row.decode(3), messages: try row.decode(4))
    }
}
