import Foundation
import Logging
import PostgresNIO
import Store

/// The storage seam on PostgreSQL: statements rendered with `$n` placeholders, run on the
/// store's `PostgresClient` pool, values bound by type (never spliced), each call bounded by
/// the store's timeout.
public struct PostgresSQLDatabase: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    let timeout: Duration
    /// Fails a call at once while the store knows the server is away (its sightings queued).
    let isAway: @Sendable () -> Bool
    let url: PostgresURL

    public var dialect: SQLDialect { .postgresql }

    public func query(_ statement: SQL) async throws -> [SQLRow] {
        try checkAvailable()
        let query = Self.postgresQuery(statement)
        do {
            return try await bounded { [client, logger] in
                try await Self.collect(client.query(query, logger: logger))
            }
        } catch {
            throw Self.readable(error)
        }
    }

    public func snapshot(_ first: SQL, then next: @escaping @Sendable ([SQLRow]) throws -> [SQL]) async throws -> [[SQLRow]] {
        try checkAvailable()
        let firstQuery = Self.postgresQuery(first)
        do {
            return try await bounded { [client, logger] in
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                    let rows = try await Self.collect(connection.query(firstQuery, logger: logger))
                    var results = [rows]
                    for statement in try next(rows) {
                        results.append(try await Self.collect(connection.query(Self.postgresQuery(statement), logger: logger)))
                    }
                    return results
                }
            }
        } catch {
            throw Self.readable(PostgresStore.reason(error))
        }
    }

    public func transaction(_ statements: [SQL]) async throws -> [[SQLRow]] {
        try checkAvailable()
        let queries = statements.map(Self.postgresQuery)
        do {
            return try await bounded { [client, logger] in
                try await client.withTransaction(logger: logger) { connection in
                    var results: [[SQLRow]] = []
                    for query in queries { results.append(try await Self.collect(connection.query(query, logger: logger))) }
                    return results
                }
            }
        } catch {
            // A refused statement (a unique key, a check) as the server said it, rolled back.
            throw Self.readable(PostgresStore.reason(error))
        }
    }

    /// PostgresNIO's errors hide the server's message from `description`: the message, and
    /// the SQLSTATE the seam tells unique violations by.
    static func readable(_ error: any Error) -> any Error {
        guard error is PSQLError || error is PostgresTransactionError else { return error }
        return PostgresStatementError(description: PostgresStore.describe(error), sqlState: PostgresStore.sqlState(error))
    }

    public func isUniqueViolation(_ error: any Error) -> Bool {
        // A statement the server refused reaches callers as a `PostgresStatementError` (`readable`).
        (error as? PostgresStatementError)?.sqlState == "23505"
    }

    func checkAvailable() throws {
        if isAway() { throw PostgresStore.unavailable(url) }
    }

    func bounded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await PostgresStore.withTimeout(timeout, operation)
    }

    static func postgresQuery(_ statement: SQL) -> PostgresQuery {
        let (text, values) = statement.rendered(for: .postgresql)
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let v): binds.append(v)
            case .double(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .blob(let v): binds.append(ByteBuffer(bytes: v))
            case .bool(let v): binds.append(v)
            }
        }
        return PostgresQuery(unsafeSQL: text, binds: binds)
    }

    static func collect(_ sequence: PostgresRowSequence) async throws -> [SQLRow] {
        var columns: SQLColumns?
        var out: [SQLRow] = []
        for try await row in sequence {
            var values: [SQLValue] = []
            var names: [String] = []
            for cell in row {
                values.append(try value(cell))
                if columns == nil { names.append(cell.columnName) }
            }
            if columns == nil { columns = SQLColumns(names) }
            out.append(SQLRow(columns: columns!, values: values))
        }
        return out
    }

    /// A cell as a seam value, by its column's type.
    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .double(try cell.decode(Double.self))
        case .numeric: return .double(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
        case .bool: return .bool(try cell.decode(Bool.self))
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        default: return .text(try cell.decode(String.self))
        }
    }
}

extension PostgresStore {
    /// This store through the storage seam (`SightingStore.sql`).
    public var sql: any SQLDatabase {
        PostgresSQLDatabase(client: client, logger: logger, timeout: timeout, isAway: { [self] in !isAvailable }, url: url)
    }
}

/// A statement PostgreSQL refused or could not run, as the server said it.
public struct PostgresStatementError: Error, CustomStringConvertible {
    public var description: String
    /// The server's SQLSTATE (`23505`), nil when the connection failed before an answer.
    public var sqlState: String?
}
