import Feeds
import Foundation
import Hummingbird
import Store

/// The session user's friends and blocks: `GET /api/me/friends`, `POST /api/me/friends`
/// `{"username"}` (a request; accepting theirs when they asked first),
/// `POST /api/me/friends/{username}/accept`, `DELETE /api/me/friends/{username}` (decline,
/// withdraw or unfriend), `POST /api/me/blocks` `{"username"}`, `DELETE /api/me/blocks/{username}`.
/// A user who blocks the asker is answered as if there were no such user.
struct FriendsController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("me/friends", use: list)
        group.post("me/friends", use: request)
        group.post("me/friends/{username}/accept", use: accept)
        group.delete("me/friends/{username}", use: remove)
        group.post("me/blocks", use: block)
        group.delete("me/blocks/{username}", use: unblock)
    }

    struct Name: Decodable {
        var username: String
    }


    static func name(_ context: Context) throws -> String {
        guard let name = context.parameters.get("username"), !name.isEmpty else { throw APIError.badRequest("a user name is needed") }
        return name
    }

    /// A social error as the API answers it.
    static func apiError(_ error: SocialError) -> APIError {
        switch error {
        case .unknownUser, .noRequest, .notFriends: APIError.notFound(error.description)
        case .alreadyFriends, .alreadyRequested, .blocking: APIError(.conflict, error.description)
        case .yourself: APIError.badRequest(error.description)
        }
    }

    func run<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as SocialError { throw Self.apiError(error) }
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let list = try await accounts.database.social.friendList(userId: u.id!)
        var w = JSONWriter()
        w.add("friends", list.friends)
        w.add("incoming", list.incoming)
        w.add("outgoing", list.outgoing)
        w.add("blocked", list.blocked)
        return .json(w.finish())
    }

    @Sendable func request(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let name = try await request.decode(as: Name.self, context: context).username
        let relation = try await run { try await accounts.database.social.requestFriend(userId: u.id!, name: name, now: clock()) }
        var w = JSONWriter()
        w.add("relation", relation.rawValue)
        return .json(w.finish(), status: .created)
    }

    @Sendable func accept(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let name = try Self.name(context)
        try await run { try await accounts.database.social.acceptFriend(userId: u.id!, name: name, now: clock()) }
        var w = JSONWriter()
        w.add("relation", Relation.friend.rawValue)
        return .json(w.finish())
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let name = try Self.name(context)
        try await run { try await accounts.database.social.removeFriend(userId: u.id!, name: name, now: clock()) }
        return Response(status: .noContent)
    }

    @Sendable func block(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let name = try await request.decode(as: Name.self, context: context).username
        try await run { try await accounts.database.social.block(userId: u.id!, name: name, now: clock()) }
        return Response(status: .created)
    }

    @Sendable func unblock(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let name = try Self.name(context)
        try await run { try await accounts.database.social.unblock(userId: u.id!, name: name, now: clock()) }
        return Response(status: .noContent)
    }
}
