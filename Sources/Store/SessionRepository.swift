/// Login sessions (migration v13), kept in the database so that every process sees the same
/// ones: `users passwd` and `users delete`, run beside a live server, end them at once. Only
/// the SHA-256 of a token is stored (a copy of the database logs nobody in); each session
/// belongs to an account id, and ids are never reused (SQLite `AUTOINCREMENT`, PostgreSQL
/// identity), so a deleted account's cookie never opens a new account of the same name.
///
/// Written once for both engines, on the storage seam (`SQLDatabase`).
public struct SessionRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    /// Saves a new session of `userId` until `expiresAt` (Unix s); removes expired sessions
    /// and the user's oldest beyond `keep`.
    public func create(tokenHash: String, userId: Int64, now: Double, expiresAt: Double, keep: Int) async throws {
        try await database.transaction([
            "DELETE FROM loginSession WHERE expiresAt <= \(now)",
            "INSERT INTO loginSession (tokenHash, userId, createdAt, expiresAt) VALUES (\(tokenHash), \(userId), \(now), \(expiresAt))",
            """
            DELETE FROM loginSession WHERE userId = \(userId) AND tokenHash NOT IN
                (SELECT tokenHash FROM loginSession WHERE userId = \(userId) ORDER BY createdAt DESC, tokenHash LIMIT \(max(1, keep)))
            """,
        ])
    }

    /// The account of a live session, or nil (unknown, expired, or its account deleted).
    public func user(tokenHash: String, now: Double) async throws -> UserRecord? {
        try await database.first("""
            SELECT u.* FROM loginSession s JOIN "user" u ON u.id = s.userId
            WHERE s.tokenHash = \(tokenHash) AND s.expiresAt > \(now)
            """)
    }

    /// Ends one session.
    public func end(tokenHash: String) async throws {
        try await database.write("DELETE FROM loginSession WHERE tokenHash = \(tokenHash)")
    }

    /// Ends every session of an account ("log out everywhere"); returns how many ended.
    @discardableResult
    public func endAll(userId: Int64) async throws -> Int {
        try await database.write("DELETE FROM loginSession WHERE userId = \(userId) RETURNING 1").count
    }
}
