import GRDB

/// Login sessions (migration v13), kept in the database so that every process sees the same
/// ones: `users passwd` and `users delete`, run beside a live server, end them at once. Only
/// the SHA-256 of a token is stored (a copy of the database logs nobody in); each session
/// belongs to an account id, and ids are never reused (SQLite `AUTOINCREMENT`, PostgreSQL
/// identity), so a deleted account's cookie never opens a new account of the same name.
public protocol SessionRepository: AnyObject, Sendable {
    /// Saves a new session of `userId` until `expiresAt` (Unix s); removes expired sessions
    /// and the user's oldest beyond `keep`.
    func createSession(tokenHash: String, userId: Int64, now: Double, expiresAt: Double, keep: Int) throws
    /// The account of a live session, or nil (unknown, expired, or its account deleted).
    func sessionUser(tokenHash: String, now: Double) throws -> UserRecord?
    /// Ends one session.
    func endSession(tokenHash: String) throws
    /// Ends every session of an account ("log out everywhere"); returns how many ended.
    @discardableResult
    func endSessions(userId: Int64) throws -> Int
}

extension AppDatabase: SessionRepository {
    public func createSession(tokenHash: String, userId: Int64, now: Double, expiresAt: Double, keep: Int) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM loginSession WHERE expiresAt <= ?", arguments: [now])
            try db.execute(sql: "INSERT INTO loginSession (tokenHash, userId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           arguments: [tokenHash, userId, now, expiresAt])
            try db.execute(sql: """
                DELETE FROM loginSession WHERE userId = ? AND tokenHash NOT IN
                    (SELECT tokenHash FROM loginSession WHERE userId = ? ORDER BY createdAt DESC, tokenHash LIMIT ?)
                """, arguments: [userId, userId, max(1, keep)])
        }
    }

    public func sessionUser(tokenHash: String, now: Double) throws -> UserRecord? {
        try writer.read { db in
            try UserRecord.fetchOne(db, sql: """
                SELECT user.* FROM loginSession JOIN user ON user.id = loginSession.userId
                WHERE loginSession.tokenHash = ? AND loginSession.expiresAt > ?
                """, arguments: [tokenHash, now])
        }
    }

    public func endSession(tokenHash: String) throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM loginSession WHERE tokenHash = ?", arguments: [tokenHash]) }
    }

    @discardableResult
    public func endSessions(userId: Int64) throws -> Int {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM loginSession WHERE userId = ?", arguments: [userId])
            return db.changesCount
        }
    }
}
