import Crypto
import Store
import Synchronization

/// Login sessions: an unguessable token (256 bits from the system's cryptographic
/// generator, hex) in the cookie, and in the database only its SHA-256
/// (`SessionRepository`), with the account id and the expiry. Sessions live in the
/// database, so a restart keeps them and `users passwd` / `users delete` from another
/// process end them at once.
public struct SessionStore: Sendable {
    /// Seconds a session lasts after login.
    public let lifetime: Double
    /// Sessions kept per account; a new login beyond it ends the oldest.
    public let perUser: Int

    public init(lifetime: Double = 7 * 24 * 3600, perUser: Int = 20) {
        self.lifetime = lifetime
        self.perUser = max(1, perUser)
    }

    /// A new token: 64 hex digits.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var token = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            token += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return token
    }

    /// What the database keeps of a token: its SHA-256 in hex.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// A new session of `user` at `now`; returns its token.
    public func create(for user: UserRecord, in store: SessionRepository, now: Double) async throws -> String {
        guard let id = user.id else { throw UserError.unknownUser(user.username) }
        let token = Self.newToken()
        try await store.create(tokenHash: Self.hash(token), userId: id, now: now, expiresAt: now + lifetime, keep: perUser)
        return token
    }

    /// The account of a live session, or nil (unknown or expired token, account deleted).
    public func user(for token: String, in store: SessionRepository, now: Double) async throws -> UserRecord? {
        // Tokens are 64 hex digits: anything else is no session (and is not hashed).
        guard token.utf8.count == 64, token.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else { return nil }
        return try await store.user(tokenHash: Self.hash(token), now: now)
    }

    /// Ends one session.
    public func end(_ token: String, in store: SessionRepository) async throws {
        try await store.end(tokenHash: Self.hash(token))
    }
}

/// Limits password guessing: after `maxFailures` failed logins for one user name within
/// `window` seconds, further attempts for that name are refused until the oldest failure
/// leaves the window; and after `maxFailuresPerAddress` failures from one client address
/// (one password tried across many names), that address waits likewise. A successful
/// login clears the name's failures. Memory is bounded: at most `maxTracked` names and
/// addresses are remembered (the stalest go first).
public final class LoginRateLimiter: Sendable {
    private let failures = Mutex<[String: [Double]]>([:])
    public let maxFailures: Int
    public let maxFailuresPerAddress: Int
    public let window: Double
    public let maxTracked: Int

    public init(maxFailures: Int = 5, maxFailuresPerAddress: Int = 20, window: Double = 15 * 60, maxTracked: Int = 10_000) {
        self.maxFailures = max(1, maxFailures)
        self.maxFailuresPerAddress = max(1, maxFailuresPerAddress)
        self.window = window
        self.maxTracked = max(2, maxTracked)
    }

    private static func nameKey(_ username: String) -> String { "name " + username.lowercased() }
    private static func addressKey(_ address: String) -> String { "addr " + address }

    /// Seconds to wait before `username` (from `address`, when known) may try again, or nil
    /// when an attempt is allowed now.
    public func retryAfter(username: String, address: String? = nil, now: Double) -> Double? {
        var keys = [(Self.nameKey(username), maxFailures)]
        if let address { keys.append((Self.addressKey(address), maxFailuresPerAddress)) }
        return failures.withLock { all -> Double? in
            var wait: Double?
            for (key, limit) in keys {
                let recent = (all[key] ?? []).filter { $0 > now - window }
                all[key] = recent.isEmpty ? nil : recent
                guard recent.count >= limit, let oldest = recent.first else { continue }
                wait = max(wait ?? 0, max(1, oldest + window - now))
            }
            return wait
        }
    }

    public func recordFailure(username: String, address: String? = nil, now: Double) {
        var keys = [(Self.nameKey(username), maxFailures)]
        if let address { keys.append((Self.addressKey(address), maxFailuresPerAddress)) }
        failures.withLock { all in
            if all.count + keys.count > maxTracked {
                // Forget the entries whose latest failure is oldest (half of them at once).
                let stalest = all.sorted { ($0.value.last ?? 0) < ($1.value.last ?? 0) }.prefix(all.count / 2)
                for (key, _) in stalest { all[key] = nil }
            }
            for (key, limit) in keys {
                var list = (all[key] ?? []).filter { $0 > now - window }
                list.append(now)
                if list.count > limit { list.removeFirst(list.count - limit) }
                all[key] = list
            }
        }
    }

    /// Names and addresses with failures remembered now (at most `maxTracked`).
    var tracked: Int { failures.withLock { $0.count } }

    public func recordSuccess(username: String) {
        _ = failures.withLock { $0.removeValue(forKey: Self.nameKey(username)) }
    }
}
