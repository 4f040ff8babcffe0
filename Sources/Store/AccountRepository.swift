import Foundation
import HummingbirdBcrypt

/// Accounts: creating, finding, checking passwords, settings and deleting. Written once for
/// both engines, on the storage seam (`store.accounts`).
///
/// Usernames are unique regardless of case (SQLite's `NOCASE` column, PostgreSQL's index on
/// `lower(username)`), and looked up the same way (`lower(username)`; names are ASCII).
/// Passwords are kept only as bcrypt hashes; a new password ends every login session.
/// Deleting an account deletes what belongs to it (watchlist, journal, deliveries, sessions,
/// places, …) through the schema's `ON DELETE CASCADE`.
public struct AccountRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    static let columns: SQL = "id, username, email, passwordHash, units, darkMode, language, channels, createdAt, timeFormat"

    /// Validates and creates an account; the password is hashed with bcrypt (`cost`: 2^cost rounds).
    @discardableResult
    public func add(username: String, password: String, email: String? = nil, units: Units = .metric,
                    now: Double, cost: UInt8 = UserRecord.defaultBcryptCost) async throws -> UserRecord {
        try UserRecord.validate(username: username)
        if let email { try UserRecord.validate(email: email) }
        guard password.count >= 8 else { throw UserError.weakPassword }
        let hash = Bcrypt.hash(password, cost: cost)
        do {
            let rows = try await database.write("""
                INSERT INTO "user" (username, email, passwordHash, units, createdAt)
                VALUES (\(username), \(email), \(hash), \(units.rawValue), \(now))
                RETURNING \(Self.columns)
                """)
            return try rows[0].decode(record: UserRecord.self)
        } catch where database.isUniqueViolation(error) {
            throw UserError.duplicateUsername(username)
        }
    }

    /// The user with this name (case-insensitive), or nil.
    public func user(named username: String) async throws -> UserRecord? {
        try await database.first("SELECT \(Self.columns) FROM \"user\" WHERE lower(username) = lower(\(username))")
    }

    /// The user with this id, or nil.
    public func user(id: Int64) async throws -> UserRecord? {
        try await database.first("SELECT \(Self.columns) FROM \"user\" WHERE id = \(id)")
    }

    /// The user with this name, or `UserError.unknownUser`.
    public func require(named username: String) async throws -> UserRecord {
        guard let user = try await user(named: username) else { throw UserError.unknownUser(username) }
        return user
    }

    /// Every account, by name (case-insensitive).
    public func all() async throws -> [UserRecord] {
        try await database.all("SELECT \(Self.columns) FROM \"user\" ORDER BY lower(username), id")
    }

    /// The user when `password` is theirs; `UserError.unknownUser` / `.wrongPassword` otherwise.
    public func authenticate(username: String, password: String) async throws -> UserRecord {
        let user = try await require(named: username)
        guard Bcrypt.verify(password, hash: user.passwordHash) else { throw UserError.wrongPassword }
        return user
    }

    /// Replaces a user's password and ends every session of the account: whoever knew the old
    /// one is logged out.
    public func setPassword(username: String, password: String, cost: UInt8 = UserRecord.defaultBcryptCost) async throws {
        guard password.count >= 8 else { throw UserError.weakPassword }
        let id = try await require(named: username).id!
        let hash = Bcrypt.hash(password, cost: cost)
        try await database.transaction([
            "UPDATE \"user\" SET passwordHash = \(hash) WHERE id = \(id)",
            "DELETE FROM loginSession WHERE userId = \(id)",
        ])
    }

    /// Saves changed settings (email, units, dark mode, language, channels, time format),
    /// validated (`UserRecord.validate(settings:)`). The name, hash and creation time stay.
    public func update(_ user: UserRecord) async throws {
        try UserRecord.validate(settings: user)
        guard let id = user.id else { throw UserError.unknownUser(user.username) }
        let channels = String(decoding: try JSONEncoder().encode(user.channels), as: UTF8.self)
        let updated = try await database.write("""
            UPDATE "user" SET email = \(user.email), units = \(user.units.rawValue), darkMode = \(user.darkMode),
                language = \(user.language), channels = \(channels), timeFormat = \(user.timeFormat.rawValue)
            WHERE id = \(id) RETURNING id
            """)
        guard !updated.isEmpty else { throw UserError.unknownUser(user.username) }
    }

    /// Deletes an account with everything that belongs to it.
    public func delete(username: String) async throws {
        let deleted = try await database.write("DELETE FROM \"user\" WHERE lower(username) = lower(\(username)) RETURNING id")
        guard !deleted.isEmpty else { throw UserError.unknownUser(username) }
    }
}
