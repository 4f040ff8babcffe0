import Feeds
import Foundation
import Hummingbird
import Store

/// Goals: `GET /api/me/goals` (the user's own and their groups'), `POST /api/me/goals`
/// (personal, or with `group` for a group the user owns), `DELETE /api/me/goals/{id}`.
struct GoalsController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("me/goals", use: list)
        group.post("me/goals", use: add)
        group.delete("me/goals/{id}", use: remove)
    }

    struct Addition: Decodable {
        var name: String
        var kind: Goal.Kind
        var type: String?
        /// For `beyond`, NM.
        var distance_nm: Double?
        var target: Int
        /// `month`, `year` or `all` (default month).
        var period: String?
        var group: String?
    }


    static func document(_ g: Goal, groupName: String?) -> String {
        var w = JSONWriter()
        w.add("id", g.id.map { Int($0) })
        w.add("name", g.name)
        w.add("kind", g.kind.rawValue)
        w.add("type", g.type)
        w.add("distance_nm", g.distance)
        w.add("target", g.target)
        w.add("progress", g.progress)
        w.add("start", g.start)
        w.add("end", g.end)
        w.add("group", groupName)
        w.add("completed_at", g.completedAt)
        w.add("completed_by", g.completedAddress.map { PackedAddress.hex(UInt32(truncatingIfNeeded: $0)) })
        return w.finish()
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let names = Dictionary(uniqueKeysWithValues: try await accounts.database.groups.groups(userId: u.id!).map { ($0.group.id, $0.group.name) })
        var w = JSONWriter()
        w.addRaw("goals", JSONWriter.array(try await accounts.database.goals.goals(userId: u.id!).map { Self.document($0, groupName: $0.groupId.flatMap { names[$0] }) }))
        return .json(w.finish())
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let a = try await request.decode(as: Addition.self, context: context)
        guard let (start, end) = Goal.period(a.period ?? "month", now: clock()) else {
            throw APIError.badRequest(GoalError.invalidPeriod.description)
        }
        var goal = Goal(userId: u.id!, name: a.name, kind: a.kind, type: a.type, distance: a.distance_nm, target: a.target, start: start, end: end, createdAt: clock())
        var groupName: String?
        if let name = a.group {
            let (g, role) = try await GroupsController<Context>(accounts: accounts, clock: clock).run { try await accounts.database.groups.visibleGroup(name, to: u.id!) }
            guard role == .owner else { throw APIError(.forbidden, "only the group's owner sets its goals") }
            goal.userId = nil
            goal.groupId = g.id
            groupName = g.name
        }
        do {
            return .json(Self.document(try await accounts.database.goals.addGoal(goal), groupName: groupName), status: .created)
        } catch let error as GoalError {
            throw APIError.badRequest(error.description)
        }
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw APIError.badRequest("goal id must be a number") }
        do { try await accounts.database.goals.removeGoal(id: id, userId: u.id!) } catch let error as GoalError { throw APIError.notFound(error.description) }
        return Response(status: .noContent)
    }
}
