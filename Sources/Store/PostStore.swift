import Foundation

/// A user's post (the social side; "feeds" are the network feeds of `Feeds`).
public struct PostRecord: Sendable, Equatable {
    public enum Audience: String, Sendable, CaseIterable {
        /// Everyone, logged in or not (blocks still apply).
        case `public`
        /// The author's friends.
        case friends
        /// The members of `groupId`.
        case group
    }

    public var id: Int64?
    /// nil: an automatic post of the site (emergency squawk, new type…).
    public var userId: Int64?
    public var audience: Audience
    public var groupId: Int64?
    /// 1–1000 characters.
    public var text: String
    /// The aircraft it is about (its thread), if any.
    public var address: Int?
    public var visitId: Int64?
    public var createdAt: Double
    /// Whether it has a picture (`image/png`, `image/jpeg` or `image/webp`).
    public var pictureType: String?
    /// Filled when read: the author's name, comments and reports counted.
    public var author: String?
    public var comments = 0

    public init(id: Int64? = nil, userId: Int64?, audience: Audience, groupId: Int64? = nil, text: String, address: Int? = nil,
                visitId: Int64? = nil, createdAt: Double, author: String? = nil, comments: Int = 0) {
        self.id = id
        self.userId = userId
        self.audience = audience
        self.groupId = groupId
        self.text = text
        self.address = address
        self.visitId = visitId
        self.createdAt = createdAt
        self.author = author
        self.comments = comments
    }

    /// Text checked: trimmed, 1…`limit` characters, no control characters but newlines.
    public static func validate(text: String, limit: Int) throws(PostError) -> String {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...limit).contains(t.count),
              !t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
            throw .invalidText(limit: limit)
        }
        return t
    }
}

public struct CommentRecord: Sendable, Equatable {
    public var id: Int64?
    public var postId: Int64
    public var userId: Int64
    public var author: String?
    public var text: String
    public var createdAt: Double

    public init(id: Int64? = nil, postId: Int64, userId: Int64, author: String? = nil, text: String, createdAt: Double) {
        self.id = id
        self.postId = postId
        self.userId = userId
        self.author = author
        self.text = text
        self.createdAt = createdAt
    }
}

public struct ReportRecord: Sendable, Equatable {
    public var postId: Int64
    public var reporter: String
    public var reason: String
    public var createdAt: Double
    public var text: String

    public init(postId: Int64, reporter: String, reason: String, createdAt: Double, text: String) {
        self.postId = postId
        self.reporter = reporter
        self.reason = reason
        self.createdAt = createdAt
        self.text = text
    }
}

/// Which posts a page of posts holds.
public enum PostsView: Sendable, Equatable {
    /// Public posts (logged out: `viewer` nil).
    case everyone
    /// Posts of the viewer's friends (public or friends-only) and their own.
    case friends
    /// A group's posts (members only).
    case group(Int64)
    /// An aircraft's thread: the posts about it the viewer may see.
    case aircraft(Int)
}

public enum PostError: Error, Equatable, CustomStringConvertible {
    case invalidText(limit: Int)
    case unknownPost(Int64)
    case notAllowed
    case alreadyReported

    public var description: String {
        switch self {
        case .invalidText(let n): "the text must be 1-\(n) characters"
        case .unknownPost(let id): "no post \(id)"
        case .notAllowed: "only the author, or the site's owner or an admin, may delete it"
        case .alreadyReported: "you reported it already"
        }
    }
}

