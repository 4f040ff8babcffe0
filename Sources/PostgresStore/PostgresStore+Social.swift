import PostgresNIO
import Store

/// Friends and blocks on PostgreSQL (`SocialStore`), as on SQLite.
extension PostgresStore: SocialStore {
    public func friendship(from userId: Int64, to otherId: Int64) throws -> String? {
        try blocking { [client, logger] in
            for try await state in try await client.query("SELECT state FROM friendship WHERE userId = \(userId) AND otherId = \(otherId)", logger: logger).decode(String.self) {
                return state
            }
            return nil
        }
    }

    public func blocks(_ userId: Int64, _ otherId: Int64) throws -> Bool {
        try blocking { [client, logger] in
            for try await _ in try await client.query("SELECT 1 FROM userBlock WHERE userId = \(userId) AND blockedId = \(otherId)", logger: logger) { return true }
            return false
        }
    }

    public func changeSocial(set: [(Int64, Int64, String)], clear: [(Int64, Int64)], block: (Int64, Int64)?, unblock: (Int64, Int64)?, now: Double) throws {
        try blocking { [client, logger, set, clear, block, unblock] in
            try await client.withTransaction(logger: logger) { c in
                for (a, b) in clear { try await c.query("DELETE FROM friendship WHERE userId = \(a) AND otherId = \(b)", logger: logger) }
                for (a, b, state) in set {
                    try await c.query("""
                        INSERT INTO friendship (userId, otherId, state, createdAt) VALUES (\(a), \(b), \(state), \(now))
                        ON CONFLICT (userId, otherId) DO UPDATE SET state = excluded.state
                        """, logger: logger)
                }
                if let (a, b) = block {
                    try await c.query("INSERT INTO userBlock (userId, blockedId, createdAt) VALUES (\(a), \(b), \(now)) ON CONFLICT DO NOTHING", logger: logger)
                }
                if let (a, b) = unblock { try await c.query("DELETE FROM userBlock WHERE userId = \(a) AND blockedId = \(b)", logger: logger) }
            }
        }
    }

    public func friendList(userId: Int64) throws -> FriendList {
        try blocking { [client, logger] in
            func names(_ query: PostgresQuery) async throws -> [String] {
                var out: [String] = []
                for try await name in try await client.query(query, logger: logger).decode(String.self) { out.append(name) }
                return out
            }
            return FriendList(
                friends: try await names("SELECT u.username FROM friendship f JOIN \"user\" u ON u.id = f.otherId WHERE f.userId = \(userId) AND f.state = 'friends' ORDER BY lower(u.username)"),
                incoming: try await names("SELECT u.username FROM friendship f JOIN \"user\" u ON u.id = f.userId WHERE f.otherId = \(userId) AND f.state = 'requested' ORDER BY lower(u.username)"),
                outgoing: try await names("SELECT u.username FROM friendship f JOIN \"user\" u ON u.id = f.otherId WHERE f.userId = \(userId) AND f.state = 'requested' ORDER BY lower(u.username)"),
                blocked: try await names("SELECT u.username FROM userBlock b JOIN \"user\" u ON u.id = b.blockedId WHERE b.userId = \(userId) ORDER BY lower(u.username)"))
        }
    }
}
