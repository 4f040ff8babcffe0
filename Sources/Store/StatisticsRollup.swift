import Foundation
import GRDB

/// How a statistics query is answered: from the rollups (`StatisticsSchema`) for windows of
/// whole days, plus the visit rows the rollups cannot answer for (the partial days at the
/// window's edges, visits that began before the window and were still heard in it, open
/// visits, days before `statMeta.validFrom`); or straight from `visit` (short windows, and
/// filters the rollups do not carry: `--within`, `--towards`, a type pattern on another
/// dimension).
public enum StatsPath: Sendable {
    case automatic
    /// Straight from `visit`.
    case raw
    /// From the rollups; an error when the rollups cannot answer (tests).
    case rollup
}

extension AppDatabase {
    /// Whether a `days` list (`,20454,20460,`) has a day in `first…last`.
    static func hasDay(firstDay: Int, lastDay: Int, days: String, from first: Int, to last: Int) -> Bool {
        if lastDay < first || firstDay > last { return false }
        if lastDay <= last || firstDay >= first { return true }
        // `,d,d,…,`: digits between commas, read without allocating.
        var value = 0, digits = false, negative = false
        func inside() -> Bool { digits && (negative ? -value : value) >= first && (negative ? -value : value) <= last }
        for byte in days.utf8 {
            if byte >= 48 && byte <= 57 {
                value = value &* 10 &+ Int(byte - 48)
                digits = true
            } else if byte == 45 {
                negative = true
            } else {
                if inside() { return true }
                value = 0
                digits = false
                negative = false
            }
        }
        return inside()
    }

    /// `ft_hasday(days, first, last)` for the rows that span the window (see `hasDay`).
    static let hasDayFunction = DatabaseFunction("ft_hasday", argumentCount: 3, pure: true) { values in
        guard let days = String.fromDatabaseValue(values[0]), let first = Int.fromDatabaseValue(values[1]),
              let last = Int.fromDatabaseValue(values[2]) else { return false }
        return hasDay(firstDay: Int.min, lastDay: Int.max, days: days, from: first, to: last)
    }

    /// The answers for `dimensions` from the rollups, in one read (`SightingStore.rollupStatistics`).
    public func rollupStatistics(_ dimensions: [StatsDimension?], filter: StatsFilter, automatic: Bool) async throws -> [[StatsRow]]? {
        guard filter.towards == nil, filter.withinKm == nil, filter.receiver == nil else { return nil }
        return try await writer.read { db -> [[StatsRow]]? in
            db.add(function: Self.hasDayFunction)
            var answers: [[StatsRow]] = []
            for dimension in dimensions {
                guard let rows = try Self.rollupStatistics(db, dimension: dimension, filter: filter, automatic: automatic) else { return nil }
                answers.append(rows)
            }
            return answers
        }
    }

