import PostgresNIO
import Store

/// Goals on PostgreSQL (`GoalStore`), as on SQLite.
extension PostgresStore: GoalStore {
    static let goalColumns = "id, userId, groupId, name, kind, type, target, startsAt, endsAt, progress, counted, completedAt, completedAddress, completedVisitId, createdAt, distance"

    static func goal(_ row: PostgresRow) throws -> Goal? {
        let c = try row.makeRandomAccess()
        guard let kind = Goal.Kind(rawValue: try c[4].decode(String.self)) else { return nil }
        return Goal(id: try c[0].decode(Int64.self), userId: try c[1].decode(Int64?.self), groupId: try c[2].decode(Int64?.self),
                    name: try c[3].decode(String.self), kind: kind, type: try c[5].decode(String?.self), target: try c[6].decode(Int.self),
                    start: try c[7].decode(Double.self), end: try c[8].decode(Double.self), progress: try c[9].decode(Int.self),
                    counted: Goal.counted(json: try c[10].decode(String.self)), completedAt: try c[11].decode(Double?.self),
                    completedAddress: try c[12].decode(Int?.self), completedVisitId: try c[13].decode(Int64?.self),
                    createdAt: try c[14].decode(Double.self))
            .with(distance: try c[15].decode(Double?.self))
    }

    func fetchGoals(_ query: PostgresQuery) throws -> [Goal] {
        try blocking { [client, logger] in
            var out: [Goal] = []
            for try await row in try await client.query(query, logger: logger) { if let g = try Self.goal(row) { out.append(g) } }
            return out
        }
    }

    public func addGoal(_ goal: Goal) throws -> Goal {
        var g = try goal.validated()
        let counted = g.countedJSON
        let id = try blocking { [client, logger, g] in
            var id: Int64 = 0
            for try await v in try await client.query("""
                INSERT INTO goal (userId, groupId, name, kind, type, distance, target, startsAt, endsAt, progress, counted, createdAt)
                VALUES (\(g.userId), \(g.groupId), \(g.name), \(g.kind.rawValue), \(g.type), \(g.distance), \(g.target), \(g.start), \(g.end), \(g.progress),
                        \(counted), \(g.createdAt)) RETURNING id
                """, logger: logger).decode(Int64.self) { id = v }
            return id
        }
        g.id = id
        return g
    }

    public func goals(userId: Int64) throws -> [Goal] {
        try fetchGoals("""
            SELECT \(unescaped: Self.goalColumns) FROM goal WHERE userId = \(userId)
               OR groupId IN (SELECT groupId FROM groupMember WHERE userId = \(userId) AND role IN ('owner', 'member'))
            ORDER BY id
            """)
    }

    public func activeGoals(now: Double) throws -> [Goal] {
        try fetchGoals("SELECT \(unescaped: Self.goalColumns) FROM goal WHERE completedAt IS NULL AND endsAt > \(now) ORDER BY id")
    }

    public func saveProgress(_ goals: [Goal]) throws {
        let rows = goals.compactMap { g in g.id.map { ($0, g.progress, g.countedJSON, g.completedAt, g.completedAddress, g.completedVisitId) } }
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                for (id, progress, counted, at, address, visit) in rows {
                    try await c.query("""
                        UPDATE goal SET progress = \(progress), counted = \(counted), completedAt = \(at), completedAddress = \(address),
                            completedVisitId = \(visit) WHERE id = \(id)
                        """, logger: logger)
                }
            }
        }
    }

    public func removeGoal(id: Int64, userId: Int64) throws {
        let removed = try rowsTouched("""
            DELETE FROM goal WHERE id = \(id) AND (userId = \(userId)
                OR groupId IN (SELECT groupId FROM groupMember WHERE userId = \(userId) AND role = 'owner')) RETURNING 1
            """)
        guard removed == 1 else { throw GoalError.unknownGoal(id) }
    }
}

extension Goal {
    fileprivate func with(distance: Double?) -> Goal {
        var g = self
        g.distance = distance
        return g
    }
}
