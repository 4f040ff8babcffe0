import Foundation
import PostgresNIO
import Store

/// Login sessions on PostgreSQL (`SessionRepository`), as the SQLite store keeps them.
extension PostgresStore: SessionRepository {
    public func createSession(tokenHash: String, userId: Int64, now: Double, expiresAt: Double, keep: Int) throws {
        let keep = max(1, keep)
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("DELETE FROM loginSession WHERE expiresAt <= \(now)", logger: logger)
                try await connection.query("""
                    INSERT INTO loginSession (tokenHash, userId, createdAt, expiresAt) VALUES (\(tokenHash), \(userId), \(now), \(expiresAt))
                    """, logger: logger)
                try await connection.query("""
                    DELETE FROM loginSession WHERE userId = \(userId) AND tokenHash NOT IN
                        (SELECT tokenHash FROM loginSession WHERE userId = \(userId) ORDER BY createdAt DESC, tokenHash LIMIT \(keep))
                    """, logger: logger)
            }
        }
    }

    public func sessionUser(tokenHash: String, now: Double) throws -> UserRecord? {
        try blocking { [client, logger] in
            let columns = Self.userColumns.split(separator: ",").map { "u." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
            let rows = try await client.query("""
                SELECT \(unescaped: columns) FROM loginSession s JOIN "user" u ON u.id = s.userId
                WHERE s.tokenHash = \(tokenHash) AND s.expiresAt > \(now)
                """, logger: logger)
            for try await row in rows { return try Self.user(row) }
            return nil
        }
    }

    public func endSession(tokenHash: String) throws {
        try blocking { [client, logger] in
            try await client.query("DELETE FROM loginSession WHERE tokenHash = \(tokenHash)", logger: logger)
            return ()
        }
    }

    @discardableResult
    public func endSessions(userId: Int64) throws -> Int {
        try rowsTouched("DELETE FROM loginSession WHERE userId = \(userId) RETURNING 1")
    }
}
