import Foundation
import GRDB
import ModeS
import Tracking

/// What statistics are grouped by.
public enum StatsDimension: String, Codable, Sendable, CaseIterable {
    /// ICAO type designator.
    case type
    /// Operator (aircraft database, else the callsign's airline).
    case `operator`
    /// Emitter category (`A3`).
    case category
    /// Highest altitude of the visit, in 5000 ft bands (`30000-34999`).
    case altitude
    /// Hour of day (UTC) of the first message, `00`…`23`.
    case hour
    /// Day (UTC) of the first message, `2026-11-22`.
    case day
}

/// Which visits count. Every criterion is optional.
public struct StatsFilter: Sendable, Equatable {
    /// Visits heard at some time in `since…until` (Unix seconds).
    public var since: Double?
    public var until: Double?
    /// ICAO type, exact (`B738`) or a prefix with `*` (`B73*`).
    public var typePattern: String?
    /// Direction of travel: the bearing from the aircraft's last position to `towards` is
    /// within `tolerance` degrees of its last track.
    public var towards: Coordinate?
    public var tolerance: Double = 20
    /// Closest distance to the receiver at most this many km.
    public var withinKm: Double?
    /// Heard by this receiver of a network (`visitReceiver`); nil: by any.
    public var receiver: String?

    public init(since: Double? = nil, until: Double? = nil, typePattern: String? = nil, towards: Coordinate? = nil,
                tolerance: Double = 20, withinKm: Double? = nil, receiver: String? = nil) {
        self.since = since
        self.until = until
        self.typePattern = typePattern
        self.towards = towards
        self.tolerance = tolerance
        self.withinKm = withinKm
        self.receiver = receiver
    }

    /// Whether a visit heading `track` at `from` travels towards `target` (± `tolerance`°).
    public static func isHeading(from: Coordinate, track: Double, to target: Coordinate, tolerance: Double) -> Bool {
        let bearing = Geodesy.bearing(from: from, to: target)
        let difference = abs((track - bearing + 540).truncatingRemainder(dividingBy: 360) - 180)
        return difference <= tolerance
    }
}

/// One line of statistics: a group and its counts.
public struct StatsRow: Codable, Sendable, Hashable {
    /// The group (`B738`, `14`, `2026-11-22`…); `unknown` when the visit lacks the value.
    public var key: String
    /// Distinct ICAO addresses.
    public var aircraft: Int
    /// Distinct callsigns.
    public var flights: Int
    public var visits: Int
    public var messages: Int

    public init(key: String, aircraft: Int, flights: Int, visits: Int, messages: Int) {
        self.key = key
        self.aircraft = aircraft
        self.flights = flights
        self.visits = visits
        self.messages = messages
    }
}

extension AppDatabase {
    /// The group key of visits without a value.
    public static let unknownKey = "unknown"

    /// The SQL expression of a dimension's group key.
    static func keyExpression(_ dimension: StatsDimension) -> String {
        switch dimension {
        case .type: "typeCode"
        case .operator: "operatorName"
        case .category: "category"
        case .altitude: "CASE WHEN maxAltitude IS NULL THEN NULL ELSE printf('%05d-%05d', (MAX(maxAltitude, 0) / 5000) * 5000, (MAX(maxAltitude, 0) / 5000) * 5000 + 4999) END"
        case .hour: "strftime('%H', CAST(firstSeen AS INTEGER), 'unixepoch')"
        case .day: "strftime('%Y-%m-%d', CAST(firstSeen AS INTEGER), 'unixepoch')"
        }
    }

    /// The WHERE clause and arguments of a filter.
    /// `newest`: the latest `lastSeen` in the log, the end of a window without `until`.
    static func whereClause(_ filter: StatsFilter, newest: Double? = nil) throws -> (String, StatementArguments) {
        var clauses: [String] = ["1"]
        var arguments: [any DatabaseValueConvertible] = []
        // For windows longer than a week a full scan beats the lastSeen index (measured: 1.2 s
        // against 2.8 s for a year of a million visits); `+lastSeen` keeps SQLite off the index.
        let end: Double = filter.until ?? newest ?? .infinity
        let wide = end - (filter.since ?? -.infinity) > 7 * 86_400
        if let since = filter.since { clauses.append(wide ? "+lastSeen >= ?" : "lastSeen >= ?"); arguments += [since] as [any DatabaseValueConvertible] }
        if let until = filter.until { clauses.append("firstSeen <= ?"); arguments += [until] as [any DatabaseValueConvertible] }
        if let raw = filter.typePattern {
            let pattern = try WatchRule.normalize(kind: .type, value: raw)
            if pattern.hasSuffix("*") {
                clauses.append("typeCode LIKE ?")
                arguments += [String(pattern.dropLast()) + "%"] as [any DatabaseValueConvertible]
            } else {
                clauses.append("typeCode = ?")
                arguments += [pattern] as [any DatabaseValueConvertible]
            }
        }
        if let km = filter.withinKm {
            clauses.append("closestDistance <= ?")
            arguments += [km / 1.852] as [any DatabaseValueConvertible]
        }
        if let receiver = filter.receiver {
            clauses.append("EXISTS (SELECT 1 FROM visitReceiver WHERE visitReceiver.visitId = visit.id AND visitReceiver.receiver = ?)")
            arguments += [receiver] as [any DatabaseValueConvertible]
        }
        if let target = filter.towards {
            clauses.append("ft_towards(lastLatitude, lastLongitude, lastTrack, ?, ?, ?)")
            arguments += [target.latitude, target.longitude, filter.tolerance] as [any DatabaseValueConvertible]
        }
        return (clauses.joined(separator: " AND "), StatementArguments(arguments))
    }

