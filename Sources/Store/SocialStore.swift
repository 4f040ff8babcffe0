import Foundation

/// How one user stands to another, as privacy rules read it.
public enum Relation: String, Sendable, Equatable {
    /// The same user.
    case me
    /// Friends (a request made and accepted).
    case friend
    /// The viewer asked to be friends; not answered yet.
    case requested
    /// The subject asked the viewer to be friends; not answered yet.
    case invited
    /// One of them blocks the other: neither sees nor contacts the other.
    case blocked
    /// Nothing between them.
    case none
}

/// A user's friends, requests and blocks, by user name.
public struct FriendList: Sendable, Equatable {
    public var friends: [String] = []
    /// Requests others sent this user.
    public var incoming: [String] = []
    /// Requests this user sent.
    public var outgoing: [String] = []
    /// Users this user blocks.
    public var blocked: [String] = []

    public init(friends: [String] = [], incoming: [String] = [], outgoing: [String] = [], blocked: [String] = []) {
        self.friends = friends
        self.incoming = incoming
        self.outgoing = outgoing
        self.blocked = blocked
    }
}

/// What is wrong with a friend request or block.
public enum SocialError: Error, Equatable, CustomStringConvertible {
    /// No such user, or one who blocks the asker (the two look the same, so a block is never
    /// revealed).
    case unknownUser(String)
    case yourself
    case alreadyFriends(String)
    case alreadyRequested(String)
    case noRequest(String)
    case notFriends(String)
    case blocking(String)

    public var description: String {
        switch self {
        case .unknownUser(let n): "no user '\(n)'"
        case .yourself: "that is you"
        case .alreadyFriends(let n): "you and \(n) are friends already"
        case .alreadyRequested(let n): "you asked \(n) already"
        case .noRequest(let n): "no friend request from \(n)"
        case .notFriends(let n): "\(n) is not your friend and there is no request between you"
        case .blocking(let n): "you block \(n): unblock first"
        }
    }
}

/// Friends and blocks: both engines provide them with the same results. Rows are directed:
/// `friendship(userId, otherId, state)` holds `requested` from the asker to the asked, and
/// `friends` both ways once accepted; `userBlock(userId, blockedId)`.
public protocol SocialStore: AnyObject, Sendable {
    /// The friendship row from `userId` to `otherId` (`requested` or `friends`), if any.
    func friendship(from userId: Int64, to otherId: Int64) throws -> String?
    /// Whether `userId` blocks `otherId`.
    func blocks(_ userId: Int64, _ otherId: Int64) throws -> Bool
    /// Sets the rows of one change in one transaction: `set` rows (from, to, state) written,
    /// `clear` rows (from, to) removed, blocks added or removed.
    func changeSocial(set: [(Int64, Int64, String)], clear: [(Int64, Int64)], block: (Int64, Int64)?, unblock: (Int64, Int64)?, now: Double) throws
    /// The user's friends, requests and blocks (user names, sorted).
    func friendList(userId: Int64) throws -> FriendList
}

extension SightingStore {
    /// How `viewer` stands to `subject`.
    public func relation(of viewer: Int64, to subject: Int64) throws -> Relation {
        if viewer == subject { return .me }
        if try blocks(viewer, subject) || blocks(subject, viewer) { return .blocked }
        switch try friendship(from: viewer, to: subject) {
        case "friends"?: return .friend
        case "requested"?: return .requested
        default: return try friendship(from: subject, to: viewer) == "requested" ? .invited : .none
        }
    }

    /// The other user by name as `userId` may address them: unknown when missing or when they
    /// block `userId`.
    func addressable(_ name: String, by userId: Int64) throws -> UserRecord {
        guard let other = try user(named: name), let id = other.id, try !blocks(id, userId) else { throw SocialError.unknownUser(name) }
        guard id != userId else { throw SocialError.yourself }
        return other
    }

    /// Asks `name` to be friends; when they had asked already, they become friends.
    @discardableResult
    public func requestFriend(userId: Int64, name: String, now: Double) throws -> Relation {
        let other = try addressable(name, by: userId), id = other.id!
        switch try relation(of: userId, to: id) {
        case .friend: throw SocialError.alreadyFriends(other.username)
        case .requested: throw SocialError.alreadyRequested(other.username)
        case .blocked: throw SocialError.blocking(other.username)
        case .invited:
            try changeSocial(set: [(userId, id, "friends"), (id, userId, "friends")], clear: [], block: nil, unblock: nil, now: now)
            return .friend
        case .none, .me:
            try changeSocial(set: [(userId, id, "requested")], clear: [], block: nil, unblock: nil, now: now)
            return .requested
        }
    }

    /// Accepts `name`'s request.
    public func acceptFriend(userId: Int64, name: String, now: Double) throws {
        let other = try addressable(name, by: userId), id = other.id!
        guard try relation(of: userId, to: id) == .invited else { throw SocialError.noRequest(other.username) }
        try changeSocial(set: [(userId, id, "friends"), (id, userId, "friends")], clear: [], block: nil, unblock: nil, now: now)
    }

    /// Declines `name`'s request, withdraws one's own, or ends a friendship.
    public func removeFriend(userId: Int64, name: String, now: Double) throws {
        let other = try addressable(name, by: userId), id = other.id!
        guard [.friend, .requested, .invited].contains(try relation(of: userId, to: id)) else { throw SocialError.notFriends(other.username) }
        try changeSocial(set: [], clear: [(userId, id), (id, userId)], block: nil, unblock: nil, now: now)
    }

    /// Blocks `name`: any friendship or request between them ends; neither sees the other.
    public func block(userId: Int64, name: String, now: Double) throws {
        guard let other = try user(named: name), let id = other.id else { throw SocialError.unknownUser(name) }
        guard id != userId else { throw SocialError.yourself }
        try changeSocial(set: [], clear: [(userId, id), (id, userId)], block: (userId, id), unblock: nil, now: now)
    }

    public func unblock(userId: Int64, name: String, now: Double) throws {
        guard let other = try user(named: name), let id = other.id, try blocks(userId, id) else { throw SocialError.unknownUser(name) }
        try changeSocial(set: [], clear: [], block: nil, unblock: (userId, id), now: now)
    }
}
