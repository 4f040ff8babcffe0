import Foundation
import GRDB
import Testing
@testable import PostgresStore
@testable import Store

/// The migrations are written once for both engines (`Migrations`); a fresh database of
/// each engine must come out as the shipped schema, described in `Schema/` (SQLite's
/// `sqlite_master`; PostgreSQL's columns, constraints, indexes, triggers and functions from
/// its catalogue). A shipped migration is never edited, so these files change only when a
/// migration is added: then write them anew with `FLYTRACKER_WRITE_SCHEMA=1 swift test
/// --filter ShippedSchemaTests` and read the difference.
@Suite struct ShippedSchemaTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schema")

    /// What a fresh database of `engine` holds, one line per object, in a stable order.
    static func describe(_ store: any SightingStore, _ engine: Engine) async throws -> [String] {
        let queries: [Store.SQL] = switch engine {
        case .sqlite: ["SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"]
        case .postgresql: [
            """
            SELECT 'column ' || table_name || '.' || column_name || ': ' || data_type || ' '
                || CASE is_nullable WHEN 'NO' THEN 'NOT NULL' ELSE 'NULL' END || COALESCE(' DEFAULT ' || column_default, '')
                || CASE is_identity WHEN 'YES' THEN ' IDENTITY ' || identity_generation ELSE '' END
            FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """,
            """
            SELECT 'constraint ' || conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid)
            FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY conrelid::regclass::text, conname
            """,
            "SELECT 'index ' || indexname || ': ' || indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
            "SELECT 'trigger ' || tgname || ': ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname",
            """
            SELECT 'function ' || proname || '(' || pg_get_function_arguments(oid) || '): ' || md5(prosrc)
            FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname, pg_get_function_arguments(oid)
            """,
        ]
        }
        var lines: [String] = []
        for query in queries {
            lines += try await store.sql.query(query).map { row -> String in try row.decode(0) }
        }
        // One line per object: a statement's own line breaks and indentation folded.
        return lines.map { $0.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
    }

    @Test("A fresh database of each engine has exactly the shipped schema", arguments: Engine.allCases)
    func freshDatabaseIsTheShippedSchema(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let described = try await Self.describe(store, engine).joined(separator: "\n") + "\n"
        let file = Self.directory.appendingPathComponent("\(engine.rawValue).txt")
        if ProcessInfo.processInfo.environment["FLYTRACKER_WRITE_SCHEMA"] == "1" {
            try described.write(to: file, atomically: true, encoding: .utf8)
        }
        let shipped = try String(contentsOf: file, encoding: .utf8)
        let (now, then) = (described.split(separator: "\n"), shipped.split(separator: "\n"))
        #expect(now == then, """
            the \(engine.rawValue) schema differs from Schema/\(engine.rawValue).txt; \
            new: \(Array(Set(now).subtracting(then).prefix(3))); gone: \(Array(Set(then).subtracting(now).prefix(3)))
            """)
    }

    @Test("Every migration runs on both engines, each id once, in the order SQLite's migrator applies them")
    func oneListForBothEngines() {
        let ids = Migrations.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(AppDatabase.migrator.migrations == ids)
        #expect(Migrations.all.allSatisfy { !$0.texts(for: .sqlite).isEmpty || !$0.texts(for: .postgresql).isEmpty })
    }

    @Test("v14 makes a visit's key unique on SQLite without losing a row: two visits of one aircraft begun at the same instant are told apart by a microsecond")
    func visitKeyMigrationKeepsDuplicates() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try AppDatabase.migrator.migrate(queue, upTo: "v13-sessions")
        try queue.write { db in
            for (address, firstSeen) in [(0x4840D6, 100.0), (0x4840D6, 100.0), (0x4840D6, 100.0), (0x3C66B0, 100.0)] {
                try db.execute(sql: "INSERT INTO visit (address, firstSeen, lastSeen, closed) VALUES (?, ?, 200, 1)", arguments: [address, firstSeen])
            }
        }
        try AppDatabase.migrator.migrate(queue)
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT address, firstSeen FROM visit ORDER BY id") }
        #expect(rows.count == 4, "no visit lost")
        let keys = rows.map { "\($0[0] as Int) \($0[1] as Double)" }
        #expect(Set(keys).count == 4, "every key unique: \(keys)")
        #expect(rows.map { $0[1] as Double } == [100, 100.000001, 100.000002, 100])
        try queue.write { db in
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO visit (address, firstSeen, lastSeen) VALUES (?, 100, 200)", arguments: [0x3C66B0])
            }
        }
    }
}
