import PostgresNIO
import Store

/// Statistics from PostgreSQL's rollup tables (`PostgresRollupSchema.v10`), the plan shared with
/// SQLite (`RollupPlan`): visits and messages of whole days summed from `statDay`; distinct
/// aircraft and callsigns as the distinct union of `statMember`'s members with a day in the
/// window and the members of the raw visit rows around it. One snapshot (repeatable read)
/// for the facts the plan needs and every answer.
extension PostgresStore {
    /// The answers for `dimensions` (nil: the total), or nil when the rollups cannot answer
    /// one of them.
    public func rollupStatistics(_ dimensions: [StatsDimension?], filter: StatsFilter, automatic: Bool) async throws -> [[StatsRow]]? {
        guard filter.towards == nil, filter.withinKm == nil, filter.receiver == nil else { return nil }
        if !isAvailable { throw Self.unavailable(url) }
        do {
            return try await rollupAnswers(dimensions, filter: filter, automatic: automatic)
        } catch {
            throw Self.reason(error)
        }
    }

    /// `rollupStatistics` in one read-only snapshot, bounded by the store's timeout.
    func rollupAnswers(_ dimensions: [StatsDimension?], filter: StatsFilter, automatic: Bool) async throws -> [[StatsRow]]? {
        try await withTimeout { [client, logger] () -> [[StatsRow]]? in
            try await client.withTransaction(logger: logger) { c -> [[StatsRow]]? in
                try await c.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                let facts = try await c.query("""
                    SELECT (SELECT validFrom FROM statMeta), (SELECT MAX(lastSeen - firstSeen) FROM visit), (SELECT MAX(lastSeen) FROM visit)
                    """, logger: logger)
                var validFrom = RollupPlan.endOfTime, longest: Double?, newest: Double?
                for try await (v, l, n) in facts.decode((Int?, Double?, Double?).self) {
                    validFrom = v ?? RollupPlan.endOfTime
                    (longest, newest) = (l, n)
                }
                var answers: [[StatsRow]] = []
                for dimension in dimensions {
                    guard let plan = try RollupPlan.make(dimension: dimension, filter: filter, automatic: automatic,
                                                         validFrom: validFrom, longestVisit: longest, newest: newest) else { return nil }
                    var rows: [StatsRow] = []
                    let query = Self.rollupQuery(plan)
                    for try await (key, visits, messages, aircraft, flights) in try await c.query(query, logger: logger).decode((String, Int, Int, Int, Int).self) {
                        rows.append(StatsRow(key: dimension == nil ? "total" : key, aircraft: aircraft, flights: flights, visits: visits, messages: messages))
                    }
                    answers.append(rows)
                }
                return answers
            }
        }
    }

