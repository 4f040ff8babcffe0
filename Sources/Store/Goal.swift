import Foundation

/// A goal: something to see within a period, counted from the sighting log (the visits the
/// receiver, or a network's receivers, closed in the period), for a user or a group.
public struct Goal: Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// `target` different aircraft of a type (`type`: exact or `B73*`), e.g. "10 A380s".
        case typeAircraft = "type_aircraft"
        /// `target` different types, e.g. "50 types this year".
        case distinctTypes = "distinct_types"
        /// `target` different aircraft of any type.
        case distinctAircraft = "distinct_aircraft"
        /// `target` different military aircraft, e.g. "a military aircraft" (target 1).
        case military
        /// `target` different aircraft heard farther than `distance` NM, e.g. "beyond 200 NM".
        case beyond
    }

    public var id: Int64?
    /// Exactly one of the two.
    public var userId: Int64?
    public var groupId: Int64?
    public var name: String
    public var kind: Kind
    /// For `typeAircraft`.
    public var type: String?
    /// For `beyond`, NM.
    public var distance: Double?
    public var target: Int
    /// Visits that began in `start..<end` (Unix seconds) count.
    public var start: Double
    public var end: Double
    /// Progress so far (what `progress(…)` counts) and the members counted (addresses or
    /// types), so that each visit is applied once and never recounted.
    public var progress: Int
    public var counted: Set<String>
    /// When it was reached, and by which visit.
    public var completedAt: Double?
    public var completedAddress: Int?
    public var completedVisitId: Int64?
    public var createdAt: Double

    public init(id: Int64? = nil, userId: Int64? = nil, groupId: Int64? = nil, name: String, kind: Kind, type: String? = nil,
                distance: Double? = nil, target: Int, start: Double, end: Double, progress: Int = 0, counted: Set<String> = [], completedAt: Double? = nil,
                completedAddress: Int? = nil, completedVisitId: Int64? = nil, createdAt: Double) {
        self.id = id
        self.userId = userId
        self.groupId = groupId
        self.name = name
        self.kind = kind
        self.type = type
        self.distance = distance
        self.target = target
        self.start = start
        self.end = end
        self.progress = progress
        self.counted = counted
        self.completedAt = completedAt
        self.completedAddress = completedAddress
        self.completedVisitId = completedVisitId
        self.createdAt = createdAt
    }

    public var isComplete: Bool { completedAt != nil }

    /// The key a visit adds to the counted set, or nil when it does not count.
    public func key(of v: VisitRecord) -> String? {
        guard v.firstSeen >= start, v.firstSeen < end else { return nil }
        switch kind {
        case .typeAircraft:
            guard let t = v.typeCode?.uppercased(), let pattern = type?.uppercased() else { return nil }
            let matches = pattern.hasSuffix("*") ? t.hasPrefix(pattern.dropLast()) : t == pattern
            return matches ? String(v.address) : nil
        case .distinctTypes: return v.typeCode?.uppercased()
        case .distinctAircraft: return String(v.address)
        case .military: return v.military ? String(v.address) : nil
        case .beyond: return (v.farthestDistance ?? 0) > (distance ?? .infinity) ? String(v.address) : nil
        }
    }

    /// Applies one visit (each visit once, when it closes); returns true when this visit
    /// completed the goal. A complete goal counts no further (its progress is its target).
    @discardableResult
    public mutating func apply(_ v: VisitRecord) -> Bool {
        guard !isComplete, let key = key(of: v), counted.insert(key).inserted else { return false }
        progress = counted.count
        guard progress >= target else { return false }
        completedAt = v.lastSeen
        completedAddress = v.address
        completedVisitId = v.id
        return true
    }

    /// The goal counted afresh from `visits` (in the order they closed): what incremental
    /// evaluation must equal.
    public func recounted(_ visits: [VisitRecord]) -> Goal {
        var g = self
        g.progress = 0
        g.counted = []
        g.completedAt = nil
        g.completedAddress = nil
        g.completedVisitId = nil
        for v in visits { g.apply(v) }
        return g
    }

    /// Checked values; throws the first problem.
    public func validated() throws(GoalError) -> Goal {
        var g = self
        g.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...80).contains(g.name.count) else { throw .invalidName }
        guard (1...100_000).contains(target) else { throw .invalidTarget(target) }
        guard start.isFinite, end.isFinite, end > start else { throw .invalidPeriod }
        if kind == .typeAircraft {
            guard let t = type, (try? WatchRule.normalize(kind: .type, value: t)) != nil else { throw .invalidType(type ?? "") }
            g.type = try? WatchRule.normalize(kind: .type, value: t)
        } else {
            g.type = nil
        }
        if kind == .beyond {
            guard let d = distance, d.isFinite, (1...1000).contains(d) else { throw .invalidDistance }
        } else {
            g.distance = nil
        }
        guard (userId == nil) != (groupId == nil) else { throw .invalidOwner }
        return g
    }

    /// `month` (the calendar month of `now`, UTC), `year`, or `all` (from now on, 100 years).
    public static func period(_ name: String, now: Double) -> (Double, Double)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: now)
        switch name {
        case "month":
            guard let interval = calendar.dateInterval(of: .month, for: date) else { return nil }
            return (interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970)
        case "year":
            guard let interval = calendar.dateInterval(of: .year, for: date) else { return nil }
            return (interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970)
        case "all": return (now, now + 100 * 365.25 * 86_400)
        default: return nil
        }
    }
}

