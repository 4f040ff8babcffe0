/// A database reached through the storage seam: the one interface every repository
/// (`Sessions`, …) is written against, with one implementation per engine
/// (`GRDBDatabase` for SQLite, `PostgresSQLDatabase` in `PostgresStore`). Every call is async:
/// SQLite's runs on GRDB's own queues, PostgreSQL's on PostgresNIO's event loops; no thread
/// waits for either.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }

    /// Runs a query (it only reads; SQLite runs it beside the writer) and returns its rows.
    func query(_ statement: SQL) async throws -> [SQLRow]

    /// Runs `first`, then the statements `next` makes of its rows, in one read-only snapshot:
    /// every statement sees the same committed state (SQLite's read transaction, PostgreSQL's
    /// `REPEATABLE READ`). Returns the rows of `first`, then of each of the others.
    func snapshot(_ first: SQL, then next: @escaping @Sendable ([SQLRow]) throws -> [SQL]) async throws -> [[SQLRow]]

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

extension SQLDatabase {
    /// Inserts `rows` in one transaction, up to `rowsPerStatement` to an `INSERT` (`values`
    /// gives a row's `(…)`); `onConflict` says what a row whose key exists does. The rows
    /// must have distinct keys (PostgreSQL's `ON CONFLICT` touches a row once a statement:
    /// `lastOfEach`).
    public func insert<R>(_ rows: [R], into target: String, rowsPerStatement: Int, onConflict: SQL,
                          values: (R) -> SQL) async throws {
        guard !rows.isEmpty else { return }
        _ = try await transaction(SQL.pieces(rows, atMost: rowsPerStatement).map { part in
            "INSERT INTO \(raw: target) VALUES \(SQL.joined(part.map(values), separator: ", ")) \(onConflict)"
        })
    }
}

extension SQL {
    /// `rows` in pieces for multi-row statements: `atMost` rows, then halves of it that make
    /// up the rest (100 rows at most 64: 64, 32, 4). A statement's text then comes in few
    /// shapes, so SQLite keeps each one prepared (`GRDBDatabase.transaction`) instead of
    /// compiling it, with the triggers it fires, every time.
    public static func pieces<Row>(_ rows: [Row], atMost: Int) -> [ArraySlice<Row>] {
        var out: [ArraySlice<Row>] = []
        var start = 0
        while start < rows.count {
            var size = max(atMost, 1)
            while size > rows.count - start { size /= 2 }
            out.append(rows[start..<start + size])
            start += size
        }
        return out
    }
}

extension Array {
    /// One element per key, the last of each, in the order the keys first appear (an import
    /// file that names an address twice keeps the later line, as `INSERT OR REPLACE` did).
    public func lastOfEach<Key: Hashable>(_ key: (Element) -> Key) -> [Element] {
        var position: [Key: Int] = [:]
        var out: [Element] = []
        for element in self {
            let k = key(element)
            if let i = position[k] { out[i] = element } else { position[k] = out.count; out.append(element) }
        }
        return out
    }
}