    /// The latest `lastSeen` of the log (from its index).
    static func newest(_ db: Database) throws -> Double? {
        try Double.fetchOne(db, sql: "SELECT MAX(lastSeen) FROM visit")
    }

    /// `ft_towards(lat, lon, track, targetLat, targetLon, tolerance)`: 1 when travelling
    /// towards the target, 0 otherwise (and when any input is NULL).
    static let towardsFunction = DatabaseFunction("ft_towards", argumentCount: 6, pure: true) { values in
        guard let lat = Double.fromDatabaseValue(values[0]), let lon = Double.fromDatabaseValue(values[1]),
              let track = Double.fromDatabaseValue(values[2]), let tLat = Double.fromDatabaseValue(values[3]),
              let tLon = Double.fromDatabaseValue(values[4]), let tolerance = Double.fromDatabaseValue(values[5])
        else { return false }
        return StatsFilter.isHeading(from: Coordinate(latitude: lat, longitude: lon), track: track,
                                     to: Coordinate(latitude: tLat, longitude: tLon), tolerance: tolerance)
    }

    /// Counts per group, biggest first (by aircraft, then key); hours and days in time order.
    /// Long windows are answered from the rollups (see `StatsPath`); the result is the same.
    public func statistics(by dimension: StatsDimension, filter: StatsFilter = StatsFilter(), limit: Int? = nil) throws -> [StatsRow] {
        try statistics(by: dimension, filter: filter, limit: limit, path: .automatic)
    }

    /// The same along a chosen path (the benchmark compares the rollups with a scan).
    public func statistics(by dimension: StatsDimension, filter: StatsFilter, limit: Int?, path: StatsPath) throws -> [StatsRow] {
        _ = try Self.whereClause(filter)   // a malformed filter fails before any read
        let timeOrder = dimension == .hour || dimension == .day
        let rows = try writer.read { db -> [StatsRow] in
            db.add(function: Self.towardsFunction)
            db.add(function: Self.hasDayFunction)
            if path != .raw, let rows = try Self.rollupStatistics(db, dimension: dimension, filter: filter, automatic: path == .automatic) {
                return rows
            }
            guard path != .rollup else { throw StoreError(description: "the statistics rollups cannot answer this filter") }
            let (condition, arguments) = try Self.whereClause(filter, newest: Self.newest(db))
            let order = timeOrder ? "key" : "aircraft DESC, key"
            let sql = """
                SELECT COALESCE(\(Self.keyExpression(dimension)), '\(Self.unknownKey)') AS key,
                       COUNT(DISTINCT address) AS aircraft, COUNT(DISTINCT callsign) AS flights,
                       COUNT(*) AS visits, COALESCE(SUM(messages), 0) AS messages
                FROM visit WHERE \(condition) GROUP BY 1 ORDER BY \(order)
                """
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map {
                StatsRow(key: $0["key"], aircraft: $0["aircraft"], flights: $0["flights"], visits: $0["visits"], messages: $0["messages"])
            }
        }
        return Self.ordered(rows, timeOrder: timeOrder, limit: limit)
    }

    /// Biggest groups first (by aircraft, then key) or in time order, keys compared as SQLite
    /// does (by their UTF-8 bytes); the first `limit`.
    public static func ordered(_ rows: [StatsRow], timeOrder: Bool, limit: Int?) -> [StatsRow] {
        func before(_ x: String, _ y: String) -> Bool { x.utf8.lexicographicallyPrecedes(y.utf8) }
        var rows = rows
        rows.sort { timeOrder ? before($0.key, $1.key) : ($0.aircraft != $1.aircraft ? $0.aircraft > $1.aircraft : before($0.key, $1.key)) }
        if let limit { rows = Array(rows.prefix(max(0, limit))) }
        return rows
    }

