import Foundation

/// A spotting club.
public struct GroupRecord: Sendable, Equatable {
    public var id: Int64
    /// Unique regardless of case, 1–48 letters, digits, spaces, `.`, `_`, `-`.
    public var name: String
    public var description: String?
    /// Anyone may join an open group; others join by invitation only.
    public var open: Bool
    public var createdAt: Double

    public init(id: Int64, name: String, description: String?, open: Bool, createdAt: Double) {
        self.id = id
        self.name = name
        self.description = description
        self.open = open
        self.createdAt = createdAt
    }

    /// The label of the journal events of this group's shared watchlist (`group NAME: …`).
    public var labelPrefix: String { "group \(name): " }

    public static func validate(name: String) throws(GroupError) -> String {
        let n = name.trimmingCharacters(in: .whitespaces)
        let allowed = n.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || " ._-".unicodeScalars.contains($0) }
        guard (1...48).contains(n.count), allowed else { throw .invalidName(name) }
        return n
    }
}

/// A member's place in a group.
public enum GroupRole: String, Sendable, Equatable, CaseIterable {
    case owner, member
    /// Asked by the owner; not a member until they join.
    case invited
}

public enum GroupError: Error, Equatable, CustomStringConvertible {
    /// No such group, or one the asker may not know of (invitation-only, not invited).
    case unknownGroup(String)
    case invalidName(String)
    case duplicateName(String)
    case notOwner
    case invitationOnly(String)
    case alreadyMember(String)
    case notMember(String)
    case ownerCannotLeave
    case unknownRule(Int64)

    public var description: String {
        switch self {
        case .unknownGroup(let n): "no group '\(n)'"
        case .invalidName(let n): "invalid group name '\(n)' (1-48 letters, digits, spaces, '.', '_' or '-')"
        case .duplicateName(let n): "a group named '\(n)' exists already"
        case .notOwner: "only the group's owner may do that"
        case .invitationOnly(let n): "'\(n)' takes members by invitation only"
        case .alreadyMember(let n): "\(n) is a member already"
        case .notMember(let n): "\(n) is not a member"
        case .ownerCannotLeave: "the owner cannot leave while others are members (remove them, or they leave, first)"
        case .unknownRule(let id): "no shared watchlist rule \(id) in this group"
        }
    }
}

