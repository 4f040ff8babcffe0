import Feeds
import Foundation
import Hummingbird
import HummingbirdBcrypt
import Store
import Services

/// Accounts and per-user data over the Store (`AppDatabase`): register, log in, log out
/// (this session, or every session of the account) with a session cookie (HttpOnly,
/// SameSite=Strict, Secure over HTTPS), the user's settings, watchlist and journal. Every
/// `/api/me…` route works on the session's user only: no route takes a user name, so
/// nobody can name another user's data. Failed logins are rate-limited per name and per
/// client address, and take as long for an unknown name as for a known one.
struct AccountController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    static var cookieName: String { WebAccounts.cookieName }

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("auth/register", use: register)
        group.post("auth/login", use: login)
        group.post("auth/logout", use: logout)
        group.post("auth/logout-everywhere", use: logoutEverywhere)
        group.get("me", use: me)
        group.put("me", use: updateMe)
        group.get("me/watchlist", use: watchlist)
        group.post("me/watchlist", use: addWatch)
        group.delete("me/watchlist/{id}", use: removeWatch)
        group.get("me/journal", use: journal)
    }

    struct Credentials: Decodable {
        var username: String
        var password: String
        var email: String?
    }

    struct SettingsChange: Decodable {
        var units: Units?
        var darkMode: Bool?
        var language: String?
        var email: String?
        var timeFormat: TimeFormat?
    }

    struct WatchAddition: Decodable {
        var kind: WatchKind
        var value: String?
        var label: String?
    }

    // MARK: Sessions

    @Sendable func register(_ request: Request, context: Context) async throws -> Response {
        guard accounts.allowRegistration else {
            throw APIError(.forbidden, "registration is closed on this receiver; ask its owner (flytracker users add)")
        }
        let c = try await request.decode(as: Credentials.self, context: context)
        let user: UserRecord
        do {
            user = try await accounts.database.accounts.add(username: c.username, password: c.password, email: c.email,
                                                 now: clock(), cost: accounts.bcryptCost)
        } catch let error as UserError {
            if case .duplicateUsername = error { throw APIError(.conflict, error.description) }
            throw APIError.badRequest(error.description)
        }
        return try await sessionResponse(for: user, status: .created, request: request)
    }

    @Sendable func login(_ request: Request, context: Context) async throws -> Response {
        let c = try await request.decode(as: Credentials.self, context: context)
        let now = clock()
        let address = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress
        if let wait = accounts.limiter.retryAfter(username: c.username, address: address, now: now) {
            var response = APIError(.tooManyRequests, "too many failed logins; try again in \(Int(wait.rounded(.up))) s")
                .responseWithoutRequest
            response.headers[.retryAfter] = String(Int(wait.rounded(.up)))
            return response
        }
        let user: UserRecord
        do {
            user = try await accounts.database.accounts.authenticate(username: c.username, password: c.password)
        } catch let error as UserError {
            // An unknown name costs one bcrypt verification too, as a known one does, so the
            // answer's timing does not tell which names exist.
            if case .unknownUser = error { _ = accounts.decoyVerify(c.password) }
            accounts.limiter.recordFailure(username: c.username, address: address, now: now)
            throw APIError(.unauthorized, "wrong user name or password")
        }
        accounts.limiter.recordSuccess(username: c.username)
        return try await sessionResponse(for: user, status: .ok, request: request)
    }

    @Sendable func logout(_ request: Request, context: Context) async throws -> Response {
        if let token = request.cookies[Self.cookieName]?.value { try await accounts.sessions.end(token, in: accounts.database.loginSessions) }
        return clearedCookie(request)
    }

    /// Ends every session of the account (every browser and device), this one included.
    @Sendable func logoutEverywhere(_ request: Request, context: Context) async throws -> Response {
        let u = try await user(request)
        try await accounts.database.loginSessions.endAll(userId: u.id!)
        return clearedCookie(request)
    }

    func clearedCookie(_ request: Request) -> Response {
        var response = Response(status: .noContent)
        response.setCookie(Cookie(name: Self.cookieName, value: "", maxAge: 0, path: "/", secure: accounts.isSecure(request),
                                  httpOnly: true, sameSite: .strict))
        return response
    }

    func sessionResponse(for user: UserRecord, status: HTTPResponse.Status, request: Request) async throws -> Response {
        let token = try await accounts.sessions.create(for: user, in: accounts.database.loginSessions, now: clock())
        var response = Response.json(Self.profile(user), status: status)
        response.setCookie(Cookie(name: Self.cookieName, value: token, maxAge: Int(accounts.sessions.lifetime), path: "/",
                                  secure: accounts.isSecure(request), httpOnly: true, sameSite: .strict))
        return response
    }

    /// The session's user, or 401.
    func user(_ request: Request) async throws -> UserRecord { try await accounts.user(request, now: clock()) }

    // MARK: The user's own data

    @Sendable func me(_ request: Request, context: Context) async throws -> Response {
        .json(Self.profile(try await user(request)))
    }

    @Sendable func updateMe(_ request: Request, context: Context) async throws -> Response {
        var u = try await user(request)
        let change = try await request.decode(as: SettingsChange.self, context: context)
        if let units = change.units { u.units = units }
        if let dark = change.darkMode { u.darkMode = dark }
        if let language = change.language {
            do { try u.setLanguage(language) } catch { throw APIError.badRequest(error.description) }
        }
        if let email = change.email { u.email = email.isEmpty ? nil : email }
        if let format = change.timeFormat { u.timeFormat = format }
        do { try await accounts.database.accounts.update(u) } catch let error as UserError { throw APIError.badRequest(error.description) }
        return .json(Self.profile(u))
    }

    @Sendable func watchlist(_ request: Request, context: Context) async throws -> Response {
        let u = try await user(request)
        let rules = try await accounts.database.watchlists.rules(username: u.username)
        return .json(Self.rulesDocument(rules))
    }

    @Sendable func addWatch(_ request: Request, context: Context) async throws -> Response {
        let u = try await user(request)
        let add = try await request.decode(as: WatchAddition.self, context: context)
        do {
            let rule = try await accounts.database.watchlists.add(username: u.username, kind: add.kind, value: add.value ?? "*",
                                                     label: add.label, now: clock())
            return .json(Self.rule(rule), status: .created)
        } catch let error as WatchRuleError {
            if case .duplicate = error { throw APIError(.conflict, error.description) }
            throw APIError.badRequest(error.description)
        }
    }

    @Sendable func removeWatch(_ request: Request, context: Context) async throws -> Response {
        let u = try await user(request)
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw APIError.badRequest("rule id must be a number") }
        do {
            try await accounts.database.watchlists.remove(username: u.username, id: id)
        } catch is WatchRuleError {
            throw APIError.notFound("no watchlist rule \(id) of yours")
        }
        return Response(status: .noContent)
    }

    @Sendable func journal(_ request: Request, context: Context) async throws -> Response {
        let u = try await user(request)
        var limit = 100
        if let text = request.uri.queryParameters["limit"] {
            guard let l = Int(text), (1...1000).contains(l) else { throw APIError.badRequest("limit must be 1...1000") }
            limit = l
        }
        let events = try await accounts.database.watchlists.journal(username: u.username, limit: limit)
        return .json(Self.journalDocument(events, for: u))
    }

    // MARK: Documents

    static func profile(_ u: UserRecord) -> String {
        var w = JSONWriter()
        w.add("username", u.username)
        w.add("email", u.email)
        w.add("units", u.units.rawValue)
        w.add("darkMode", u.darkMode)
        w.add("language", u.language)
        w.add("timeFormat", u.timeFormat.rawValue)
        w.add("createdAt", u.createdAt)
        return w.finish()
    }

    static func rule(_ r: WatchRule) -> String {
        var w = JSONWriter()
        w.add("id", r.id.map { Int($0) })
        w.add("kind", r.kind.rawValue)
        w.add("value", r.value)
        w.add("label", r.label)
        w.add("createdAt", r.createdAt)
        return w.finish()
    }

    static func rulesDocument(_ rules: [WatchRule]) -> String {
        var w = JSONWriter()
        w.addRaw("rules", JSONWriter.array(rules.map(rule)))
        return w.finish()
    }

    /// `{events: [...]}`: each event's fields in NM and ft, and `what` and `where` as `reader`
    /// reads them (language and units: the webhook's `value2` and `value3`).
    static func journalDocument(_ events: [JournalEventRecord], for reader: UserRecord) -> String {
        let items = events.map { e -> String in
            var w = JSONWriter()
            w.add("id", e.id.map { Int($0) })
            w.add("time", e.time)
            w.add("kind", e.kind.rawValue)
            w.add("hex", PackedAddress.hex(UInt32(truncatingIfNeeded: e.address)))
            w.add("callsign", e.callsign)
            w.add("registration", e.registration)
            w.add("type", e.typeCode)
            w.add("lat", e.latitude)
            w.add("lon", e.longitude)
            w.add("alt", e.altitude)
            w.add("distance", e.distance)
            w.add("rule", e.ruleLabel)
            w.add("note", e.note)
            w.add("what", e.what(language: reader.language))
            w.add("where", e.place(units: reader.units))
            return w.finish()
        }
        var w = JSONWriter()
        w.addRaw("events", JSONWriter.array(items))
        return w.finish()
    }
}

