import Foundation
import GRDB
import Synchronization

/// The storage seam on SQLite: statements run through GRDB on the store's `DatabaseWriter`
/// (a WAL pool: reads beside the one writer). GRDB's async accessors run each on its own
/// serial queues; the caller's task suspends meanwhile.
public struct GRDBDatabase: SQLDatabase {
    public let writer: any DatabaseWriter
    public var dialect: SQLDialect { .sqlite }
    /// The statement texts kept prepared on every connection (`fetch`).
    let prepared: PreparedTexts

    /// `preparedCapacity`: how many distinct statement texts its connections keep prepared
    /// (each connection its own copy of each).
    public init(_ writer: any DatabaseWriter, preparedCapacity: Int = 512) {
        self.writer = writer
        self.prepared = PreparedTexts(capacity: preparedCapacity)
    }

    public func query(_ statement: SQL) async throws -> [SQLRow] {
        try await snapshot(statement) { _ in [] }[0]
    }

    public func snapshot(_ first: SQL, then next: @escaping @Sendable ([SQLRow]) throws -> [SQL]) async throws -> [[SQLRow]] {
        let (text, arguments) = Self.rendered(first)
        let prepared = prepared
        // One read on a reader connection (read-only: runs beside the writer, refuses a
        // write), in a transaction of its own.
        return try await writer.read { db in
            var out = [try Self.fetch(db, text, arguments, prepared)]
            for statement in try next(out[0]) {
                let (text, arguments) = Self.rendered(statement)
                out.append(try Self.fetch(db, text, arguments, prepared))
            }
            return out
        }
    }

    public func transaction(_ statements: [SQL]) async throws -> [[SQLRow]] {
        let rendered = statements.map(Self.rendered)
        let prepared = prepared
        return try await writer.write { db in
            try rendered.map { try Self.fetch(db, $0.0, $0.1, prepared) }
        }
    }

    public func isUniqueViolation(_ error: any Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        return e.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || e.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
    }

    /// A statement's SQLite text and GRDB arguments.
    static func rendered(_ statement: SQL) -> (String, StatementArguments) {
        let (text, values) = statement.rendered(for: .sqlite)
        return (text, StatementArguments(values.map(databaseValue)))
    }

    /// Runs a statement, kept prepared on the connection for the next time the same text
    /// comes while `prepared` admits it: compiling a statement costs more than running most
    /// (half a millisecond for the random visit, far more for a write that fires the rollup
    /// triggers), and the texts repeat (values are bound, never spliced).
    static func fetch(_ db: Database, _ text: String, _ arguments: StatementArguments, _ prepared: PreparedTexts) throws -> [SQLRow] {
        let statement = try prepared.admits(text) ? db.cachedStatement(sql: text) : db.makeStatement(sql: text)
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

/// The statement texts a `GRDBDatabase` keeps prepared on its connections: the first
/// `capacity` distinct texts, so that what each connection holds is bounded whatever the
/// statements (a list bound value by value makes a text per length). Later texts are compiled
/// each time they run.
final class PreparedTexts: Sendable {
    let capacity: Int
    private let texts = Mutex<Set<String>>([])

    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// Whether `text` is, or now becomes, one of the kept texts.
    func admits(_ text: String) -> Bool {
        texts.withLock { texts in
            if texts.contains(text) { return true }
            guard texts.count < capacity else { return false }
            texts.insert(text)
            return true
        }
    }
}