    /// The groups and the total of one question (what `flytracker stats` prints): from the
    /// rollups when they can answer both, else from ONE pass over the admitted visit rows
    /// (`--towards`, `--within`: the filter is evaluated once, not once per answer).
    public func statisticsWithTotal(by dimension: StatsDimension, filter: StatsFilter = StatsFilter(),
                                    limit: Int? = nil) throws -> (rows: [StatsRow], total: StatsRow) {
        _ = try Self.whereClause(filter)
        let timeOrder = dimension == .hour || dimension == .day
        let (rows, total) = try writer.read { db -> ([StatsRow], StatsRow) in
            db.add(function: Self.towardsFunction)
            db.add(function: Self.hasDayFunction)
            if let rows = try Self.rollupStatistics(db, dimension: dimension, filter: filter, automatic: true),
               let total = try Self.rollupStatistics(db, dimension: nil, filter: filter, automatic: true) {
                return (rows, total.first ?? StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0))
            }
            let (condition, arguments) = try Self.whereClause(filter, newest: Self.newest(db))
            let sql = """
                SELECT COALESCE(\(Self.keyExpression(dimension)), '\(Self.unknownKey)') AS key, address, callsign, messages
                FROM visit WHERE \(condition)
                """
            struct Group { var aircraft = Set<Int>(), flights = Set<String>(), visits = 0, messages = 0 }
            var groups: [String: Group] = [:]
            var all = Group()
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try cursor.next() {
                let key: String = row[0], address: Int = row[1], callsign: String? = row[2], messages: Int = row[3]
                func add(_ g: inout Group) {
                    g.aircraft.insert(address)
                    if let callsign { g.flights.insert(callsign) }
                    g.visits += 1
                    g.messages += messages
                }
                add(&groups[key, default: Group()])
                add(&all)
            }
            func row(_ key: String, _ g: Group) -> StatsRow {
                StatsRow(key: key, aircraft: g.aircraft.count, flights: g.flights.count, visits: g.visits, messages: g.messages)
            }
            return (groups.map { row($0.key, $0.value) }, row("total", all))
        }
        return (Self.ordered(rows, timeOrder: timeOrder, limit: limit), total)
    }

    /// Totals over every visit the filter admits.
    public func statisticsTotal(filter: StatsFilter = StatsFilter()) throws -> StatsRow {
        try statisticsTotal(filter: filter, path: .automatic)
    }

    /// Every visit the filter admits as one row, along a chosen path.
    public func statisticsTotal(filter: StatsFilter, path: StatsPath) throws -> StatsRow {
        _ = try Self.whereClause(filter)
        return try writer.read { db in
            db.add(function: Self.towardsFunction)
            db.add(function: Self.hasDayFunction)
            if path != .raw, let rows = try Self.rollupStatistics(db, dimension: nil, filter: filter, automatic: path == .automatic) {
                return rows.first ?? StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0)
            }
            guard path != .rollup else { throw StoreError(description: "the statistics rollups cannot answer this filter") }
            let (condition, arguments) = try Self.whereClause(filter, newest: Self.newest(db))
            let sql = """
                SELECT COUNT(DISTINCT address) AS aircraft, COUNT(DISTINCT callsign) AS flights,
                       COUNT(*) AS visits, COALESCE(SUM(messages), 0) AS messages FROM visit WHERE \(condition)
                """
            let row = try Row.fetchOne(db, sql: sql, arguments: arguments)!
            return StatsRow(key: "total", aircraft: row["aircraft"], flights: row["flights"], visits: row["visits"], messages: row["messages"])
        }
    }

    /// A random visit among those the filter admits (for "a plane heard recently"): a few
    /// draws of a uniformly random row id (accepted when the visit exists and is admitted,
    /// which keeps the pick uniform), then a scan of the admitted visits.
    public func randomVisit(filter: StatsFilter = StatsFilter()) throws -> VisitRecord? {
        var generator = SystemRandomNumberGenerator()
        return try randomVisit(filter: filter, using: &generator)
    }

    func randomVisit<G: RandomNumberGenerator>(filter: StatsFilter, draws: Int = 32, using generator: inout G) throws -> VisitRecord? {
        _ = try Self.whereClause(filter)
        var random = generator
        defer { generator = random }
        return try writer.read { db in
            db.add(function: Self.towardsFunction)
            let (condition, arguments) = try Self.whereClause(filter, newest: Self.newest(db))
            // Two subqueries: SQLite answers a lone MIN or MAX from the primary key, not both at once.
            let ids = try Row.fetchOne(db, sql: "SELECT (SELECT MIN(id) FROM visit) AS lo, (SELECT MAX(id) FROM visit) AS hi")
            if let lo = ids?["lo"] as Int64?, let hi = ids?["hi"] as Int64? {
                let draw = try db.makeStatement(sql: "SELECT * FROM visit WHERE id = ? AND \(condition)")
                for _ in 0..<draws {
                    let id = Int64.random(in: lo...hi, using: &random)
                    if let visit = try VisitRecord.fetchOne(draw, arguments: [id] + arguments) { return visit }
                }
            }
            return try VisitRecord.fetchOne(db, sql: "SELECT * FROM visit WHERE \(condition) ORDER BY RANDOM() LIMIT 1", arguments: arguments)
        }
    }
}
