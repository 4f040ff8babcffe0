import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresStore
import PostgresTestSupport
import Store
import Testing
import Tracking
@testable import Web

/// Accounts over the Store: sessions by cookie, rate-limited logins, each user's own data only.
@Suite("Web: accounts")
struct AccountTests {
    /// The engines the account tests that touch stored data run on.
    enum Engine: String, CaseIterable, Sendable { case sqlite, postgresql }

    static func app(limiter: LoginRateLimiter = LoginRateLimiter(), engine: Engine = .sqlite) async throws -> some ApplicationProtocol {
        let database: any SightingStore = switch engine {
        case .sqlite: try AppDatabase.inMemory()
        case .postgresql: try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(60))
        }
        let accounts = WebAccounts(database: database, limiter: limiter, bcryptCost: 4)
        var sources = try Sky.sources()
        sources.accounts = accounts
        return try buildApplication(configuration: WebConfiguration(port: 0), sources: sources)
    }

    static func body(_ json: String) -> ByteBuffer { ByteBuffer(string: json) }

    /// The session cookie set by a response, as a request Cookie header.
    static func cookie(_ response: TestResponse) throws -> HTTPFields {
        let setCookie = try #require(response.headers[.setCookie])
        let pair = try #require(setCookie.split(separator: ";").first)
        return [.cookie: String(pair)]
    }

    static func register(_ client: some TestClientProtocol, _ name: String) async throws -> HTTPFields {
        try await client.execute(uri: "/api/auth/register", method: .post,
                                 body: body(#"{"username":"\#(name)","password":"correct horse"}"#)) { response in
            #expect(response.status == .created)
            return try cookie(response)
        }
    }

    @Test("Register sets an HttpOnly, SameSite=Strict session cookie; /api/me needs it; no hash is ever sent")
    func registerAndSession() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/api/auth/register", method: .post,
                                     body: Self.body(#"{"username":"alice","password":"correct horse","email":"a@example.org"}"#)) { response in
                #expect(response.status == .created)
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.hasPrefix("flytracker_session="))
                #expect(setCookie.contains("HttpOnly"))
                #expect(setCookie.contains("SameSite=Strict"))
                #expect(setCookie.contains("Path=/"))
                let doc = try response.json()
                #expect(doc["username"] as? String == "alice")
                #expect(!response.text.contains("$2"))
                #expect(!response.text.lowercased().contains("hash"))
                let cookie = try Self.cookie(response)
                try await client.execute(uri: "/api/me", method: .get, headers: cookie) { me in
                    #expect(me.status == .ok)
                    let profile = try me.json()
                    #expect(profile["username"] as? String == "alice")
                    #expect(profile["email"] as? String == "a@example.org")
                    #expect(!me.text.contains("$2"))
                }
            }
            try await client.execute(uri: "/api/me", method: .get) { response in
                #expect(response.status == .unauthorized)
                let doc = try response.json()
                #expect(doc["error"] as? String == "Unauthorized")
            }
            try await client.execute(uri: "/api/me", method: .get, headers: [.cookie: "flytracker_session=00ff"]) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("Bad registrations: taken name 409, weak password, bad name and malformed JSON 400", arguments: Engine.allCases)
    func badRegistrations(engine: Engine) async throws {
        try await Self.app(engine: engine).test(.router) { client in
            _ = try await Self.register(client, "alice")
            let cases: [(String, HTTPResponse.Status)] = [
                (#"{"username":"alice","password":"correct horse"}"#, .conflict),
                (#"{"username":"bob","password":"short"}"#, .badRequest),
                (#"{"username":"b o b","password":"correct horse"}"#, .badRequest),
                (#"{"username":"bob"}"#, .badRequest),
                (#"{"username":"bob","password":"#, .badRequest),
                ("not json", .badRequest),
            ]
            for (json, status) in cases {
                try await client.execute(uri: "/api/auth/register", method: .post, body: Self.body(json)) { response in
                    #expect(response.status == status, "\(json)")
                    let doc = try response.json()
                    #expect(doc["message"] is String, "\(json)")
                }
            }
        }
    }

    @Test("Login: right password gives a session, wrong is 401; logout ends the session and clears the cookie")
    func loginLogout() async throws {
        try await Self.app().test(.router) { client in
            _ = try await Self.register(client, "alice")
            try await client.execute(uri: "/api/auth/login", method: .post,
                                     body: Self.body(#"{"username":"alice","password":"wrong horse"}"#)) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.setCookie] == nil)
            }
            try await client.execute(uri: "/api/auth/login", method: .post,
                                     body: Self.body(#"{"username":"nobody","password":"whatever1"}"#)) { response in
                #expect(response.status == .unauthorized)
            }
            let cookie = try await client.execute(uri: "/api/auth/login", method: .post,
                                                  body: Self.body(#"{"username":"alice","password":"correct horse"}"#)) { response in
                #expect(response.status == .ok)
                return try Self.cookie(response)
            }
            try await client.execute(uri: "/api/me", method: .get, headers: cookie) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/auth/logout", method: .post, headers: cookie) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
            }
            try await client.execute(uri: "/api/me", method: .get, headers: cookie) { #expect($0.status == .unauthorized) }
        }
    }

    @Test("After 5 failed logins the name is refused with 429 and Retry-After, even with the right password")
    func rateLimited() async throws {
        try await Self.app(limiter: LoginRateLimiter(maxFailures: 5, window: 900)).test(.router) { client in
            _ = try await Self.register(client, "alice")
            for _ in 0..<5 {
                try await client.execute(uri: "/api/auth/login", method: .post,
                                         body: Self.body(#"{"username":"alice","password":"guess guess"}"#)) { #expect($0.status == .unauthorized) }
            }
            try await client.execute(uri: "/api/auth/login", method: .post,
                                     body: Self.body(#"{"username":"ALICE","password":"correct horse"}"#)) { response in
                #expect(response.status == .tooManyRequests)
                let wait = try #require(response.headers[.retryAfter].flatMap { Int($0) })
                #expect(wait > 0 && wait <= 900)
                #expect(response.headers[.setCookie] == nil)
            }
        }
    }

    @Test("With registration closed, register is 403 and creates nothing; existing users still log in")
    func registrationClosed() async throws {
        let database = try AppDatabase.inMemory()
        try await database.accounts.add(username: "owner", password: "correct horse", now: 0, cost: 4)
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: database, bcryptCost: 4, allowRegistration: false)
        try await buildApplication(configuration: WebConfiguration(port: 0), sources: sources).test(.router) { client in
            try await client.execute(uri: "/api/auth/register", method: .post,
                                     body: Self.body(#"{"username":"mallory","password":"correct horse"}"#)) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.setCookie] == nil)
            }
            try await client.execute(uri: "/api/auth/login", method: .post,
                                     body: Self.body(#"{"username":"owner","password":"correct horse"}"#)) { #expect($0.status == .ok) }
        }
        await #expect(try database.accounts.user(named: "mallory") == nil)
    }

    @Test("Rate limiter: failures expire after the window; success clears them")
    func limiter() {
        let limiter = LoginRateLimiter(maxFailures: 2, window: 60)
        limiter.recordFailure(username: "a", now: 0)
        #expect(limiter.retryAfter(username: "a", now: 1) == nil)
        limiter.recordFailure(username: "A", now: 10)
        #expect(limiter.retryAfter(username: "a", now: 11) == 49)
        #expect(limiter.retryAfter(username: "a", now: 61) == nil)
        limiter.recordFailure(username: "a", now: 62)
        limiter.recordSuccess(username: "a")
        #expect(limiter.retryAfter(username: "a", now: 63) == nil)
    }

    @Test("Sessions expire, are unguessable 64-hex-digit tokens, and only their hash is stored", arguments: Engine.allCases)
    func sessions(engine: Engine) async throws {
        let database: any SightingStore = switch engine {
        case .sqlite: try AppDatabase.inMemory()
        case .postgresql: try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(60))
        }
        let alice = try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        let sessions = database.loginSessions
        let store = SessionStore(lifetime: 100, perUser: 3)
        let t1 = try await store.create(for: alice, in: sessions, now: 0)
        let t2 = try await store.create(for: alice, in: sessions, now: 0)
        #expect(t1.count == 64 && t1 != t2)
        #expect(try await store.user(for: t1, in: sessions, now: 99) == alice)
        #expect(try await store.user(for: t1, in: sessions, now: 100) == nil)
        // The database knows the hash only: the token itself opens nothing there.
        #expect(try await sessions.user(tokenHash: t1, now: 1) == nil)
        #expect(try await sessions.user(tokenHash: SessionStore.hash(t1), now: 1)?.username == "alice")
        try await store.end(t2, in: sessions)
        #expect(try await store.user(for: t2, in: sessions, now: 1) == nil)
        // At most perUser sessions per account: the oldest ends first.
        var later: [String] = []
        for t in 1...3 { later.append(try await store.create(for: alice, in: sessions, now: Double(t))) }
        #expect(try await store.user(for: t1, in: sessions, now: 4) == nil)
        for token in later { #expect(try await store.user(for: token, in: sessions, now: 4) != nil) }
        #expect(try await store.user(for: "not-a-token", in: sessions, now: 4) == nil)
        // Log out everywhere: every session of the account ends, counted.
        #expect(try await sessions.endAll(userId: alice.id!) == 3)
        #expect(try await store.user(for: later[0], in: sessions, now: 4) == nil)
    }

    @Test("Watchlist: add, list, remove; another user sees none of it and cannot remove it", arguments: Engine.allCases)
    func watchlistIsolation(engine: Engine) async throws {
        try await Self.app(engine: engine).test(.router) { client in
            let alice = try await Self.register(client, "alice")
            let bob = try await Self.register(client, "bob")
            let id = try await client.execute(uri: "/api/me/watchlist", method: .post, headers: alice,
                                              body: Self.body(#"{"kind":"type","value":"b73*","label":"737s"}"#)) { response in
                #expect(response.status == .created)
                let rule = try response.json()
                #expect(rule["value"] as? String == "B73*")
                return try #require(rule["id"] as? Int)
            }
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: alice,
                                     body: Self.body(#"{"kind":"type","value":"B73*"}"#)) { #expect($0.status == .conflict) }
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: alice,
                                     body: Self.body(#"{"kind":"squawk","value":"8888"}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: alice,
                                     body: Self.body(#"{"kind":"planet","value":"mars"}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/me/watchlist", method: .get, headers: bob) { response in
                let rules = try #require(try response.json()["rules"] as? [Any])
                #expect(rules.isEmpty)
            }
            try await client.execute(uri: "/api/me/watchlist/\(id)", method: .delete, headers: bob) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/me/watchlist/\(id)", method: .delete) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/me/watchlist", method: .get, headers: alice) { response in
                let rules = try #require(try response.json()["rules"] as? [[String: Any]])
                #expect(rules.map { $0["id"] as? Int } == [id])
                #expect(rules.first?["label"] as? String == "737s")
            }
            try await client.execute(uri: "/api/me/watchlist/\(id)", method: .delete, headers: alice) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/me/watchlist/abc", method: .delete, headers: alice) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/me/watchlist", method: .get, headers: alice) { response in
                let rules = try #require(try response.json()["rules"] as? [Any])
                #expect(rules.isEmpty)
            }
        }
    }

    @Test("Settings: units, dark mode, language change for the session's user only; bad values and unknown languages 400", arguments: Engine.allCases)
    func settings(engine: Engine) async throws {
        try await Self.app(engine: engine).test(.router) { client in
            let alice = try await Self.register(client, "alice")
            let bob = try await Self.register(client, "bob")
            try await client.execute(uri: "/api/me", method: .put, headers: alice,
                                     body: Self.body(#"{"units":"aeronautical","darkMode":true,"language":"DE"}"#)) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                #expect(doc["units"] as? String == "aeronautical")
                #expect(doc["darkMode"] as? Bool == true)
                #expect(doc["language"] as? String == "de")
            }
            try await client.execute(uri: "/api/me", method: .get, headers: bob) { response in
                let doc = try response.json()
                #expect(doc["darkMode"] as? Bool == false)
                #expect(doc["units"] as? String == "metric")
            }
            for bad in [#"{"units":"furlongs"}"#, #"{"language":"<script>"}"#, #"{"language":"nl"}"#, #"{"language":""}"#,
                        #"{"email":"nope"}"#, "[]"] {
                try await client.execute(uri: "/api/me", method: .put, headers: alice, body: Self.body(bad)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @Test("Journal and stats: shapes; journal needs a session; bad stats parameters 400", arguments: Engine.allCases)
    func journalAndStats(engine: Engine) async throws {
        try await Self.app(engine: engine).test(.router) { client in
            let alice = try await Self.register(client, "alice")
            try await client.execute(uri: "/api/me/journal", method: .get, headers: alice) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                #expect((doc["events"] as? [Any])?.isEmpty == true)
            }
            try await client.execute(uri: "/api/me/journal", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/me/journal?limit=0", method: .get, headers: alice) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/stats?by=hour&type=B73*", method: .get) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                #expect(doc["by"] as? String == "hour")
                #expect((doc["total"] as? [String: Any])?["visits"] as? Int == 0)
                #expect((doc["rows"] as? [Any]) != nil)
            }
            for bad in ["by=planet", "since=yesterday", "type=B7;", "limit=0", "x=1", "by=type&by=hour"] {
                try await client.execute(uri: "/api/stats?" + bad, method: .get) { #expect($0.status == .badRequest, "\(bad)") }
            }
        }
    }
}