/// Groups, their members and shared watchlists, written once for both engines on the
/// storage seam (`store.groups`). Names are compared in lower case (`lower(name)`; both
/// engines' unique index on the name ignores case), so a name is taken once whatever its case.
public struct GroupRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    static let columns: SQL = "g.id, g.name, g.description, g.open, g.createdAt"

    static func group(_ row: SQLRow) throws -> GroupRecord {
        GroupRecord(id: try row.decode(0), name: try row.decode(1), description: try row.decode(2),
                    open: try row.decode(3), createdAt: try row.decode(4))
    }

    static func rule(_ row: SQLRow, from column: Int = 0) throws -> WatchRule? {
        guard let kind = WatchKind(rawValue: try row.decode(column + 1)) else { return nil }
        return WatchRule(id: try row.decode(column), userId: 0, kind: kind, value: try row.decode(column + 2),
                         label: try row.decode(column + 3), createdAt: try row.decode(column + 4))
    }

    /// Creates a group owned by `ownerId` (name validated and unique regardless of case).
    public func createGroup(ownerId: Int64, name: String, description: String?, open: Bool, now: Double) async throws -> GroupRecord {
        let name = try GroupRecord.validate(name: name)
        do {
            let rows = try await database.transaction([
                "INSERT INTO spottingGroup (name, description, open, createdAt) VALUES (\(name), \(description), \(open), \(now)) RETURNING id",
                """
                INSERT INTO groupMember (groupId, userId, role, since)
                SELECT id, \(ownerId), 'owner', \(now) FROM spottingGroup WHERE lower(name) = lower(\(name))
                """,
            ])
            return GroupRecord(id: try rows[0][0].decode(0), name: name, description: description, open: open, createdAt: now)
        } catch where database.isUniqueViolation(error) {
            throw GroupError.duplicateName(name)
        }
    }

    public func group(named name: String) async throws -> GroupRecord? {
        try await database.query("SELECT \(Self.columns) FROM spottingGroup g WHERE lower(g.name) = lower(\(name))").first.map(Self.group)
    }

    /// Deletes a group with its members and rules.
    public func deleteGroup(id: Int64) async throws {
        try await database.write("DELETE FROM spottingGroup WHERE id = \(id)")
    }

    /// Members and invitations: (user id, user name, role), by name.
    public func members(groupId: Int64) async throws -> [(userId: Int64, username: String, role: GroupRole)] {
        try await database.query("""
            SELECT m.userId, u.username, m.role FROM groupMember m JOIN "user" u ON u.id = m.userId
            WHERE m.groupId = \(groupId) ORDER BY lower(u.username)
            """).compactMap { row in
            try GroupRole(rawValue: row.decode(2)).map { (try row.decode(0), try row.decode(1), $0) }
        }
    }

    /// Sets a user's role in a group; nil removes them.
    public func setRole(groupId: Int64, userId: Int64, role: GroupRole?, now: Double) async throws {
        if let role {
            try await database.write("""
                INSERT INTO groupMember (groupId, userId, role, since) VALUES (\(groupId), \(userId), \(role.rawValue), \(now))
                ON CONFLICT (groupId, userId) DO UPDATE SET role = excluded.role, since = excluded.since
                """)
        } else {
            try await database.write("DELETE FROM groupMember WHERE groupId = \(groupId) AND userId = \(userId)")
        }
    }

    /// The groups a user belongs to or is invited to, with their role, by name.
    public func groups(userId: Int64) async throws -> [(group: GroupRecord, role: GroupRole)] {
        try await database.query("""
            SELECT \(Self.columns), m.role FROM groupMember m JOIN spottingGroup g ON g.id = m.groupId
            WHERE m.userId = \(userId) ORDER BY lower(g.name)
            """).compactMap { row in try GroupRole(rawValue: row.decode(5)).map { (try Self.group(row), $0) } }
    }

    /// The shared watchlist (rules with `userId` 0), in the order they were added.
    public func groupRules(groupId: Int64) async throws -> [WatchRule] {
        try await database.query("SELECT id, kind, value, label, createdAt FROM groupRule WHERE groupId = \(groupId) ORDER BY id")
            .compactMap { try Self.rule($0) }
    }

    public func addGroupRule(groupId: Int64, kind: WatchKind, value: String, label: String?, now: Double) async throws -> WatchRule {
        let normalized = try WatchRule.normalize(kind: kind, value: value)
        do {
            let id: Int64 = try await database.write("""
                INSERT INTO groupRule (groupId, kind, value, label, createdAt) VALUES (\(groupId), \(kind.rawValue), \(normalized), \(label), \(now))
                RETURNING id
                """)[0].decode(0)
            return WatchRule(id: id, userId: 0, kind: kind, value: normalized, label: label, createdAt: now)
        } catch where database.isUniqueViolation(error) {
            throw WatchRuleError.duplicate(kind: kind, value: normalized)
        }
    }

    public func removeGroupRule(groupId: Int64, id: Int64) async throws {
        guard try await database.write("DELETE FROM groupRule WHERE groupId = \(groupId) AND id = \(id) RETURNING id").count == 1 else {
            throw GroupError.unknownRule(id)
        }
    }

    /// Every group's rules with the members they watch for (`role` owner or member).
    public func allGroupRules() async throws -> [(group: GroupRecord, rule: WatchRule, members: [Int64])] {
        var groups: [Int64: GroupRecord] = [:]
        for row in try await database.query("SELECT \(Self.columns) FROM spottingGroup g WHERE g.id IN (SELECT groupId FROM groupRule)") {
            let g = try Self.group(row)
            groups[g.id] = g
        }
        var members: [Int64: [Int64]] = [:]
        for row in try await database.query("SELECT groupId, userId FROM groupMember WHERE role IN ('owner', 'member') ORDER BY userId") {
            members[try row.decode(0), default: []].append(try row.decode(1))
        }
        return try await database.query("SELECT groupId, id, kind, value, label, createdAt FROM groupRule ORDER BY id").compactMap { row in
            guard let g = groups[try row.decode(0)], let rule = try Self.rule(row, from: 1) else { return nil }
            return (g, rule, members[g.id] ?? [])
        }
    }

    /// The group's shared-watchlist sightings, newest first (each once, whichever members
    /// logged it).
    public func groupSightings(_ group: GroupRecord, limit: Int) async throws -> [JournalEventRecord] {
        try await database.all("""
            SELECT * FROM journalEvent WHERE id IN (
                SELECT MIN(id) FROM journalEvent WHERE substr(ruleLabel, 1, length(\(group.labelPrefix))) = \(group.labelPrefix)
                    AND kind IN ('firstSeen', 'closestApproach')
                GROUP BY address, kind, time)
            ORDER BY time DESC, id DESC LIMIT \(limit)
            """)
    }

    /// The group `name` as `userId` may know it: open groups to anyone, invitation-only ones
    /// to members and invitees; otherwise `unknownGroup`.
    public func visibleGroup(_ name: String, to userId: Int64?) async throws -> (GroupRecord, GroupRole?) {
        guard let g = try await group(named: name) else { throw GroupError.unknownGroup(name) }
        var role: GroupRole?
        if let userId { role = try await members(groupId: g.id).first { $0.userId == userId }?.role }
        guard g.open || role != nil else { throw GroupError.unknownGroup(name) }
        return (g, role)
    }

    /// Joins an open group, or one the user is invited to.
    public func joinGroup(userId: Int64, name: String, now: Double) async throws {
        let (g, role) = try await visibleGroup(name, to: userId)
        switch role {
        case .owner?, .member?: throw GroupError.alreadyMember("you")
        case .invited?: try await setRole(groupId: g.id, userId: userId, role: .member, now: now)
        case nil:
            guard g.open else { throw GroupError.invitationOnly(g.name) }
            try await setRole(groupId: g.id, userId: userId, role: .member, now: now)
        }
    }

    /// Leaves a group (or declines an invitation). The owner leaves only as its last member,
    /// which deletes the group.
    public func leaveGroup(userId: Int64, name: String, now: Double) async throws {
        let (g, role) = try await visibleGroup(name, to: userId)
        guard let role else { throw GroupError.notMember("you") }
        if role == .owner {
            guard try await members(groupId: g.id).allSatisfy({ $0.userId == userId || $0.role == .invited }) else { throw GroupError.ownerCannotLeave }
            try await deleteGroup(id: g.id)
        } else {
            try await setRole(groupId: g.id, userId: userId, role: nil, now: now)
        }
    }

    /// The owner removes a member or withdraws an invitation.
    public func removeFromGroup(ownerId: Int64, group name: String, username: String, now: Double) async throws {
        let (g, role) = try await visibleGroup(name, to: ownerId)
        guard role == .owner else { throw GroupError.notOwner }
        guard let member = try await members(groupId: g.id).first(where: { $0.username.lowercased() == username.lowercased() }), member.userId != ownerId else {
            throw GroupError.notMember(username)
        }
        try await setRole(groupId: g.id, userId: member.userId, role: nil, now: now)
    }
}

