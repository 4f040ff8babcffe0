import Feeds
import Foundation
import Hummingbird
import Store

/// `GET /api/compare?with=USERNAME|group=NAME&period=month|year|all`: the session user's
/// numbers next to a friend's (when the friend's statistics are visible to them) or a group's
/// (members only): aircraft, types, farthest sighting, goals completed, and aircraft per type.
struct CompareController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("compare", use: compare)
    }

    func side(_ label: String, users: [Int64], start: Double, end: Double) async throws -> String {
        let (s, types) = try await accounts.database.profiles.sightingSummary(userIds: users, start: start, end: end)
        var completed: Set<Int64> = []
        for user in users {
            for goal in try await accounts.database.goals.goals(userId: user)
            where (goal.completedAt ?? -1) >= start && (goal.completedAt ?? .infinity) < end {
                if let id = goal.id { completed.insert(id) }
            }
        }
        let goals = completed.count
        var w = JSONWriter()
        w.add("name", label)
        w.add("aircraft", s.aircraft)
        w.add("types", s.types)
        w.add("longest_distance_nm", s.longestDistance, decimals: 1)
        w.add("goals_completed", goals)
        w.addRaw("per_type", JSONWriter.array(types.prefix(30).map { t in
            var tw = JSONWriter()
            tw.add("type", t.type)
            tw.add("aircraft", t.aircraft)
            return tw.finish()
        }))
        return w.finish()
    }

    @Sendable func compare(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let period = request.uri.queryParameters["period"].map(String.init) ?? "month"
        guard let (start, end) = period == "all" ? (-1e15, 1e15) : Goal.period(period, now: clock()) else {
            throw APIError.badRequest("period must be month, year or all")
        }
        let other: String
        if let name = request.uri.queryParameters["with"].map(String.init) {
            guard let friend = try await accounts.database.accounts.user(named: name), let id = friend.id,
                  try await accounts.database.social.relation(of: u.id!, to: id) == .friend else {
                throw APIError.notFound("no friend '\(name)'")
            }
            let p = try await accounts.database.profiles.profile(userId: id) ?? ProfileRecord(userId: id)
            guard p.visibility(of: .stats).admits(.friend) else { throw APIError(.forbidden, "\(friend.username) keeps their statistics to themselves") }
            other = try await side(friend.username, users: [id], start: start, end: end)
        } else if let name = request.uri.queryParameters["group"].map(String.init) {
            let (g, role) = try await GroupsController<Context>(accounts: accounts, clock: clock).run { try await accounts.database.groups.visibleGroup(name, to: u.id!) }
            guard role == .owner || role == .member else { throw APIError.notFound("no group '\(name)'") }
            other = try await side(g.name, users: try accounts.database.groups.members(groupId: g.id).filter { $0.role != .invited }.map(\.userId), start: start, end: end)
        } else {
            throw APIError.badRequest("give with=USERNAME or group=NAME")
        }
        var w = JSONWriter()
        w.add("period", period)
        w.addRaw("me", try await side(u.username, users: [u.id!], start: start, end: end))
        w.addRaw("other", other)
        return .json(w.finish())
    }
}