    /// The statistics of `dimension` (nil: the total) from the rollups, or nil when the
    /// filter needs the raw path (`automatic`: also when the window is short).
    static func rollupStatistics(_ db: Database, dimension: StatsDimension?, filter: StatsFilter,
                                 automatic: Bool) throws -> [StatsRow]? {
        guard filter.towards == nil, filter.withinKm == nil, filter.receiver == nil else { return nil }
        let facts = try Row.fetchOne(db, sql: """
            SELECT (SELECT validFrom FROM statMeta) AS validFrom, (SELECT MAX(lastSeen - firstSeen) FROM visit) AS longest,
                   (SELECT MAX(lastSeen) FROM visit) AS newest
            """)
        guard let plan = try RollupPlan.make(dimension: dimension, filter: filter, automatic: automatic,
                                             validFrom: facts?["validFrom"] ?? RollupPlan.endOfTime,
                                             longestVisit: facts?["longest"], newest: facts?["newest"]) else { return nil }
        var keyArgs: [any DatabaseValueConvertible] = []
        let keyClause = plan.keyCondition { keyArgs.append($0); return "?" }
        var rawTypeArgs: [any DatabaseValueConvertible] = []
        let rawTypeClause = plan.typeCondition { rawTypeArgs.append($0); return "?" }
        let totalOverTypes = plan.totalOverTypes, byType = plan.byType, memberCode = plan.memberCode
        // The group of a combined key is the part after the type.
        let groupSQL = byType ? "substr(key, instr(key, char(31)) + 1)" : "key"
        let (a, b) = (plan.first, plan.last)

        struct Group { var visits = 0, messages = 0, aircraft = 0, flights = 0 }
        func statsRows(_ groups: [String: Group]) -> [StatsRow] {
            groups.filter { $0.value.visits > 0 }.map {
                StatsRow(key: $0.key, aircraft: $0.value.aircraft, flights: $0.value.flights, visits: $0.value.visits, messages: $0.value.messages)
            }
        }
        var groups: [String: Group] = [:]
        let outKey: (String) -> String = { dimension == nil ? "total" : $0 }

        // Whole days: visits and messages (and the day dimension's distinct counts).
        let dayRows = try Row.fetchAll(db, sql: """
            SELECT \(groupSQL) AS key, SUM(visits) AS v, SUM(messages) AS m, SUM(aircraft) AS a, SUM(flights) AS f FROM statDay
            WHERE dimension = ? AND day BETWEEN ? AND ?\(keyClause) GROUP BY 1
            """, arguments: StatementArguments([plan.dayCode, a, b] + keyArgs))
        for row in dayRows {
            let key = outKey(row["key"])
            groups[key, default: Group()].visits += row["v"] as Int
            groups[key, default: Group()].messages += row["m"] as Int
            if dimension == .day {
                groups[key, default: Group()].aircraft += row["a"] as Int
                groups[key, default: Group()].flights += row["f"] as Int
            }
        }
        // Whole days: distinct members (across the types a pattern admits).
        if dimension != .day {
            let span = "lastDay >= ? AND firstDay <= ? AND (lastDay <= ? OR firstDay >= ? OR ft_hasday(days, ?, ?))"
            let spanArgs: [any DatabaseValueConvertible] = [a, b, b, a, a, b]
            let sql = totalOverTypes
                ? "SELECT '' AS key, kind, COUNT(DISTINCT member) AS n FROM statMember WHERE dimension = 1\(keyClause) AND \(span) GROUP BY kind"
                : byType
                ? "SELECT \(groupSQL) AS key, kind, COUNT(DISTINCT member) AS n FROM statMember WHERE dimension = ?\(keyClause) AND \(span) GROUP BY 1, 2"
                : "SELECT key, kind, COUNT(*) AS n FROM statMember WHERE dimension = ?\(keyClause) AND \(span) GROUP BY key, kind"
            let args = (totalOverTypes ? [] : [memberCode]) + keyArgs + spanArgs
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args)) {
                let key = outKey(row["key"])
                if row["kind"] as Int == 0 { groups[key, default: Group()].aircraft += row["n"] as Int }
                else { groups[key, default: Group()].flights += row["n"] as Int }
            }
        }

        // The raw parts: their visits and messages, and the members not already counted.
        let keySQL = dimension.map { StatisticsRepository.key($0).rendered(for: .sqlite).text } ?? "''"
        var sql: [String] = []
        var args: [any DatabaseValueConvertible] = []
        for part in plan.rawParts {
            let condition = part.sql { args.append($0); return "?" }
            sql.append("SELECT \(keySQL) AS key, CAST(firstSeen AS INTEGER) / 86400 AS day, address, callsign, messages FROM visit WHERE \(condition)\(rawTypeClause)")
            args += rawTypeArgs
        }
        var members: [String: (day: Int, addresses: Set<Int>, callsigns: Set<String>)] = [:]
        let cursor = try Row.fetchCursor(db, sql: sql.joined(separator: " UNION ALL "), arguments: StatementArguments(args))
        while let row = try cursor.next() {
            let key = outKey(row["key"])
            groups[key, default: Group()].visits += 1
            groups[key, default: Group()].messages += row["messages"] as Int
            var m = members[key] ?? (row["day"], [], [])
            m.addresses.insert(row["address"])
            if let c = row["callsign"] as String? { m.callsigns.insert(c) }
            members[key] = m
        }
        guard !members.isEmpty else { return statsRows(groups) }
        let lookup = try db.cachedStatement(sql: "SELECT firstDay, lastDay, days FROM statMember WHERE dimension = ? AND key = ? AND kind = ? AND member = ?")
        // The type keys a pattern admits, for the membership test of the total and of combined keys.
        let patternKeys = totalOverTypes || byType
            ? try String.fetchAll(db, sql: "SELECT DISTINCT key FROM statDay WHERE dimension = 1\(plan.typeKeyCondition { _ in "?" })",
                                  arguments: StatementArguments(rawTypeArgs))
            : []
        func counted(_ key: String, day: Int, kind: Int, _ member: any DatabaseValueConvertible) throws -> Bool {
            if dimension == .day {
                guard day >= a, day <= b, let row = try Row.fetchOne(lookup, arguments: [0, "", kind, member]) else { return false }
                return (row["days"] as String).contains(",\(day),")
            }
            let keys = byType ? patternKeys.map { $0 + "\u{1F}" + key } : dimension == nil ? (totalOverTypes ? patternKeys : [""]) : [key]
            for k in keys {
                if let row = try Row.fetchOne(lookup, arguments: [memberCode, k, kind, member]),
                   hasDay(firstDay: row["firstDay"], lastDay: row["lastDay"], days: row["days"], from: a, to: b) { return true }
            }
            return false
        }
        for (key, m) in members {
            let rollupKey = dimension == nil ? "" : key
            for address in m.addresses {
                if try !counted(rollupKey, day: m.day, kind: 0, address) { groups[key]!.aircraft += 1 }
            }
            for callsign in m.callsigns {
                if try !counted(rollupKey, day: m.day, kind: 1, callsign) { groups[key]!.flights += 1 }
            }
        }
        return statsRows(groups)
    }

    /// Recomputes the statistics rollups from the visit log (after a restore, or when
    /// retention has moved `validFrom` far forward). One transaction.
    public func rebuildStatistics() throws {
        try writer.write { db in
            try StatisticsSchema.rebuild(db)
            try StatisticsSchema.rebuildByType(db)
        }
    }
}