extension SightingStore {
    /// Every watch rule in force: users' own, and each group rule once for every member, with
    /// an id of its own below zero (`-(rule id · 10⁷ + member id)`, not a row of the user's
    /// watchlist: `WatchRule.isWatchlistRow`) and the label `group NAME: …`, so a member's
    /// journal and alerts show the group's matches.
    public func watchRules() async throws -> [WatchRule] {
        var rules = try await watchlists.all()
        for (group, rule, members) in try await groups.allGroupRules() {
            for member in members {
                var r = rule
                r.id = -((rule.id ?? 0) * 10_000_000 + member)
                r.userId = member
                r.label = group.labelPrefix + (rule.label ?? "\(rule.kind.rawValue) \(rule.value)")
                rules.append(r)
            }
        }
        return rules
    }

    /// The owner invites `username` (who must not block the owner: else no such user).
    public func inviteToGroup(ownerId: Int64, group name: String, username: String, now: Double) async throws {
        let (g, role) = try await groups.visibleGroup(name, to: ownerId)
        guard role == .owner else { throw GroupError.notOwner }
        let other = try await social.addressable(username, by: ownerId)
        guard try await !groups.members(groupId: g.id).contains(where: { $0.userId == other.id! }) else { throw GroupError.alreadyMember(other.username) }
        try await groups.setRole(groupId: g.id, userId: other.id!, role: .invited, now: now)
    }
}

extension WatchRule {
    /// Whether a rule id is a row of a user's watchlist (what `journalEvent.watchRuleId` may
    /// reference), not a group rule expanded for a member (`watchRules()`, ids below zero).
    public static func isWatchlistRow(_ id: Int64) -> Bool { id > 0 }
}