    /// One statement answering `plan`: `(key, visits, messages, aircraft, flights)` per group.
    static func rollupQuery(_ plan: RollupPlan) -> PostgresQuery {
        var binds = PostgresBindings()
        func bind<V: PostgresDynamicTypeEncodable>(_ value: V) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        let (a, b) = (bind(plan.first), bind(plan.last))
        let keyCondition = plan.keyCondition { bind($0) }
        let rawCondition = plan.rawParts.map { "(" + $0.sql { bind($0) } + ")" }.joined(separator: " OR ")
        let typeCondition = plan.typeCondition { bind($0) }
        let rawKey = plan.dimension.map { StatisticsRepository.key($0).rendered(for: .postgresql).text } ?? "''"
        // The group of a combined key is the part after the type; the total has one group.
        let group = plan.dimension == nil ? "''" : plan.byType ? "substr(key, strpos(key, chr(31)) + 1)" : "key"
        let raw = """
            raw AS MATERIALIZED (
                SELECT \(rawKey) AS key, ft_stat_day(firstSeen) AS day, address::text AS address, callsign, messages
                FROM visit WHERE (\(rawCondition))\(typeCondition)),
            rawMember AS (
                SELECT key, day, 0 AS kind, address AS member FROM raw
                UNION ALL SELECT key, day, 1, callsign FROM raw WHERE callsign IS NOT NULL)
            """
        let sql: String
        if plan.dimension == .day {
            // Whole days carry their own distinct counts; a raw member is new unless the
            // total's member row already lists its day inside the window.
            sql = """
                WITH \(raw),
                counts AS (
                    SELECT key, visits AS v, messages AS m, aircraft AS a, flights AS f FROM statDay
                    WHERE dimension = 6 AND day BETWEEN \(a) AND \(b)
                    UNION ALL SELECT key, 1, messages, 0, 0 FROM raw),
                fresh AS (
                    SELECT key, COUNT(DISTINCT member) FILTER (WHERE kind = 0) AS a, COUNT(DISTINCT member) FILTER (WHERE kind = 1) AS f
                    FROM rawMember AS r
                    WHERE NOT (r.day BETWEEN \(a) AND \(b) AND EXISTS (
                        SELECT 1 FROM statMember AS s WHERE s.dimension = 0 AND s.key = '' AND s.kind = r.kind
                        AND s.member = r.member AND r.day = ANY (s.days)))
                    GROUP BY key)
                SELECT c.key, c.v::bigint, c.m::bigint, (c.a + COALESCE(fresh.a, 0))::bigint, (c.f + COALESCE(fresh.f, 0))::bigint
                FROM (SELECT key, SUM(v) AS v, SUM(m) AS m, SUM(a) AS a, SUM(f) AS f FROM counts GROUP BY key) AS c
                LEFT JOIN fresh USING (key)
                """
        } else {
            let members: String
            if !plan.byType && !plan.totalOverTypes {
                // Member rows are unique per (key, kind, member): count them, and add the raw
                // members that have no row with a day in the window.
                let code = bind(plan.memberCode)
                let span = Self.span(a, b, "s.")
                members = """
                    SELECT \(group) AS key, COUNT(*) FILTER (WHERE kind = 0) AS a, COUNT(*) FILTER (WHERE kind = 1) AS f
                    FROM statMember AS s WHERE dimension = \(code)\(keyCondition) AND \(span) GROUP BY 1
                    UNION ALL
                    SELECT key, COUNT(DISTINCT member) FILTER (WHERE kind = 0), COUNT(DISTINCT member) FILTER (WHERE kind = 1)
                    FROM rawMember AS r WHERE NOT EXISTS (
                        SELECT 1 FROM statMember AS s WHERE s.dimension = \(code) AND s.key = r.key AND s.kind = r.kind
                        AND s.member = r.member AND \(span))
                    GROUP BY key
                    """
            } else {
                // A type pattern: one member may have rows under several type keys, so the
                // distinct union of rollup and raw members.
                members = """
                    SELECT key, COUNT(DISTINCT member) FILTER (WHERE kind = 0) AS a, COUNT(DISTINCT member) FILTER (WHERE kind = 1) AS f
                    FROM (SELECT \(group) AS key, kind, member FROM statMember
                          WHERE dimension = \(bind(plan.memberCode))\(keyCondition) AND \(Self.span(a, b, ""))
                          UNION ALL SELECT key, kind, member FROM rawMember) AS u
                    GROUP BY key
                    """
            }
            sql = """
                WITH \(raw),
                counts AS (
                    SELECT \(group) AS key, visits AS v, messages AS m FROM statDay
                    WHERE dimension = \(bind(plan.dayCode)) AND day BETWEEN \(a) AND \(b)\(keyCondition)
                    UNION ALL SELECT key, 1, messages FROM raw),
                members AS (\(members))
                SELECT c.key, c.v::bigint, c.m::bigint, COALESCE(d.a, 0)::bigint, COALESCE(d.f, 0)::bigint
                FROM (SELECT key, SUM(v) AS v, SUM(m) AS m FROM counts GROUP BY key) AS c
                LEFT JOIN (SELECT key, SUM(a) AS a, SUM(f) AS f FROM members GROUP BY key) AS d USING (key)
                """
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// A member row (columns prefixed by `prefix`) has a day in `a…b` (placeholders).
    static func span(_ a: String, _ b: String, _ prefix: String) -> String {
        let (first, last, days) = (prefix + "firstDay", prefix + "lastDay", prefix + "days")
        return "\(last) >= \(a) AND \(first) <= \(b) AND (\(last) <= \(b) OR \(first) >= \(a) OR EXISTS (SELECT 1 FROM unnest(\(days)) AS x WHERE x BETWEEN \(a) AND \(b)))"
    }

    /// Recomputes the statistics rollups from the visit log (after a restore, or when
    /// retention has moved `validFrom` far forward). One transaction.
    public func rebuildStatistics() async throws {
        try await sql.write("SELECT ft_stat_rebuild()")
    }

    /// Refreshes the planner's statistics of every table. Autovacuum does this in time; a
    /// bulk load (an import, `bench --store --postgres`) wants it at once.
    public func analyze() async throws {
        try await sql.write("ANALYZE")
    }
}
