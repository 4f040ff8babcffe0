/// A database reached through the storage seam: the one interface every repository
/// (`Sessions`, …) is written against, with one implementation per engine
/// (`GRDBDatabase` for SQLite, `PostgresSQLDatabase` in `PostgresStore`). Every call is async:
/// SQLite's runs on GRDB's own queues, PostgreSQL's on PostgresNIO's event loops; no thread
/// waits for either.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }

    /// Runs a query (it only reads; SQLite runs it beside the writer) and returns its rows.
    func query(_ statement: SQL) async throws -> [SQLRow]

    /// Runs `statements` in order in one transaction: all of them or none. Returns each one's
    /// rows (`RETURNING` gives them to inserts, updates and deletes).
    @discardableResult
    func transaction(_ statements: [SQL]) async throws -> [[SQLRow]]

    /// Whether `error` is a unique-key violation (SQLite's constraint error, PostgreSQL's
    /// 23505): the seam's one engine-specific error.
    func isUniqueViolation(_ error: any Error) -> Bool
}

extension SQLDatabase {
    /// Runs one statement that writes, in a transaction of its own; returns its rows
    /// (what `RETURNING` gives).
    @discardableResult
    public func write(_ statement: SQL) async throws -> [SQLRow] {
        try await transaction([statement])[0]
    }

    /// The first row as a record, or nil.
    public func first<R: Decodable>(_ statement: SQL, as type: R.Type = R.self) async throws -> R? {
        try await query(statement).first?.decode(record: R.self)
    }

    /// Every row as a record.
    public func all<R: Decodable>(_ statement: SQL, as type: R.Type = R.self) async throws -> [R] {
        try await query(statement).map { try $0.decode(record: R.self) }
    }

    /// Column 0 of the first row, or nil (no row, or NULL).
    public func value<T: SQLValueConvertible>(_ statement: SQL, as type: T.Type = T.self) async throws -> T? {
        guard let row = try await query(statement).first else { return nil }
        return try row.decode(0, as: T?.self)
    }
}
