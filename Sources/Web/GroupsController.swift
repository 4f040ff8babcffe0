import Feeds
import Foundation
import Hummingbird
import Store

/// Spotting clubs: `POST /api/groups`, `GET /api/me/groups`, `GET /api/groups/{name}`,
/// `POST /api/groups/{name}/join`, `POST /api/groups/{name}/leave`,
/// `POST /api/groups/{name}/invitations`, `DELETE /api/groups/{name}/members/{username}`,
/// `POST /api/groups/{name}/watchlist`, `DELETE /api/groups/{name}/watchlist/{id}`. An
/// invitation-only group does not exist for those neither in it nor invited (404). Members
/// see the members, the shared watchlist and its sightings; members add to the watchlist;
/// the owner invites, removes and takes rules off it.
struct GroupsController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("groups", use: create)
        group.get("me/groups", use: mine)
        group.get("groups/{name}", use: show)
        group.post("groups/{name}/join", use: join)
        group.post("groups/{name}/leave", use: leave)
        group.post("groups/{name}/invitations", use: invite)
        group.delete("groups/{name}/members/{username}", use: removeMember)
        group.post("groups/{name}/watchlist", use: addRule)
        group.delete("groups/{name}/watchlist/{id}", use: removeRule)
    }

    struct Creation: Decodable {
        var name: String
        var description: String?
        var open: Bool?
    }

    struct Name: Decodable {
        var username: String
    }


    /// Runs `body`; store errors become the API's answers.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let e as GroupError {
            switch e {
            case .unknownGroup, .notMember, .unknownRule: throw APIError.notFound(e.description)
            case .notOwner, .invitationOnly: throw APIError(.forbidden, e.description)
            case .alreadyMember, .ownerCannotLeave, .duplicateName: throw APIError(.conflict, e.description)
            case .invalidName: throw APIError.badRequest(e.description)
            }
        } catch let e as SocialError {
            throw FriendsController<Context>.apiError(e)
        } catch let e as WatchRuleError {
            if case .duplicate = e { throw APIError(.conflict, e.description) }
            throw APIError.badRequest(e.description)
        }
    }

    func name(_ context: Context) -> String { context.parameters.get("name") ?? "" }

    static func summary(_ g: GroupRecord, role: GroupRole?) -> String {
        var w = JSONWriter()
        w.add("name", g.name)
        w.add("description", g.description)
        w.add("open", g.open)
        w.add("role", role?.rawValue)
        return w.finish()
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let c = try await request.decode(as: Creation.self, context: context)
        if let d = c.description, d.count > 500 { throw APIError.badRequest("the description must be at most 500 characters") }
        let g = try await run { try await accounts.database.groups.createGroup(ownerId: u.id!, name: c.name, description: c.description, open: c.open ?? true, now: clock()) }
        return .json(Self.summary(g, role: .owner), status: .created)
    }

    @Sendable func mine(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        var w = JSONWriter()
        w.addRaw("groups", JSONWriter.array(try await accounts.database.groups.groups(userId: u.id!).map { Self.summary($0.group, role: $0.role) }))
        return .json(w.finish())
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let (g, role) = try await run { try await accounts.database.groups.visibleGroup(name(context), to: u.id!) }
        let members = try await accounts.database.groups.members(groupId: g.id)
        var w = JSONWriter()
        w.add("name", g.name)
        w.add("description", g.description)
        w.add("open", g.open)
        w.add("role", role?.rawValue)
        w.add("members_count", members.filter { $0.role != .invited }.count)
        if role == .owner || role == .member {
            w.addRaw("members", JSONWriter.array(members.map { m in
                var mw = JSONWriter()
                mw.add("username", m.username)
                mw.add("role", m.role.rawValue)
                return mw.finish()
            }))
            w.addRaw("watchlist", AccountController<Context>.rulesDocument(try await accounts.database.groups.groupRules(groupId: g.id)))
            w.addRaw("sightings", AccountController<Context>.journalDocument(try await accounts.database.groups.groupSightings(g, limit: 50), for: u))
        }
        return .json(w.finish())
    }

    @Sendable func join(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        try await run { try await accounts.database.groups.joinGroup(userId: u.id!, name: name(context), now: clock()) }
        let (g, role) = try await run { try await accounts.database.groups.visibleGroup(name(context), to: u.id!) }
        return .json(Self.summary(g, role: role))
    }

    @Sendable func leave(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        try await run { try await accounts.database.groups.leaveGroup(userId: u.id!, name: name(context), now: clock()) }
        return Response(status: .noContent)
    }

    @Sendable func invite(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let other = try await request.decode(as: Name.self, context: context).username
        try await run { try await accounts.database.inviteToGroup(ownerId: u.id!, group: name(context), username: other, now: clock()) }
        return Response(status: .created)
    }

    @Sendable func removeMember(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let other = context.parameters.get("username") ?? ""
        try await run { try await accounts.database.groups.removeFromGroup(ownerId: u.id!, group: name(context), username: other, now: clock()) }
        return Response(status: .noContent)
    }

    @Sendable func addRule(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let add = try await request.decode(as: AccountController<Context>.WatchAddition.self, context: context)
        let rule = try await run { () throws -> WatchRule in
            let (g, role) = try await accounts.database.groups.visibleGroup(name(context), to: u.id!)
            guard role == .owner || role == .member else { throw GroupError.notMember("you") }
            return try await accounts.database.groups.addGroupRule(groupId: g.id, kind: add.kind, value: add.value ?? "*", label: add.label, now: clock())
        }
        return .json(AccountController<Context>.rule(rule), status: .created)
    }

    @Sendable func removeRule(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw APIError.badRequest("rule id must be a number") }
        try await run {
            let (g, role) = try await accounts.database.groups.visibleGroup(name(context), to: u.id!)
            guard role == .owner else { throw role == nil ? GroupError.unknownGroup(name(context)) : GroupError.notOwner }
            try await accounts.database.groups.removeGroupRule(groupId: g.id, id: id)
        }
        return Response(status: .noContent)
    }
}
