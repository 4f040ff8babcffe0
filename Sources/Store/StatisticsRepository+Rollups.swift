/// Statistics from the rollup tables (`statDay`, `statMember`, `statMeta`), written once for
/// both engines. The plan (`RollupPlan`) says which whole days the rollups answer and which
/// visit rows around them are read raw; one statement per question then sums visits and
/// messages of the whole days from `statDay`, and counts distinct aircraft and callsigns as
/// the distinct union of `statMember`'s members with a day in the window and the members of
/// the raw visit rows. The facts the plans need and every answer come from one snapshot
/// (`SQLDatabase.snapshot`). What differs by engine is in `SQLDialect`: the day of a time,
/// a member's text, the test of a member's days, a combined key's group.
extension StatisticsRepository {
    /// The answers for `dimensions` (nil: the total) from the rollups, or nil when the rollups
    /// cannot answer one of them (`RollupPlan.make`; `automatic`: nor a window shorter than a
    /// week).
    func rollupAnswers(_ dimensions: [StatsDimension?], filter: StatsFilter, automatic: Bool) async throws -> [[StatsRow]]? {
        guard filter.towards == nil, filter.withinKm == nil, filter.receiver == nil else { return nil }
        let results = try await database.snapshot(Self.rollupFacts) { facts in
            try Self.rollupPlans(dimensions, filter: filter, automatic: automatic, facts: facts)?.map(Self.rollupQuery) ?? []
        }
        guard let plans = try Self.rollupPlans(dimensions, filter: filter, automatic: automatic, facts: results[0]) else { return nil }
        return try zip(plans, results.dropFirst()).map { plan, rows in
            try rows.map { try plan.dimension == nil ? Self.row($0, key: "total") : Self.row($0) }
        }
    }

    /// What the plans are made from: the first day the rollups hold exactly, the longest
    /// visit (seconds) and the newest `lastSeen`.
    static let rollupFacts: SQL = """
        SELECT (SELECT validFrom FROM statMeta), (SELECT MAX(lastSeen - firstSeen) FROM visit), (SELECT MAX(lastSeen) FROM visit)
        """

    static func rollupPlans(_ dimensions: [StatsDimension?], filter: StatsFilter, automatic: Bool,
                            facts: [SQLRow]) throws -> [RollupPlan]? {
        let row = facts.first
        let validFrom = try row?.decode(0, as: Int?.self) ?? RollupPlan.endOfTime
        let longest = try row?.decode(1, as: Double?.self), newest = try row?.decode(2, as: Double?.self)
        var plans: [RollupPlan] = []
        for dimension in dimensions {
            guard let plan = try RollupPlan.make(dimension: dimension, filter: filter, automatic: automatic,
                                                 validFrom: validFrom, longestVisit: longest, newest: newest) else { return nil }
            plans.append(plan)
        }
        return plans
    }

