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

/// Groups, their members and shared watchlists, on either engine.
public protocol GroupStore: AnyObject, Sendable {
    /// Creates a group owned by `ownerId` (name validated and unique regardless of case).
    func createGroup(ownerId: Int64, name: String, description: String?, open: Bool, now: Double) throws -> GroupRecord
    func group(named name: String) throws -> GroupRecord?
    /// Deletes a group with its members and rules.
    func deleteGroup(id: Int64) throws
    /// Members and invitations: (user id, user name, role), by name.
    func members(groupId: Int64) throws -> [(userId: Int64, username: String, role: GroupRole)]
    /// Sets a user's role in a group; nil removes them.
    func setRole(groupId: Int64, userId: Int64, role: GroupRole?, now: Double) throws
    /// The groups a user belongs to or is invited to, with their role.
    func groups(userId: Int64) throws -> [(group: GroupRecord, role: GroupRole)]
    /// The shared watchlist (rules with `userId` 0).
    func groupRules(groupId: Int64) throws -> [WatchRule]
    func addGroupRule(groupId: Int64, kind: WatchKind, value: String, label: String?, now: Double) throws -> WatchRule
    func removeGroupRule(groupId: Int64, id: Int64) throws
    /// Every group's rules with the members they watch for (`role` owner or member).
    func allGroupRules() throws -> [(group: GroupRecord, rule: WatchRule, members: [Int64])]
    /// The group's shared-watchlist sightings, newest first (each once, whichever members
    /// logged it).
    func groupSightings(_ group: GroupRecord, limit: Int) throws -> [JournalEventRecord]
}

extension SightingStore {
    /// Every watch rule in force: users' own, and each group rule once for every member, with
    /// an id of its own below zero (`-(rule id · 10⁷ + member id)`, not a row of the user's
    /// watchlist: `WatchRule.isWatchlistRow`) and the label `group NAME: …`, so a member's
    /// journal and alerts show the group's matches.
    public func watchRules() throws -> [WatchRule] {
        var rules = try allRules()
        for (group, rule, members) in try allGroupRules() {
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

    /// The group `name` as `userId` may know it: open groups to anyone, invitation-only ones
    /// to members and invitees; otherwise `unknownGroup`.
    public func visibleGroup(_ name: String, to userId: Int64?) throws -> (GroupRecord, GroupRole?) {
        guard let g = try group(named: name) else { throw GroupError.unknownGroup(name) }
        let role = try userId.flatMap { id in try members(groupId: g.id).first { $0.userId == id }?.role }
        guard g.open || role != nil else { throw GroupError.unknownGroup(name) }
        return (g, role)
    }

    /// Joins an open group, or one the user is invited to.
    public func joinGroup(userId: Int64, name: String, now: Double) throws {
        let (g, role) = try visibleGroup(name, to: userId)
        switch role {
        case .owner?, .member?: throw GroupError.alreadyMember("you")
        case .invited?: try setRole(groupId: g.id, userId: userId, role: .member, now: now)
        case nil:
            guard g.open else { throw GroupError.invitationOnly(g.name) }
            try setRole(groupId: g.id, userId: userId, role: .member, now: now)
        }
    }

    /// Leaves a group (or declines an invitation). The owner leaves only as its last member,
    /// which deletes the group.
    public func leaveGroup(userId: Int64, name: String, now: Double) throws {
        let (g, role) = try visibleGroup(name, to: userId)
        guard let role else { throw GroupError.notMember("you") }
        if role == .owner {
            guard try members(groupId: g.id).allSatisfy({ $0.userId == userId || $0.role == .invited }) else { throw GroupError.ownerCannotLeave }
            try deleteGroup(id: g.id)
        } else {
            try setRole(groupId: g.id, userId: userId, role: nil, now: now)
        }
    }

    /// The owner invites `username` (who must not block the owner: else no such user).
    public func inviteToGroup(ownerId: Int64, group name: String, username: String, now: Double) async throws {
        let (g, role) = try visibleGroup(name, to: ownerId)
        guard role == .owner else { throw GroupError.notOwner }
        let other = try await social.addressable(username, by: ownerId)
        guard try !members(groupId: g.id).contains(where: { $0.userId == other.id! }) else { throw GroupError.alreadyMember(other.username) }
        try setRole(groupId: g.id, userId: other.id!, role: .invited, now: now)
    }

    /// The owner removes a member or withdraws an invitation.
    public func removeFromGroup(ownerId: Int64, group name: String, username: String, now: Double) throws {
        let (g, role) = try visibleGroup(name, to: ownerId)
        guard role == .owner else { throw GroupError.notOwner }
        guard let member = try members(groupId: g.id).first(where: { $0.username.lowercased() == username.lowercased() }), member.userId != ownerId else {
            throw GroupError.notMember(username)
        }
        try setRole(groupId: g.id, userId: member.userId, role: nil, now: now)
    }
}

extension WatchRule {
    /// Whether a rule id is a row of a user's watchlist (what `journalEvent.watchRuleId` may
    /// reference), not a group rule expanded for a member (`watchRules()`, ids below zero).
    public static func isWatchlistRow(_ id: Int64) -> Bool { id > 0 }
}
