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

/// Friends and blocks, written once for both engines on the storage seam. Rows are
/// directed: `friendship(userId, otherId, state)` holds `requested` from the asker to the
/// asked, and `friends` both ways once accepted; `userBlock(userId, blockedId)`.
public struct SocialRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    var accounts: AccountRepository { AccountRepository(database) }

    /// The friendship row from `userId` to `otherId` (`requested` or `friends`), if any.
    func friendship(from userId: Int64, to otherId: Int64) async throws -> String? {
        try await database.value("SELECT state FROM friendship WHERE userId = \(userId) AND otherId = \(otherId)")
    }

    /// Whether `userId` blocks `otherId`.
    public func blocks(_ userId: Int64, _ otherId: Int64) async throws -> Bool {
        try await !database.query("SELECT 1 FROM userBlock WHERE userId = \(userId) AND blockedId = \(otherId)").isEmpty
    }

    /// How `viewer` stands to `subject`.
    public func relation(of viewer: Int64, to subject: Int64) async throws -> Relation {
        if viewer == subject { return .me }
        if try await blocks(viewer, subject) { return .blocked }
        if try await blocks(subject, viewer) { return .blocked }
        switch try await friendship(from: viewer, to: subject) {
        case "friends"?: return .friend
        case "requested"?: return .requested
        default: return try await friendship(from: subject, to: viewer) == "requested" ? .invited : .none
        }
    }

    /// The other user by name as `userId` may address them: unknown when missing or when they
    /// block `userId`.
    public func addressable(_ name: String, by userId: Int64) async throws -> UserRecord {
        guard let other = try await accounts.user(named: name), let id = other.id, try await !blocks(id, userId) else { throw SocialError.unknownUser(name) }
        guard id != userId else { throw SocialError.yourself }
        return other
    }

    /// Asks `name` to be friends; when they had asked already, they become friends.
    @discardableResult
    public func requestFriend(userId: Int64, name: String, now: Double) async throws -> Relation {
        let other = try await addressable(name, by: userId), id = other.id!
        switch try await relation(of: userId, to: id) {
        case .friend: throw SocialError.alreadyFriends(other.username)
        case .requested: throw SocialError.alreadyRequested(other.username)
        case .blocked: throw SocialError.blocking(other.username)
        case .invited:
            try await database.transaction([Self.set(userId, id, "friends", now), Self.set(id, userId, "friends", now)])
            return .friend
        case .none, .me:
            try await database.write(Self.set(userId, id, "requested", now))
            return .requested
        }
    }

    /// Accepts `name`'s request.
    public func acceptFriend(userId: Int64, name: String, now: Double) async throws {
        let other = try await addressable(name, by: userId), id = other.id!
        guard try await relation(of: userId, to: id) == .invited else { throw SocialError.noRequest(other.username) }
        try await database.transaction([Self.set(userId, id, "friends", now), Self.set(id, userId, "friends", now)])
    }

    /// Declines `name`'s request, withdraws one's own, or ends a friendship.
    public func removeFriend(userId: Int64, name: String, now: Double) async throws {
        let other = try await addressable(name, by: userId), id = other.id!
        guard [.friend, .requested, .invited].contains(try await relation(of: userId, to: id)) else { throw SocialError.notFriends(other.username) }
        try await database.write(Self.clear(userId, id))
    }

    /// Blocks `name`: any friendship or request between them ends; neither sees the other.
    public func block(userId: Int64, name: String, now: Double) async throws {
        guard let other = try await accounts.user(named: name), let id = other.id else { throw SocialError.unknownUser(name) }
        guard id != userId else { throw SocialError.yourself }
        try await database.transaction([
            Self.clear(userId, id),
            "INSERT INTO userBlock (userId, blockedId, createdAt) VALUES (\(userId), \(id), \(now)) ON CONFLICT DO NOTHING",
        ])
    }

    public func unblock(userId: Int64, name: String, now: Double) async throws {
        guard let other = try await accounts.user(named: name), let id = other.id, try await blocks(userId, id) else { throw SocialError.unknownUser(name) }
        try await database.write("DELETE FROM userBlock WHERE userId = \(userId) AND blockedId = \(id)")
    }

    /// The user's friends, requests and blocks (user names, sorted).
    public func friendList(userId: Int64) async throws -> FriendList {
        func names(_ sql: SQL) async throws -> [String] {
            try await database.query("\(sql) ORDER BY lower(u.username)").map { try $0.decode(0) }
        }
        return FriendList(
            friends: try await names("SELECT u.username FROM friendship f JOIN \"user\" u ON u.id = f.otherId WHERE f.userId = \(userId) AND f.state = 'friends'"),
            incoming: try await names("SELECT u.username FROM friendship f JOIN \"user\" u ON u.id = f.userId WHERE f.otherId = \(userId) AND f.state = 'requested'"),
            outgoing: try await names("SELECT u.username FROM friendship f JOIN \"user\" u ON u.id = f.otherId WHERE f.userId = \(userId) AND f.state = 'requested'"),
            blocked: try await names("SELECT u.username FROM userBlock b JOIN \"user\" u ON u.id = b.blockedId WHERE b.userId = \(userId)"))
    }

    /// The friendship row from `a` to `b` set to `state`.
    static func set(_ a: Int64, _ b: Int64, _ state: String, _ now: Double) -> SQL {
        """
        INSERT INTO friendship (userId, otherId, state, createdAt) VALUES (\(a), \(b), \(state), \(now))
        ON CONFLICT (userId, otherId) DO UPDATE SET state = excluded.state
        """
    }

    /// Both friendship rows between `a` and `b` removed.
    static func clear(_ a: Int64, _ b: Int64) -> SQL {
        "DELETE FROM friendship WHERE (userId = \(a) AND otherId = \(b)) OR (userId = \(b) AND otherId = \(a))"
    }
}