    /// One statement answering `plan`: `(key, aircraft, flights, visits, messages)` per group
    /// (the total: one row keyed `''`, or none when nothing was heard).
    static func rollupQuery(_ plan: RollupPlan) -> SQL {
        let (a, b): (SQL, SQL) = ("\(plan.first)", "\(plan.last)")
        let rawCondition = SQL.joined(plan.rawParts.map { "(\($0.condition))" }, separator: " OR ")
        let rawKey: SQL = plan.dimension.map { key($0) } ?? "''"
        // The group of a combined key is the part after the type; the total has one group.
        let group: SQL = plan.dimension == nil ? "''" : plan.byType ? "\(dialect: { $0.afterUnitSeparator("key") })" : "key"
        let raw: SQL = """
            raw AS MATERIALIZED (
                SELECT \(rawKey) AS key, \(dialect: { $0.statDay("firstSeen") }) AS day,
                       \(dialect: { $0.member("address") }) AS address, callsign, messages
                FROM visit WHERE (\(rawCondition))\(plan.typeCondition)),
            rawMember AS (
                SELECT key, day, 0 AS kind, address AS member FROM raw
                UNION ALL SELECT key, day, 1, callsign FROM raw WHERE callsign IS NOT NULL)
            """
        if plan.dimension == .day {
            // Whole days carry their own distinct counts; a raw member is new unless the
            // total's member row already lists its day inside the window.
            return """
                WITH \(raw),
                counts AS (
                    SELECT key, visits AS v, messages AS m, aircraft AS a, flights AS f FROM statDay
                    WHERE dimension = \(plan.dayCode) AND day BETWEEN \(a) AND \(b)
                    UNION ALL SELECT key, 1, messages, 0, 0 FROM raw),
                fresh AS (
                    SELECT key, COUNT(DISTINCT member) FILTER (WHERE kind = 0) AS a, COUNT(DISTINCT member) FILTER (WHERE kind = 1) AS f
                    FROM rawMember AS r
                    WHERE NOT (r.day BETWEEN \(a) AND \(b) AND EXISTS (
                        SELECT 1 FROM statMember AS s WHERE s.dimension = 0 AND s.key = '' AND s.kind = r.kind
                        AND s.member = r.member AND \(dialect: { $0.hasDay("s.days", from: "r.day", to: "r.day") })))
                    GROUP BY key)
                SELECT c.key, CAST(c.a + COALESCE(fresh.a, 0) AS BIGINT), CAST(c.f + COALESCE(fresh.f, 0) AS BIGINT),
                       CAST(c.v AS BIGINT), CAST(c.m AS BIGINT)
                FROM (SELECT key, SUM(v) AS v, SUM(m) AS m, SUM(a) AS a, SUM(f) AS f FROM counts GROUP BY key) AS c
                LEFT JOIN fresh USING (key)
                """
        }
        let members: SQL
        if !plan.byType && !plan.totalOverTypes {
            // Member rows are unique per (key, kind, member): count them, and add the raw
            // members that have no row with a day in the window.
            members = """
                SELECT \(group) AS key, COUNT(*) FILTER (WHERE kind = 0) AS a, COUNT(*) FILTER (WHERE kind = 1) AS f
                FROM statMember AS s WHERE dimension = \(plan.memberCode)\(plan.keyCondition) AND \(span(a, b, "s."))
                GROUP BY 1
                UNION ALL
                SELECT key, COUNT(DISTINCT member) FILTER (WHERE kind = 0), COUNT(DISTINCT member) FILTER (WHERE kind = 1)
                FROM rawMember AS r WHERE NOT EXISTS (
                    SELECT 1 FROM statMember AS s WHERE s.dimension = \(plan.memberCode) AND s.key = r.key AND s.kind = r.kind
                    AND s.member = r.member AND \(span(a, b, "s.")))
                GROUP BY key
                """
        } else {
            // A type pattern: one member may have rows under several type keys, so the
            // distinct union of rollup and raw members.
            members = """
                SELECT key, COUNT(DISTINCT member) FILTER (WHERE kind = 0) AS a, COUNT(DISTINCT member) FILTER (WHERE kind = 1) AS f
                FROM (SELECT \(group) AS key, kind, member FROM statMember
                      WHERE dimension = \(plan.memberCode)\(plan.keyCondition) AND \(span(a, b, ""))
                      UNION ALL SELECT key, kind, member FROM rawMember) AS u
                GROUP BY key
                """
        }
        return """
            WITH \(raw),
            counts AS (
                SELECT \(group) AS key, visits AS v, messages AS m FROM statDay
                WHERE dimension = \(plan.dayCode) AND day BETWEEN \(a) AND \(b)\(plan.keyCondition)
                UNION ALL SELECT key, 1, messages FROM raw),
            members AS (\(members))
            SELECT c.key, CAST(COALESCE(d.a, 0) AS BIGINT), CAST(COALESCE(d.f, 0) AS BIGINT), CAST(c.v AS BIGINT), CAST(c.m AS BIGINT)
            FROM (SELECT key, SUM(v) AS v, SUM(m) AS m FROM counts GROUP BY key) AS c
            LEFT JOIN (SELECT key, SUM(a) AS a, SUM(f) AS f FROM members GROUP BY key) AS d USING (key)
            """
    }

    /// A member row (columns prefixed by `prefix`) has a day in `a…b`: its first or last day,
    /// or one of its days between.
    static func span(_ a: SQL, _ b: SQL, _ prefix: String) -> SQL {
        """
        \(raw: prefix)lastDay >= \(a) AND \(raw: prefix)firstDay <= \(b) AND (\(raw: prefix)lastDay <= \(b) OR \(raw: prefix)firstDay >= \(a) \
        OR \(dialect: { $0.hasDay(prefix + "days", from: a, to: b) }))
        """
    }
}
