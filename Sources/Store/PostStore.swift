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

/// Posts, comments, reports and site admins, on either engine.
public protocol PostStore: AnyObject, Sendable {
    func addPost(_ post: PostRecord) throws -> PostRecord
    /// One page, newest first: posts of `view` visible to `viewer` (nil: logged out) with ids
    /// below `before`, at most `limit`. Posts of users who block the viewer or whom the viewer
    /// blocks are left out.
    func posts(_ view: PostsView, viewer: Int64?, before: Int64?, limit: Int) throws -> [PostRecord]
    /// A post, if `viewer` may see it.
    func post(id: Int64, viewer: Int64?) throws -> PostRecord?
    func deletePost(id: Int64) throws
    /// Sets a post's picture, already validated and re-encoded.
    func setPostPicture(id: Int64, data: [UInt8], type: String) throws
    /// A post's picture (the caller checks the post is visible).
    func postPicture(id: Int64) throws -> (data: [UInt8], type: String)?
    func addComment(_ comment: CommentRecord) throws -> CommentRecord
    func comments(postId: Int64) throws -> [CommentRecord]
    func report(postId: Int64, userId: Int64, reason: String, now: Double) throws
    func reports(limit: Int) throws -> [ReportRecord]
    /// Every type in the sighting log but the visits `excludingVisits` (what is new).
    func knownTypes(excludingVisits: Set<Int64>) throws -> Set<String>
    func isAdmin(userId: Int64) throws -> Bool
    func setAdmin(userId: Int64, _ admin: Bool) throws
}

/// The SELECT of a page of posts, shared by both engines: `bind` adds a value and returns its
/// placeholder (`?` or `$n`).
public enum PostQuery {
    /// Columns: id, userId, audience, groupId, text, address, visitId, createdAt, author, comments, pictureType.
    public static let columns = """
        p.id, p.userId, p.audience, p.groupId, p.text, p.address, p.visitId, p.createdAt, u.username,
        (SELECT COUNT(*) FROM comment c WHERE c.postId = p.id), p.pictureType
        """

    /// Whether post `p` is visible to the viewer (`viewer` a placeholder holding the viewer's
    /// id, or nil when logged out).
    public static func visible(_ viewer: String?) -> String {
        guard let v = viewer else { return "p.audience = 'public'" }
        return """
            (p.audience = 'public'
             OR (p.audience = 'friends' AND (p.userId = \(v) OR EXISTS (SELECT 1 FROM friendship f WHERE f.userId = \(v) AND f.otherId = p.userId AND f.state = 'friends')))
             OR (p.audience = 'group' AND EXISTS (SELECT 1 FROM groupMember m WHERE m.groupId = p.groupId AND m.userId = \(v) AND m.role IN ('owner', 'member'))))
            AND (p.userId IS NULL OR NOT EXISTS (SELECT 1 FROM userBlock b WHERE (b.userId = \(v) AND b.blockedId = p.userId) OR (b.userId = p.userId AND b.blockedId = \(v))))
            """
    }

    public static func page(_ view: PostsView, viewer: Int64?, before: Int64?, limit: Int, bind: (Int64) -> String) -> String {
        let v = viewer.map(bind)
        var conditions: [String] = []
        switch view {
        case .everyone: conditions += [visible(v), "p.audience = 'public'"]
        case .friends:
            // Friends' posts are visible to them by definition (a block ends a friendship).
            if let v {
                // The authors first (an index range each), not every post checked for friendship.
                conditions.append("p.audience IN ('public', 'friends') AND p.userId IN (SELECT otherId FROM friendship WHERE userId = \(v) AND state = 'friends' UNION ALL SELECT \(v))")
            } else {
                conditions.append("false")
            }
        case .group(let g): conditions += [visible(v), "p.audience = 'group' AND p.groupId = \(bind(g))"]
        case .aircraft(let a): conditions += [visible(v), "p.address = \(bind(Int64(a)))"]
        }
        if let before { conditions.append("p.id < \(bind(before))") }
        // The page's ids first; authors and comment counts for those 50 only (not for every
        // candidate the sort sees).
        return """
            SELECT \(columns) FROM post p LEFT JOIN "user" u ON u.id = p.userId
            WHERE p.id IN (SELECT p.id FROM post p WHERE \(conditions.joined(separator: " AND "))
                           ORDER BY p.id DESC LIMIT \(bind(Int64(max(1, min(limit, 200))))))
            ORDER BY p.id DESC
            """
    }

    public static func one(id: Int64, viewer: Int64?, bind: (Int64) -> String) -> String {
        let v = viewer.map(bind)
        return "SELECT \(columns) FROM post p LEFT JOIN \"user\" u ON u.id = p.userId WHERE p.id = \(bind(id)) AND \(visible(v))"
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
