import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing
import Tracking
@testable import Web

/// Every route that acts for a logged-in user (`/api/me…`, `/api/groups…`, `/api/feed`,
/// `/api/posts…`, `/api/admin…`, `/api/compare`), and those that show one user's things to
/// another (`/api/users…`, an aircraft's thread), table-driven: logged out it is 401; another user (a stranger, or
/// one alice blocks) gets 404 for alice's things or only their own data, and never a trace of
/// alice's. A route added without a row here fails `everyRouteHasARow`.
@Suite("Web: access control of every /api/me and /api/groups route")
struct AccessControlTests {
    /// One route with a request that names alice's things (`{place}`, `{reminder}`, `{rule}`
    /// are alice's ids; `alice` her name).
    struct Row: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        /// The route as the router names it.
        var route: String
        /// The request path, placeholders filled in later.
        var path: String
        var body: String?
        /// What a stranger (bob) gets.
        var stranger: HTTPResponse.Status
        /// What a user alice blocks (cy) gets.
        var blocked: HTTPResponse.Status
        /// What a request without a session gets (nil: 401, or 404 for a GET of something not public).
        var loggedOut: HTTPResponse.Status? = nil
        var description: String { "\(method) \(route)" }
    }

    static let rows: [Row] = [
        Row(method: .get, route: "/api/me", path: "/api/me", stranger: .ok, blocked: .ok),
        Row(method: .put, route: "/api/me", path: "/api/me", body: #"{"units":"metric"}"#, stranger: .ok, blocked: .ok),
        Row(method: .get, route: "/api/me/watchlist", path: "/api/me/watchlist", stranger: .ok, blocked: .ok),
        Row(method: .post, route: "/api/me/watchlist", path: "/api/me/watchlist", body: #"{"kind":"callsign","value":"BOB1"}"#, stranger: .created, blocked: .created),
        Row(method: .delete, route: "/api/me/watchlist/{id}", path: "/api/me/watchlist/{rule}", stranger: .notFound, blocked: .notFound),
        Row(method: .get, route: "/api/me/journal", path: "/api/me/journal", stranger: .ok, blocked: .ok),
        Row(method: .get, route: "/api/me/places", path: "/api/me/places", stranger: .ok, blocked: .ok),
        Row(method: .post, route: "/api/me/places", path: "/api/me/places", body: #"{"name":"Mine","lat":1,"lon":2}"#, stranger: .created, blocked: .created),
        Row(method: .put, route: "/api/me/places/{id}", path: "/api/me/places/{place}", body: #"{"name":"Taken"}"#, stranger: .notFound, blocked: .notFound),
        Row(method: .delete, route: "/api/me/places/{id}", path: "/api/me/places/{place}", stranger: .notFound, blocked: .notFound),
        Row(method: .get, route: "/api/me/reminders", path: "/api/me/reminders", stranger: .ok, blocked: .ok),
        Row(method: .post, route: "/api/me/reminders", path: "/api/me/reminders", body: #"{"place_id":{place},"event":"closest","minutes":[5]}"#, stranger: .notFound, blocked: .notFound),
        Row(method: .delete, route: "/api/me/reminders/{id}", path: "/api/me/reminders/{reminder}", stranger: .notFound, blocked: .notFound),
        Row(method: .get, route: "/api/me/eta", path: "/api/me/eta", stranger: .ok, blocked: .ok),
        Row(method: .get, route: "/api/me/profile", path: "/api/me/profile", stranger: .ok, blocked: .ok),
        Row(method: .put, route: "/api/me/profile", path: "/api/me/profile", body: #"{"bio":"mine"}"#, stranger: .ok, blocked: .ok),
        // Not a picture: refused, nothing stored.
        Row(method: .put, route: "/api/me/profile/picture", path: "/api/me/profile/picture", body: "<svg/>", stranger: .unsupportedMediaType, blocked: .unsupportedMediaType),
        Row(method: .delete, route: "/api/me/profile/picture", path: "/api/me/profile/picture", stranger: .noContent, blocked: .noContent),
        Row(method: .get, route: "/api/me/friends", path: "/api/me/friends", stranger: .ok, blocked: .ok),
        Row(method: .post, route: "/api/me/friends", path: "/api/me/friends", body: #"{"username":"alice"}"#, stranger: .created, blocked: .notFound),
        Row(method: .post, route: "/api/me/friends/{username}/accept", path: "/api/me/friends/alice/accept", stranger: .notFound, blocked: .notFound),
        // Bob withdraws the request he made two rows up; cy, blocked, never reached alice.
        Row(method: .delete, route: "/api/me/friends/{username}", path: "/api/me/friends/alice", stranger: .noContent, blocked: .notFound),
        Row(method: .post, route: "/api/me/blocks", path: "/api/me/blocks", body: #"{"username":"alice"}"#, stranger: .created, blocked: .created),
        // Each unblocks alice, whom they blocked one row up.
        Row(method: .delete, route: "/api/me/blocks/{username}", path: "/api/me/blocks/alice", stranger: .noContent, blocked: .noContent),
        Row(method: .get, route: "/api/me/groups", path: "/api/me/groups", stranger: .ok, blocked: .ok),
        Row(method: .get, route: "/api/me/goals", path: "/api/me/goals", stranger: .ok, blocked: .ok),
        Row(method: .post, route: "/api/me/goals", path: "/api/me/goals", body: #"{"name":"AliceClub goal","kind":"military","target":1,"group":"AliceClub"}"#,
            stranger: .notFound, blocked: .notFound),
        Row(method: .delete, route: "/api/me/goals/{id}", path: "/api/me/goals/{goal}", stranger: .notFound, blocked: .notFound),
        // Alice's club takes members by invitation: to anyone else it does not exist.
        Row(method: .post, route: "/api/groups", path: "/api/groups", body: #"{"name":"Club of {who}"}"#, stranger: .created, blocked: .created),
        Row(method: .get, route: "/api/groups/{name}", path: "/api/groups/AliceClub", stranger: .notFound, blocked: .notFound),
        Row(method: .post, route: "/api/groups/{name}/join", path: "/api/groups/AliceClub/join", stranger: .notFound, blocked: .notFound),
        Row(method: .post, route: "/api/groups/{name}/leave", path: "/api/groups/AliceClub/leave", stranger: .notFound, blocked: .notFound),
        Row(method: .post, route: "/api/groups/{name}/invitations", path: "/api/groups/AliceClub/invitations", body: #"{"username":"{who}"}"#,
            stranger: .notFound, blocked: .notFound),
        Row(method: .delete, route: "/api/groups/{name}/members/{username}", path: "/api/groups/AliceClub/members/alice", stranger: .notFound, blocked: .notFound),
        Row(method: .post, route: "/api/groups/{name}/watchlist", path: "/api/groups/AliceClub/watchlist", body: #"{"kind":"callsign","value":"X1"}"#,
            stranger: .notFound, blocked: .notFound),
        Row(method: .delete, route: "/api/groups/{name}/watchlist/{id}", path: "/api/groups/AliceClub/watchlist/{grule}", stranger: .notFound, blocked: .notFound),
        // The feed: alice's friends-only post is not there for them; her public post is, but
        // not for cy, whom she blocks.
        Row(method: .get, route: "/api/feed", path: "/api/feed?view=friends", stranger: .ok, blocked: .ok),
        Row(method: .post, route: "/api/posts", path: "/api/posts", body: #"{"text":"hello from {who}"}"#, stranger: .created, blocked: .created),
        Row(method: .get, route: "/api/posts/{id}", path: "/api/posts/{secretpost}", stranger: .notFound, blocked: .notFound),
        Row(method: .delete, route: "/api/posts/{id}", path: "/api/posts/{publicpost}", stranger: .forbidden, blocked: .notFound),
        Row(method: .post, route: "/api/posts/{id}/comments", path: "/api/posts/{secretpost}/comments", body: #"{"text":"hi"}"#, stranger: .notFound, blocked: .notFound),
        Row(method: .post, route: "/api/posts/{id}/report", path: "/api/posts/{secretpost}/report", body: #"{"reason":"spam"}"#, stranger: .notFound, blocked: .notFound),
        Row(method: .put, route: "/api/posts/{id}/picture", path: "/api/posts/{publicpost}/picture", body: "not a picture", stranger: .forbidden, blocked: .notFound),
        Row(method: .get, route: "/api/posts/{id}/picture", path: "/api/posts/{secretpost}/picture", stranger: .notFound, blocked: .notFound),
        Row(method: .get, route: "/api/admin/reports", path: "/api/admin/reports", stranger: .forbidden, blocked: .forbidden),
        Row(method: .get, route: "/api/compare", path: "/api/compare?with=alice", stranger: .notFound, blocked: .notFound),
        // Anyone's profile as the viewer may see it: public fields only, and nothing at all for cy.
        Row(method: .get, route: "/api/users/{username}/profile", path: "/api/users/alice/profile", stranger: .ok, blocked: .notFound, loggedOut: .ok),
        Row(method: .get, route: "/api/users/{username}/picture", path: "/api/users/alice/picture", stranger: .notFound, blocked: .notFound, loggedOut: .notFound),
        Row(method: .get, route: "/api/aircraft/{hex}/thread", path: "/api/aircraft/4840d6/thread", stranger: .ok, blocked: .ok, loggedOut: .ok),
    ]

    /// Words only alice's data holds.
    static let secrets = ["AliceGarden", "ALICE42", "Alice's note"]

    @Test("Every /api/me and /api/groups route of the router has a row in this table")
    func everyRouteHasARow() throws {
        let router = buildRouter(sources: WebSources(live: SnapshotPublisher(), accounts: WebAccounts(database: try AppDatabase.inMemory())))
        let known = Set(Self.rows.map { "\($0.method.rawValue) \($0.route)" })
        let guarded = ["/api/me", "/api/groups", "/api/feed", "/api/posts", "/api/admin", "/api/compare", "/api/users"]
        let routes = router.routes.filter { route in
            guarded.contains { route.path.description.hasPrefix($0) } || route.path.description == "/api/aircraft/{hex}/thread"
        }
        #expect(routes.count == Self.rows.count)
        for route in routes {
            #expect(known.contains("\(route.method.rawValue) \(route.path.description)"), "\(route.method) \(route.path) has no access-control row")
        }
    }

    @Test("Logged out, every /api/me route is 401; as a stranger or a blocked user, 404 or their own data, never alice's")
    func everyRoute() async throws {
        let accounts = WebAccounts(database: try AppDatabase.inMemory(), bcryptCost: 4)
        var sources = try Sky.sources()
        sources.accounts = accounts
        try await buildApplication(configuration: WebConfiguration(port: 0), sources: sources).test(.router) { client in
            let alice = try await AccountTests.register(client, "alice")
            let body = { (json: String) in ByteBuffer(string: json) }
            func id(_ uri: String, _ json: String, _ key: String? = nil) async throws -> Int {
                try await client.execute(uri: uri, method: .post, headers: alice, body: body(json)) { r in
                    #expect(r.status == .created, "\(uri): \(r.text)")
                    let doc = try r.json()
                    if let key, let list = doc[key] as? [[String: Any]] { return try #require(list.first?["id"] as? Int) }
                    return try #require(doc["id"] as? Int)
                }
            }
            let rule = try await id("/api/me/watchlist", #"{"kind":"callsign","value":"ALICE42"}"#)
            let place = try await id("/api/me/places", #"{"name":"AliceGarden","lat":52.4,"lon":4.9}"#)
            let reminder = try await id("/api/me/reminders", #"{"place_id":\#(place),"event":"closest","minutes":[7]}"#, "reminders")
            try await client.execute(uri: "/api/me/profile", method: .put, headers: alice, body: body(#"{"bio":"Alice's note","home_place_id":\#(place)}"#)) { r in
                #expect(r.status == .ok, "\(r.text)")
            }
            try await client.execute(uri: "/api/groups", method: .post, headers: alice, body: body(#"{"name":"AliceClub","open":false}"#)) { r in
                #expect(r.status == .created)
            }
            let grule = try await id("/api/groups/AliceClub/watchlist", #"{"kind":"callsign","value":"ALICE42"}"#)
            let goal = try await id("/api/me/goals", #"{"name":"ALICE42 goal","kind":"type_aircraft","type":"A388","target":3}"#)
            let secretPost = try await id("/api/posts", #"{"text":"Alice's note to friends","audience":"friends"}"#)
            let publicPost = try await id("/api/posts", #"{"text":"Hello, world"}"#)
            let bob = try await AccountTests.register(client, "bob")
            let cy = try await AccountTests.register(client, "cy")
            try await client.execute(uri: "/api/me/blocks", method: .post, headers: alice, body: body(#"{"username":"cy"}"#)) { r in
                #expect(r.status == .created)
            }
            func fill(_ s: String, _ who: String = "nobody") -> String {
                s.replacingOccurrences(of: "{place}", with: "\(place)").replacingOccurrences(of: "{reminder}", with: "\(reminder)")
                    .replacingOccurrences(of: "{rule}", with: "\(rule)").replacingOccurrences(of: "{grule}", with: "\(grule)").replacingOccurrences(of: "{goal}", with: "\(goal)")
                    .replacingOccurrences(of: "{secretpost}", with: "\(secretPost)").replacingOccurrences(of: "{publicpost}", with: "\(publicPost)")
                    .replacingOccurrences(of: "{who}", with: who)
            }
            for row in Self.rows {
                try await client.execute(uri: fill(row.path), method: row.method, body: row.body.map { body(fill($0)) }) { r in
                    // Logged out, only what is public answers: the feed's friends view and a secret post do not.
                    if let expected = row.loggedOut {
                        #expect(r.status == expected, "\(row) logged out: \(r.status)")
                    } else {
                        #expect(r.status == .unauthorized || (row.method == .get && r.status == .notFound), "\(row) logged out: \(r.status)")
                    }
                    for secret in Self.secrets { #expect(!r.text.contains(secret), "\(row) logged out leaks \(secret)") }
                }
                for (who, headers, expected) in [("stranger", bob, row.stranger), ("blocked", cy, row.blocked)] {
                    try await client.execute(uri: fill(row.path), method: row.method, headers: headers, body: row.body.map { body(fill($0, who == "stranger" ? "bob" : "cy")) }) { r in
                        #expect(r.status == expected, "\(row) as \(who): \(r.status) \(r.text)")
                        for secret in Self.secrets { #expect(!r.text.contains(secret), "\(row) as \(who) leaks \(secret)") }
                        #expect(!r.text.lowercased().contains("block") || row.route.hasPrefix("/api/me/blocks") || row.route == "/api/me/friends",
                                "\(row) as \(who) tells of a block: \(r.text)")
                    }
                }
            }
            // Alice's things are as they were.
            try await client.execute(uri: "/api/me/places", method: .get, headers: alice) { r in
                #expect(r.text.contains("AliceGarden") && !r.text.contains("Taken"))
            }
            try await client.execute(uri: "/api/me/reminders", method: .get, headers: alice) { r in
                let list = try r.json()["reminders"] as? [[String: Any]]
                #expect(list?.count == 1)
            }
            try await client.execute(uri: "/api/me/watchlist", method: .get, headers: alice) { r in
                #expect(r.text.contains("ALICE42"))
            }
            // Cy, blocked, appears nowhere in alice's lists but blocked; bob's request waits.
            try await client.execute(uri: "/api/me/friends", method: .get, headers: alice) { r in
                let doc = try r.json()
                #expect(doc["blocked"] as? [String] == ["cy"] && doc["incoming"] as? [String] == [] && doc["friends"] as? [String] == [], "\(doc)")
            }
        }
    }
}