/// Posts, comments, reports and site admins, written once for both engines on the storage
/// seam (`store.posts`).
public struct PostRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    /// Columns: id, userId, audience, groupId, text, address, visitId, createdAt, author, comments, pictureType.
    static let columns: SQL = """
        p.id, p.userId, p.audience, p.groupId, p.text, p.address, p.visitId, p.createdAt, u.username,
        (SELECT COUNT(*) FROM comment c WHERE c.postId = p.id), p.pictureType
        """

    static func post(_ row: SQLRow) throws -> PostRecord? {
        guard let audience = PostRecord.Audience(rawValue: try row.decode(2)) else { return nil }
        return PostRecord(id: try row.decode(0), userId: try row.decode(1), audience: audience, groupId: try row.decode(3),
                          text: try row.decode(4), address: try row.decode(5), visitId: try row.decode(6), createdAt: try row.decode(7),
                          author: try row.decode(8), comments: try row.decode(9))
            .picture(try row.decode(10))
    }

    /// Whether post `p` is visible to `viewer` (nil: logged out).
    static func visible(_ viewer: Int64?) -> SQL {
        guard let v = viewer else { return "p.audience = 'public'" }
        return """
            (p.audience = 'public'
             OR (p.audience = 'friends' AND (p.userId = \(v) OR EXISTS (SELECT 1 FROM friendship f WHERE f.userId = \(v) AND f.otherId = p.userId AND f.state = 'friends')))
             OR (p.audience = 'group' AND EXISTS (SELECT 1 FROM groupMember m WHERE m.groupId = p.groupId AND m.userId = \(v) AND m.role IN ('owner', 'member'))))
            AND (p.userId IS NULL OR NOT EXISTS (SELECT 1 FROM userBlock b WHERE (b.userId = \(v) AND b.blockedId = p.userId) OR (b.userId = p.userId AND b.blockedId = \(v))))
            """
    }

    public func addPost(_ post: PostRecord) async throws -> PostRecord {
        var p = post
        p.text = try PostRecord.validate(text: post.text, limit: 1000)
        p.id = try await database.write("""
            INSERT INTO post (userId, audience, groupId, text, address, visitId, createdAt)
            VALUES (\(p.userId), \(p.audience.rawValue), \(p.groupId), \(p.text), \(p.address), \(p.visitId), \(p.createdAt))
            RETURNING id
            """)[0].decode(0)
        return p
    }

    /// One page, newest first: posts of `view` visible to `viewer` (nil: logged out) with ids
    /// below `before`, at most `limit`. Posts of users who block the viewer or whom the viewer
    /// blocks are left out.
    public func posts(_ view: PostsView, viewer: Int64?, before: Int64?, limit: Int) async throws -> [PostRecord] {
        var conditions: [SQL] = []
        switch view {
        case .everyone: conditions += [Self.visible(viewer), "p.audience = 'public'"]
        case .friends:
            // Friends' posts are visible to them by definition (a block ends a friendship).
            if let v = viewer {
                // The authors first (an index range each), not every post checked for friendship.
                conditions.append("p.audience IN ('public', 'friends') AND p.userId IN (SELECT otherId FROM friendship WHERE userId = \(v) AND state = 'friends' UNION ALL SELECT \(v))")
            } else {
                conditions.append("1 = 0")
            }
        case .group(let g): conditions += [Self.visible(viewer), "p.audience = 'group' AND p.groupId = \(g)"]
        case .aircraft(let a): conditions += [Self.visible(viewer), "p.address = \(Int64(a))"]
        }
        if let before { conditions.append("p.id < \(before)") }
        // The page's ids first; authors and comment counts for those (not for every candidate
        // the sort sees).
        return try await database.query("""
            SELECT \(Self.columns) FROM post p LEFT JOIN "user" u ON u.id = p.userId
            WHERE p.id IN (SELECT p.id FROM post p WHERE \(SQL.joined(conditions, separator: " AND "))
                           ORDER BY p.id DESC LIMIT \(Int64(max(1, min(limit, 200)))))
            ORDER BY p.id DESC
            """).compactMap(Self.post)
    }

    /// A post, if `viewer` may see it.
    public func post(id: Int64, viewer: Int64?) async throws -> PostRecord? {
        try await database.query("""
            SELECT \(Self.columns) FROM post p LEFT JOIN "user" u ON u.id = p.userId WHERE p.id = \(id) AND \(Self.visible(viewer))
            """).first.flatMap(Self.post)
    }

    public func deletePost(id: Int64) async throws {
        guard try await database.write("DELETE FROM post WHERE id = \(id) RETURNING id").count == 1 else { throw PostError.unknownPost(id) }
    }

    /// Sets a post's picture, already validated and re-encoded.
    public func setPostPicture(id: Int64, data: [UInt8], type: String) async throws {
        guard try await database.write("UPDATE post SET picture = \(Data(data)), pictureType = \(type) WHERE id = \(id) RETURNING id").count == 1 else {
            throw PostError.unknownPost(id)
        }
    }

    /// A post's picture (the caller checks the post is visible).
    public func postPicture(id: Int64) async throws -> (data: [UInt8], type: String)? {
        guard let row = try await database.query("SELECT picture, pictureType FROM post WHERE id = \(id) AND picture IS NOT NULL").first else {
            return nil
        }
        return ([UInt8](try row.decode(0, as: Data.self)), try row.decode(1))
    }

    public func addComment(_ comment: CommentRecord) async throws -> CommentRecord {
        var c = comment
        c.text = try PostRecord.validate(text: comment.text, limit: 500)
        c.id = try await database.write("""
            INSERT INTO comment (postId, userId, text, createdAt) VALUES (\(c.postId), \(c.userId), \(c.text), \(c.createdAt)) RETURNING id
            """)[0].decode(0)
        return c
    }

    public func comments(postId: Int64) async throws -> [CommentRecord] {
        try await database.query("""
            SELECT c.id, c.postId, c.userId, u.username, c.text, c.createdAt FROM comment c JOIN "user" u ON u.id = c.userId
            WHERE c.postId = \(postId) ORDER BY c.id
            """).map {
            CommentRecord(id: try $0.decode(0), postId: try $0.decode(1), userId: try $0.decode(2), author: try $0.decode(3),
                          text: try $0.decode(4), createdAt: try $0.decode(5))
        }
    }

    /// Reports a post (once per user: `alreadyReported` after that).
    public func report(postId: Int64, userId: Int64, reason: String, now: Double) async throws {
        let why = try PostRecord.validate(text: reason, limit: 300)
        do {
            try await database.write("INSERT INTO postReport (postId, userId, reason, createdAt) VALUES (\(postId), \(userId), \(why), \(now))")
        } catch where database.isUniqueViolation(error) {
            throw PostError.alreadyReported
        }
    }

    public func reports(limit: Int) async throws -> [ReportRecord] {
        try await database.query("""
            SELECT r.postId, u.username, r.reason, r.createdAt, p.text FROM postReport r JOIN "user" u ON u.id = r.userId
            JOIN post p ON p.id = r.postId ORDER BY r.createdAt DESC LIMIT \(limit)
            """).map {
            ReportRecord(postId: try $0.decode(0), reporter: try $0.decode(1), reason: try $0.decode(2), createdAt: try $0.decode(3), text: try $0.decode(4))
        }
    }

    /// Every type in the sighting log but the visits `excludingVisits` (what is new).
    public func knownTypes(excludingVisits: Set<Int64>) async throws -> Set<String> {
        let excluded: SQL = excludingVisits.isEmpty ? "" : " AND id NOT IN (\(SQL.list(excludingVisits.sorted())))"
        return Set(try await database.query("SELECT DISTINCT upper(typeCode) FROM visit WHERE typeCode IS NOT NULL\(excluded)").map { try $0.decode(0) })
    }

    public func isAdmin(userId: Int64) async throws -> Bool {
        try await !database.query("SELECT userId FROM siteAdmin WHERE userId = \(userId)").isEmpty
    }

    public func setAdmin(userId: Int64, _ admin: Bool) async throws {
        if admin {
            try await database.write("INSERT INTO siteAdmin (userId) VALUES (\(userId)) ON CONFLICT DO NOTHING")
        } else {
            try await database.write("DELETE FROM siteAdmin WHERE userId = \(userId)")
        }
    }
}

extension PostRecord {
    /// The record with its picture type as read.
    public func picture(_ type: String?) -> PostRecord {
        var p = self
        p.pictureType = type
        return p
    }
}
