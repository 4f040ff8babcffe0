import Synchronization

/// Login sessions kept in memory: an unguessable token (256 bits from the system's
/// cryptographic generator, hex) → the user name, until it expires or is removed. A restart
/// logs everyone out.
public final class SessionStore: Sendable {
    private struct Session {
        var username: String
        var expires: Double
    }

    private let sessions = Mutex<[String: Session]>([:])
    /// Seconds a session lasts after login.
    public let lifetime: Double
    /// At most this many live sessions; the oldest-expiring is dropped beyond it.
    public let capacity: Int

    public init(lifetime: Double = 7 * 24 * 3600, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// A new session for `username` at `now`; returns its token.
    public func create(username: String, now: Double) -> String {
        var generator = SystemRandomNumberGenerator()
        var token = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            token += String(repeating: "0", count: 16 - hex.count) + hex
        }
        sessions.withLock { all in
            all = all.filter { $0.value.expires > now }
            if all.count >= capacity, let oldest = all.min(by: { $0.value.expires < $1.value.expires })?.key {
                all[oldest] = nil
            }
            all[token] = Session(username: username, expires: now + lifetime)
        }
        return token
    }

    /// The user of a live session, or nil (unknown or expired token).
    public func username(for token: String, now: Double) -> String? {
        sessions.withLock { all in
            guard let s = all[token] else { return nil }
            guard s.expires > now else {
                all[token] = nil
                return nil
            }
            return s.username
        }
    }

    /// Ends one session.
    public func remove(_ token: String) {
        _ = sessions.withLock { $0.removeValue(forKey: token) }
    }

    /// Ends every session of a user (password change, account deleted).
    public func removeAll(username: String) {
        sessions.withLock { all in all = all.filter { $0.value.username != username } }
    }
}

/// Limits password guessing: after `maxFailures` failed logins for one user name within
/// `window` seconds, further attempts for that name are refused until the oldest failure
/// leaves the window. A successful login clears the name's failures.
public final class LoginRateLimiter: Sendable {
    private let failures = Mutex<[String: [Double]]>([:])
    public let maxFailures: Int
    public let window: Double

    public init(maxFailures: Int = 5, window: Double = 15 * 60) {
        self.maxFailures = max(1, maxFailures)
        self.window = window
    }

    /// Seconds to wait before `username` may try again, or nil when an attempt is allowed now.
    public func retryAfter(username: String, now: Double) -> Double? {
        let key = username.lowercased()
        return failures.withLock { all -> Double? in
            let recent = (all[key] ?? []).filter { $0 > now - window }
            all[key] = recent.isEmpty ? nil : recent
            guard recent.count >= maxFailures, let oldest = recent.first else { return nil }
            return max(1, oldest + window - now)
        }
    }

    public func recordFailure(username: String, now: Double) {
        let key = username.lowercased()
        failures.withLock { all in
            var list = (all[key] ?? []).filter { $0 > now - window }
            list.append(now)
            if list.count > maxFailures { list.removeFirst(list.count - maxFailures) }
            all[key] = list
        }
    }

    public func recordSuccess(username: String) {
        _ = failures.withLock { $0.removeValue(forKey: username.lowercased()) }
    }
}