public enum GoalError: Error, Equatable, CustomStringConvertible {
    case invalidName
    case invalidTarget(Int)
    case invalidPeriod
    case invalidType(String)
    case invalidOwner
    case invalidDistance
    case unknownGoal(Int64)

    public var description: String {
        switch self {
        case .invalidName: "a goal needs a name of 1-80 characters"
        case .invalidTarget(let n): "target \(n) is out of range (1…100000)"
        case .invalidPeriod: "the period must be month, year or all (or an end after the start)"
        case .invalidType(let t): "invalid type '\(t)' (an ICAO type such as A388, or a prefix such as B73*)"
        case .invalidOwner: "a goal belongs to a user or to a group"
        case .invalidDistance: "a goal beyond a distance needs one of 1-1000 NM"
        case .unknownGoal(let id): "no goal \(id)"
        }
    }
}

/// Goals, written once for both engines on the storage seam (`store.goals`).
public struct GoalRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    static let columns: SQL = """
        id, userId, groupId, name, kind, type, distance, target, startsAt, endsAt, progress, counted,
        completedAt, completedAddress, completedVisitId, createdAt
        """

    /// A goal row (nil: a kind this version does not know).
    static func goal(_ row: SQLRow) throws -> Goal? {
        guard let kind = Goal.Kind(rawValue: try row.decode(4)) else { return nil }
        var goal = Goal(id: try row.decode(0), userId: try row.decode(1), groupId: try row.decode(2), name: try row.decode(3), kind: kind,
                        type: try row.decode(5), target: try row.decode(7), start: try row.decode(8), end: try row.decode(9),
                        progress: try row.decode(10), counted: Goal.counted(json: try row.decode(11)), completedAt: try row.decode(12),
                        completedAddress: try row.decode(13), completedVisitId: try row.decode(14), createdAt: try row.decode(15))
        goal.distance = try row.decode(6)
        return goal
    }

    func goals(_ statement: SQL) async throws -> [Goal] {
        try await database.query(statement).compactMap(Self.goal)
    }

    /// Stores a new goal (validated first); returns it with its id.
    public func addGoal(_ goal: Goal) async throws -> Goal {
        var g = try goal.validated()
        g.id = try await database.write("""
            INSERT INTO goal (userId, groupId, name, kind, type, distance, target, startsAt, endsAt, progress, counted, createdAt)
            VALUES (\(g.userId), \(g.groupId), \(g.name), \(g.kind.rawValue), \(g.type), \(g.distance), \(g.target), \(g.start), \(g.end),
                    \(g.progress), \(g.countedJSON), \(g.createdAt))
            RETURNING id
            """)[0].decode(0)
        return g
    }

    /// A user's own goals and those of the groups they belong to.
    public func goals(userId: Int64) async throws -> [Goal] {
        try await goals("""
            SELECT \(Self.columns) FROM goal WHERE userId = \(userId)
               OR groupId IN (SELECT groupId FROM groupMember WHERE userId = \(userId) AND role IN ('owner', 'member'))
            ORDER BY id
            """)
    }

    /// Every goal not yet complete whose period has not ended by `now`.
    public func activeGoals(now: Double) async throws -> [Goal] {
        try await goals("SELECT \(Self.columns) FROM goal WHERE completedAt IS NULL AND endsAt > \(now) ORDER BY id")
    }

    /// Saves progress, counted members and completion, all in one transaction.
    public func saveProgress(_ goals: [Goal]) async throws {
        try await database.transaction(goals.compactMap { g in
            g.id.map { id in
                """
                UPDATE goal SET progress = \(g.progress), counted = \(g.countedJSON), completedAt = \(g.completedAt),
                    completedAddress = \(g.completedAddress), completedVisitId = \(g.completedVisitId) WHERE id = \(id)
                """
            }
        })
    }

    /// Removes a goal of the user's own, or of a group they own.
    public func removeGoal(id: Int64, userId: Int64) async throws {
        let removed = try await database.write("""
            DELETE FROM goal WHERE id = \(id) AND (userId = \(userId)
                OR groupId IN (SELECT groupId FROM groupMember WHERE userId = \(userId) AND role = 'owner'))
            RETURNING id
            """)
        guard removed.count == 1 else { throw GoalError.unknownGoal(id) }
    }
}

extension Goal {
    /// The counted members as stored (a JSON array of strings, sorted).
    public var countedJSON: String {
        (try? String(decoding: JSONEncoder().encode(counted.sorted()), as: UTF8.self)) ?? "[]"
    }

    public static func counted(json: String) -> Set<String> {
        Set((try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? [])
    }
}
