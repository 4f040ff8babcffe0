import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import PostgresStore
import PostgresTestSupport
import Store
import Testing
@testable import Web

/// The web server against what an attacker would try: stolen or stale cookies, cross-site
/// requests, name enumeration, idle and slow connections.
@Suite("Web: hostile clients")
struct HostileClientTests {
    typealias Engine = AccountTests.Engine

    static func database(_ engine: Engine) async throws -> any SightingStore {
        switch engine {
        case .sqlite: try AppDatabase.inMemory()
        case .postgresql: try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(60))
        }
    }

    static func app(_ database: any SightingStore, cost: UInt8 = 4) throws -> some ApplicationProtocol {
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: database, bcryptCost: cost)
        return try buildApplication(configuration: WebConfiguration(host: "127.0.0.1", port: 0), sources: sources)
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    static func login(_ client: some TestClientProtocol, _ name: String, _ password: String = "correct horse") async throws -> HTTPFields {
        try await client.execute(uri: "/api/auth/login", method: .post, headers: json,
                                 body: ByteBuffer(string: #"{"username":"\#(name)","password":"\#(password)"}"#)) { response in
            #expect(response.status == .ok)
            return try AccountTests.cookie(response)
        }
    }

    static func status(_ client: some TestClientProtocol, _ cookie: HTTPFields) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/api/me", method: .get, headers: cookie) { $0.status }
    }

    // MARK: Sessions

    @Test("An old cookie gets 401 after users passwd (another process, same database)", arguments: Engine.allCases)
    func passwordChangeEndsSessions(engine: Engine) async throws {
        let database = try await Self.database(engine)
        try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        try await Self.app(database).test(.router) { client in
            let cookie = try await Self.login(client, "alice")
            #expect(try await Self.status(client, cookie) == .ok)
            try await database.accounts.setPassword(username: "alice", password: "battery staple", cost: 4)
            #expect(try await Self.status(client, cookie) == .unauthorized)
            let fresh = try await Self.login(client, "alice", "battery staple")
            #expect(try await Self.status(client, fresh) == .ok)
        }
    }

    @Test("After users delete and users add of the same name, the old cookie is nobody's", arguments: Engine.allCases)
    func deletedAccountsCookieOpensNothing(engine: Engine) async throws {
        let database = try await Self.database(engine)
        let first = try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        try await Self.app(database).test(.router) { client in
            let cookie = try await Self.login(client, "alice")
            try await database.accounts.delete(username: "alice")
            let second = try await database.accounts.add(username: "alice", password: "correct horse", now: 1, cost: 4)
            #expect(second.id != first.id, "account ids are never reused")
            #expect(try await Self.status(client, cookie) == .unauthorized)
        }
    }

    @Test("Log out everywhere ends every session of the account; sessions outlive a restart", arguments: Engine.allCases)
    func logoutEverywhere(engine: Engine) async throws {
        let database = try await Self.database(engine)
        try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        try await database.accounts.add(username: "bob", password: "correct horse", now: 0, cost: 4)
        let (laptop, phone, bob) = try await Self.app(database).test(.router) { client in
            (try await Self.login(client, "alice"), try await Self.login(client, "alice"), try await Self.login(client, "bob"))
        }
        // A new server over the same database (a restart) knows the sessions.
        try await Self.app(database).test(.router) { client in
            #expect(try await Self.status(client, laptop) == .ok)
            try await client.execute(uri: "/api/auth/logout-everywhere", method: .post, headers: laptop) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
            }
            #expect(try await Self.status(client, laptop) == .unauthorized)
            #expect(try await Self.status(client, phone) == .unauthorized)
            #expect(try await Self.status(client, bob) == .ok, "another account's sessions stay")
            try await client.execute(uri: "/api/auth/logout-everywhere", method: .post) { #expect($0.status == .unauthorized) }
        }
    }

    // MARK: Cross-site requests

    @Test("A text/plain body with a foreign Origin adds no rule; cross-site log-in is refused; same-origin JSON works")
    func crossSiteRequests() async throws {
        let database = try AppDatabase.inMemory()
        try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        try await Self.app(database).test(.router) { client in
            let cookie = try await Self.login(client, "alice")
            let rule = ByteBuffer(string: #"{"kind":"callsign","value":"EVIL1"}"#)
            var forged = cookie
            forged[.origin] = "https://evil.example"
            forged[.contentType] = "text/plain"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: forged, body: rule) { #expect($0.status == .forbidden) }
            forged[.contentType] = "application/json"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: forged, body: rule) { #expect($0.status == .forbidden) }
            var fetchMetadata = cookie
            fetchMetadata[.init("Sec-Fetch-Site")!] = "cross-site"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: fetchMetadata, body: rule) { #expect($0.status == .forbidden) }
            var plain = cookie
            plain[.contentType] = "text/plain"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: plain, body: rule) { #expect($0.status == .unsupportedMediaType) }
            plain[.contentType] = "application/x-www-form-urlencoded"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: plain, body: rule) { #expect($0.status == .unsupportedMediaType) }
            await #expect(try database.watchlists.rules(username: "alice").isEmpty)
            var login: HTTPFields = [.origin: "https://evil.example", .contentType: "text/plain"]
            try await client.execute(uri: "/api/auth/login", method: .post, headers: login,
                                     body: ByteBuffer(string: #"{"username":"alice","password":"correct horse"}"#)) {
                #expect($0.status == .forbidden)
                #expect($0.headers[.setCookie] == nil)
            }
            login = [.origin: "null", .contentType: "application/json"]
            try await client.execute(uri: "/api/auth/login", method: .post, headers: login,
                                     body: ByteBuffer(string: #"{"username":"alice","password":"correct horse"}"#)) { #expect($0.status == .forbidden) }
            // The page itself: Origin names the host the request was sent to (the test
            // client's requests go to "localhost").
            var own = cookie
            own[.contentType] = "application/json; charset=utf-8"
            own[.origin] = "http://localhost"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: own, body: rule) { #expect($0.status == .created) }
            // Behind a reverse proxy that names the public host.
            var proxied = cookie
            proxied[.contentType] = "application/json"
            proxied[.origin] = "https://planes.example.org"
            proxied[.init("X-Forwarded-Host")!] = "planes.example.org"
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: proxied,
                                     body: ByteBuffer(string: #"{"kind":"callsign","value":"GOOD1"}"#)) { #expect($0.status == .created) }
            await #expect(try database.watchlists.rules(username: "alice").map(\.value).sorted() == ["EVIL1", "GOOD1"])
        }
    }

    @Test("The session cookie is Secure behind a proxy that says HTTPS, and not over plain HTTP")
    func secureCookieBehindProxy() async throws {
        let database = try AppDatabase.inMemory()
        try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        try await Self.app(database).test(.router) { client in
            let body = ByteBuffer(string: #"{"username":"alice","password":"correct horse"}"#)
            try await client.execute(uri: "/api/auth/login", method: .post, headers: Self.json, body: body) { response in
                #expect(response.headers[.setCookie]?.contains("Secure") == false)
            }
            var proxied = Self.json
            proxied[.init("X-Forwarded-Proto")!] = "https"
            try await client.execute(uri: "/api/auth/login", method: .post, headers: proxied, body: body) { response in
                #expect(response.headers[.setCookie]?.contains("Secure") == true)
            }
        }
    }

    // MARK: Smaller items

    @Test("TRACE is 405 with Allow; JSON answers carry nosniff; nothing may frame the page or the API")
    func headersAndMethods() async throws {
        try await Self.app(try AppDatabase.inMemory()).test(.router) { client in
            try await client.execute(uri: "/", method: .trace) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow]?.contains("GET") == true)
            }
            try await client.execute(uri: "/api/aircraft", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
                #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            }
            try await client.execute(uri: "/api/me", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
            }
            try await client.execute(uri: "/", method: .get) { response in
                let csp = try #require(response.headers[.contentSecurityPolicy])
                #expect(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"))
                #expect(response.headers[.init("X-Frame-Options")!] == "DENY")
            }
        }
    }

    @Test("Log-in takes as long for an unknown name as for a known one (no enumeration by timing)")
    func loginTiming() async throws {
        let database = try AppDatabase.inMemory()
        try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 10)
        try await Self.app(database, cost: 10).test(.router) { client in
            func time(_ name: String) async throws -> Duration {
                let start = ContinuousClock.now
                try await client.execute(uri: "/api/auth/login", method: .post, headers: Self.json,
                                         body: ByteBuffer(string: #"{"username":"\#(name)","password":"wrong password"}"#)) {
                    #expect($0.status == .unauthorized)
                }
                return ContinuousClock.now - start
            }
            var known: [Duration] = [], unknown: [Duration] = []
            for i in 0..<5 {   // five: the per-name limit refuses a sixth failure
                known.append(try await time("alice"))
                unknown.append(try await time("nobody\(i)"))
            }
            // bcrypt at cost 10 takes tens of ms; a lookup alone well under one (a factor of
            // about 100): fastest times within a factor of 10 of each other are the same work.
            // (The fastest of several is the work itself; the other tests running beside this
            // one only ever add to a time.)
            let k = known.min()!, u = unknown.min()!
            #expect(u > k / 10 && u < k * 10, "known \(k), unknown \(u)")
        }
    }

    @Test("Failed logins are limited per address too: one password across many names is slowed")
    func loginLimitPerAddress() {
        let limiter = LoginRateLimiter(maxFailures: 5, maxFailuresPerAddress: 4, window: 60)
        for i in 0..<4 { limiter.recordFailure(username: "user\(i)", address: "198.51.100.7", now: Double(i)) }
        #expect(limiter.retryAfter(username: "user9", address: "198.51.100.7", now: 5) == 55)
        #expect(limiter.retryAfter(username: "user9", address: "203.0.113.1", now: 5) == nil)
        #expect(limiter.retryAfter(username: "user9", now: 5) == nil)
        #expect(limiter.retryAfter(username: "user9", address: "198.51.100.7", now: 61) == nil)
        // Memory is bounded however many names are tried.
        let small = LoginRateLimiter(maxTracked: 100)
        for i in 0..<10_000 { small.recordFailure(username: "n\(i)", address: "a\(i)", now: 0) }
        #expect(small.tracked <= 100)
    }
}
