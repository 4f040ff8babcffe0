import Foundation
import GRDB

/// The storage seam on SQLite: statements run through GRDB on the store's `DatabaseWriter`
/// (a WAL pool: reads beside the one writer). GRDB's async accessors run each on its own
/// serial queues; the caller's task suspends meanwhile.
public struct GRDBDatabase: SQLDatabase {
    public let writer: any DatabaseWriter
    public var dialect: SQLDialect { .sqlite }

    public init(_ writer: any DatabaseWriter) {
        self.writer = writer
    }

    public func query(_ statement: SQL) async throws -> [SQLRow] {
        try await snapshot(statement) { _ in [] }[0]
    }

    public func snapshot(_ first: SQL, then next: @escaping @Sendable ([SQLRow]) throws -> [SQL]) async throws -> [[SQLRow]] {
        let (text, arguments) = Self.rendered(first)
        // One read on a reader connection (read-only: runs beside the writer, refuses a
        // write), in a transaction of its own.
        return try await writer.read { db in
            Self.addFunctions(db, for: text)
            let rows = try Self.fetch(db, text, arguments)
            var out = [rows]
            for statement in try next(rows) {
                let (text, arguments) = Self.rendered(statement)
                Self.addFunctions(db, for: text)
                out.append(try Self.fetch(db, text, arguments))
            }
            return out
        }
    }

    public func transaction(_ statements: [SQL]) async throws -> [[SQLRow]] {
        let rendered = statements.map(Self.rendered)
        return try await writer.write { db in
            for (text, _) in rendered { Self.addFunctions(db, for: text) }
            return try rendered.map { try Self.fetch(db, $0.0, $0.1, cached: true) }
        }
    }

    public func isUniqueViolation(_ error: any Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        return e.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || e.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
    }

    /// The project's SQL functions that statements written once may call, which PostgreSQL
    /// defines in its schema (`ft_towards`) or writes as SQL (`ft_hasday`,
    /// `SQLDialect.hasDay`): registered on the connection before a statement that calls one
    /// runs. Only then: registering again expires the connection's prepared statements.
    static func addFunctions(_ db: Database, for text: String) {
        if text.contains("ft_towards") { db.add(function: AppDatabase.towardsFunction) }
        if text.contains("ft_hasday") { db.add(function: AppDatabase.hasDayFunction) }
    }

    /// A statement's SQLite text and GRDB arguments.
    static func rendered(_ statement: SQL) -> (String, StatementArguments) {
        let (text, values) = statement.rendered(for: .sqlite)
        return (text, StatementArguments(values.map(databaseValue)))
    }

    /// Runs a statement. `cached`: kept prepared on the connection for the next time the same
    /// text comes (writes, whose texts repeat every second: compiling one that fires the
    /// rollup triggers costs far more than running it).
    static func fetch(_ db: Database, _ text: String, _ arguments: StatementArguments, cached: Bool = false) throws -> [SQLRow] {
        let statement = try cached ? db.cachedStatement(sql: text) : db.makeStatement(sql: text)
        let columns = SQLColumns(statement.columnNames)
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        var out: [SQLRow] = []
        while let row = try cursor.next() {
            out.append(SQLRow(columns: columns, values: row.databaseValues.map(Self.sqlValue)))
        }
        return out
    }

    static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let v): v.databaseValue
        case .double(let v): v.databaseValue
        case .text(let v): v.databaseValue
        case .blob(let v): v.databaseValue
        case .bool(let v): (v ? 1 : 0 as Int64).databaseValue
        }
    }

    static func sqlValue(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case .int64(let v): .integer(v)
        case .double(let v): .double(v)
        case .string(let v): .text(v)
        case .blob(let v): .blob(v)
        }
    }
}