/// The account side of the server: the Store database, sessions and the login limiter.
public struct WebAccounts: Sendable {
    /// SQLite, or an aggregator's PostgreSQL (its synchronous calls run on the store's own
    /// thread; the request's task waits for them).
    public var database: any SightingStore
    public var sessions: SessionStore
    public var limiter: LoginRateLimiter
    /// bcrypt cost for new passwords (tests lower it).
    public var bcryptCost: UInt8
    /// Whether anyone who reaches the port may create an account (else 403; accounts are
    /// made with the `users` command).
    public var allowRegistration: Bool
    /// The server speaks HTTPS itself (`--https-cert`): every cookie is `Secure`. Behind a
    /// proxy, `X-Forwarded-Proto: https` makes a response's cookie `Secure` too.
    public var servesHTTPS: Bool
    /// A bcrypt hash of nothing anyone knows, at `bcryptCost`: verified against for an
    /// unknown user name so that it takes as long as a known one.
    let decoyHash: String

    public init(database: any SightingStore, sessions: SessionStore = SessionStore(), limiter: LoginRateLimiter = LoginRateLimiter(),
                bcryptCost: UInt8 = UserRecord.defaultBcryptCost, allowRegistration: Bool = true, servesHTTPS: Bool = false) {
        self.database = database
        self.sessions = sessions
        self.limiter = limiter
        self.bcryptCost = bcryptCost
        self.allowRegistration = allowRegistration
        self.servesHTTPS = servesHTTPS
        decoyHash = Bcrypt.hash(SessionStore.newToken(), cost: bcryptCost)
    }

    /// Verifies `password` against the decoy hash (always false): the time a known user's
    /// verification takes.
    func decoyVerify(_ password: String) -> Bool { Bcrypt.verify(password, hash: decoyHash) }

    /// Whether cookies of a response to `request` get the `Secure` attribute.
    func isSecure(_ request: Request) -> Bool {
        servesHTTPS || request.headers[.init("X-Forwarded-Proto")!]?.lowercased().hasPrefix("https") == true
    }

    /// The session cookie's name.
    static let cookieName = "flytracker_session"

    /// The user of the request's session cookie at `now`, or 401.
    func user(_ request: Request, now: Double) async throws -> UserRecord {
        guard let token = request.cookies[Self.cookieName]?.value,
              let user = try await sessions.user(for: token, in: database.loginSessions, now: now) else {
            throw APIError(.unauthorized, "log in first")
        }
        return user
    }

    /// The session's user, or nil when not logged in (a stale cookie is not logged in).
    func viewer(_ request: Request, now: Double) async -> UserRecord? { try? await user(request, now: now) }
}
