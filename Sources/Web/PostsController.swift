import Feeds
import Foundation
import Hummingbird
import Images
import ModeS
import Store

/// Posts: `GET /api/feed?view=everyone|friends|group&group=&before=&limit=`
/// (pages of at most 50 by default, newest first, `next` is the cursor of the following
/// page), `POST /api/posts`, `GET/DELETE /api/posts/{id}`, `POST /api/posts/{id}/comments`,
/// `POST /api/posts/{id}/report`, an aircraft's thread `GET /api/aircraft/{hex}/thread`, and
/// for admins `GET /api/admin/reports`. A post the viewer may not see is 404, like one that
/// does not exist; posts of users either side blocks are left out.
struct PostsController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("feed", use: posts)
        group.post("posts", use: create)
        group.get("posts/{id}", use: show)
        group.delete("posts/{id}", use: remove)
        group.post("posts/{id}/comments", use: comment)
        group.post("posts/{id}/report", use: report)
        group.put("posts/{id}/picture", use: uploadPicture)
        group.get("posts/{id}/picture", use: picture)
        group.get("aircraft/{hex}/thread", use: thread)
        group.get("admin/reports", use: reports)
    }

    struct NewPost: Decodable {
        var text: String
        var audience: String?
        var group: String?
        var hex: String?
    }

    struct Text: Decodable {
        var text: String
    }

    struct Reason: Decodable {
        var reason: String
    }

    var groups: GroupsController<Context> { GroupsController(accounts: accounts, clock: clock) }

    static func document(_ p: PostRecord) -> String {
        var w = JSONWriter()
        w.add("id", p.id.map { Int($0) })
        w.add("author", p.author)
        w.add("automatic", p.userId == nil)
        w.add("audience", p.audience.rawValue)
        w.add("text", p.text)
        w.add("hex", p.address.map { PackedAddress.hex(UInt32(truncatingIfNeeded: $0)) })
        w.add("created_at", p.createdAt)
        w.add("comments", p.comments)
        if p.pictureType != nil, let id = p.id { w.add("picture", "api/posts/\(id)/picture") }
        return w.finish()
    }

    static func page(_ posts: [PostRecord], limit: Int) -> String {
        var w = JSONWriter()
        w.addRaw("posts", JSONWriter.array(posts.map(document)))
        w.add("next", posts.count == limit ? posts.last?.id.map { String($0) } : nil)
        return w.finish()
    }

    func limit(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return 50 }
        guard let n = Int(text), (1...200).contains(n) else { throw APIError.badRequest("limit must be 1…200") }
        return n
    }

    func cursor(_ request: Request) throws -> Int64? {
        guard let text = request.uri.queryParameters["before"] else { return nil }
        guard let n = Int64(text), n > 0 else { throw APIError.badRequest("before must be a post id") }
        return n
    }

    func postId(_ context: Context) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw APIError.badRequest("post id must be a number") }
        return id
    }

    @Sendable func posts(_ request: Request, context: Context) async throws -> Response {
        let viewer = await accounts.viewer(request, now: clock())
        let view: PostsView
        switch request.uri.queryParameters["view"].map(String.init) ?? "everyone" {
        case "everyone": view = .everyone
        case "friends":
            guard viewer != nil else { throw APIError(.unauthorized, "log in first") }
            view = .friends
        case "group":
            guard let u = viewer else { throw APIError(.unauthorized, "log in first") }
            let name = request.uri.queryParameters["group"].map(String.init) ?? ""
            let (g, role) = try await groups.run { try await accounts.database.groups.visibleGroup(name, to: u.id!) }
            guard role == .owner || role == .member else { throw APIError.notFound("no group '\(name)'") }
            view = .group(g.id)
        default: throw APIError.badRequest("view must be everyone, friends or group")
        }
        let n = try limit(request)
        return .json(Self.page(try await accounts.database.posts.posts(view, viewer: viewer?.id, before: try cursor(request), limit: n), limit: n))
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let new = try await request.decode(as: NewPost.self, context: context)
        guard let audience = PostRecord.Audience(rawValue: new.audience ?? "public") else {
            throw APIError.badRequest("audience must be public, friends or group")
        }
        var groupId: Int64?
        if audience == .group {
            let (g, role) = try await groups.run { try await accounts.database.groups.visibleGroup(new.group ?? "", to: u.id!) }
            guard role == .owner || role == .member else { throw APIError.notFound("no group '\(new.group ?? "")'") }
            groupId = g.id
        }
        var address: Int?
        if let hex = new.hex {
            guard hex.count == 6, let a = UInt32(hex, radix: 16) else { throw APIError.badRequest("hex must be 6 hex digits") }
            address = Int(a)
        }
        do {
            var p = try await accounts.database.posts.addPost(PostRecord(userId: u.id!, audience: audience, groupId: groupId, text: new.text,
                                                             address: address, createdAt: clock()))
            p.author = u.username
            return .json(Self.document(p), status: .created)
        } catch let e as PostError {
            throw APIError.badRequest(e.description)
        }
    }

    /// The post if the viewer may see it, else 404.
    func visiblePost(_ id: Int64, viewer: UserRecord?) async throws -> PostRecord {
        guard let p = try await accounts.database.posts.post(id: id, viewer: viewer?.id) else { throw APIError.notFound("no post \(id)") }
        return p
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let viewer = await accounts.viewer(request, now: clock())
        let p = try await visiblePost(try postId(context), viewer: viewer)
        var w = JSONWriter()
        w.addRaw("post", Self.document(p))
        w.addRaw("comments", JSONWriter.array(try await accounts.database.posts.comments(postId: p.id!).map { c in
            var cw = JSONWriter()
            cw.add("id", c.id.map { Int($0) })
            cw.add("author", c.author)
            cw.add("text", c.text)
            cw.add("created_at", c.createdAt)
            return cw.finish()
        }))
        return .json(w.finish())
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let p = try await visiblePost(try postId(context), viewer: u)
        let admin = try await accounts.database.posts.isAdmin(userId: u.id!)
        guard p.userId == u.id || admin else { throw APIError(.forbidden, PostError.notAllowed.description) }
        try await accounts.database.posts.deletePost(id: p.id!)
        return Response(status: .noContent)
    }

    @Sendable func comment(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let p = try await visiblePost(try postId(context), viewer: u)
        let text = try await request.decode(as: Text.self, context: context).text
        do {
            let c = try await accounts.database.posts.addComment(CommentRecord(postId: p.id!, userId: u.id!, text: text, createdAt: clock()))
            var w = JSONWriter()
            w.add("id", c.id.map { Int($0) })
            w.add("author", u.username)
            w.add("text", c.text)
            return .json(w.finish(), status: .created)
        } catch let e as PostError {
            throw APIError.badRequest(e.description)
        }
    }

    @Sendable func report(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let p = try await visiblePost(try postId(context), viewer: u)
        let reason = try await request.decode(as: Reason.self, context: context).reason
        do { try await accounts.database.posts.report(postId: p.id!, userId: u.id!, reason: reason, now: clock()) } catch let e as PostError {
            if e == .alreadyReported { throw APIError(.conflict, e.description) }
            throw APIError.badRequest(e.description)
        }
        return Response(status: .created)
    }

    /// The author adds a picture to their post: PNG, JPEG or WebP through the image library,
    /// at most 1024 pixels a side once re-encoded.
    @Sendable func uploadPicture(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let p = try await visiblePost(try postId(context), viewer: u)
        guard p.userId == u.id else { throw APIError(.forbidden, "only the author adds a picture") }
        let picture = try await Pictures.upload(request, side: ProfilePicture.postSide)
        try await accounts.database.posts.setPostPicture(id: p.id!, data: picture.data, type: picture.format.contentType)
        var updated = p
        updated.pictureType = picture.format.contentType
        return .json(Self.document(updated))
    }

    @Sendable func picture(_ request: Request, context: Context) async throws -> Response {
        let viewer = await accounts.viewer(request, now: clock())
        let p = try await visiblePost(try postId(context), viewer: viewer)
        return try await Pictures.response(try accounts.database.posts.postPicture(id: p.id!))
    }

    @Sendable func thread(_ request: Request, context: Context) async throws -> Response {
        let viewer = await accounts.viewer(request, now: clock())
        guard let hex = context.parameters.get("hex"), hex.count == 6, let address = UInt32(hex, radix: 16) else {
            throw APIError.badRequest("hex must be 6 hex digits")
        }
        let n = try limit(request)
        return .json(Self.page(try await accounts.database.posts.posts(.aircraft(Int(address)), viewer: viewer?.id, before: try cursor(request), limit: n), limit: n))
    }

    @Sendable func reports(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        guard try await accounts.database.posts.isAdmin(userId: u.id!) else { throw APIError(.forbidden, "for the site's admins only") }
        var w = JSONWriter()
        w.addRaw("reports", JSONWriter.array(try await accounts.database.posts.reports(limit: 200).map { r in
            var rw = JSONWriter()
            rw.add("post", Int(r.postId))
            rw.add("reporter", r.reporter)
            rw.add("reason", r.reason)
            rw.add("text", r.text)
            rw.add("created_at", r.createdAt)
            return rw.finish()
        }))
        return .json(w.finish())
    }
}
