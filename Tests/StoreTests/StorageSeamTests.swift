import Foundation
import Store
import Testing

/// The storage seam: a statement written once renders for each engine with its values bound
/// in order, and rows read back the same way from both engines.
@Suite("Store: the storage seam")
struct StorageSeamTests {
    @Test("One statement renders ? for SQLite and $n for PostgreSQL, nested values in order, raw and dialect text as written")
    func rendering() {
        let inner: SQL = "b = \(2) OR c = \("x")"
        let q: SQL = "SELECT \(dialect: { $0.greatest })(a, 0) FROM t WHERE a = \(1) AND (\(inner)) ORDER BY \(raw: "a") LIMIT \(10)"
        let sqlite = q.rendered(for: .sqlite)
        #expect(sqlite.text == "SELECT MAX(a, 0) FROM t WHERE a = ? AND (b = ? OR c = ?) ORDER BY a LIMIT ?")
        let postgres = q.rendered(for: .postgresql)
        #expect(postgres.text == "SELECT GREATEST(a, 0) FROM t WHERE a = $1 AND (b = $2 OR c = $3) ORDER BY a LIMIT $4")
        #expect(sqlite.values == [.integer(1), .integer(2), .text("x"), .integer(10)])
        #expect(postgres.values == sqlite.values)
        let joined = SQL.joined(["x = \(1)", "y IS NULL", "z = \(Optional<String>.none)"], separator: " AND ")
        #expect(joined.rendered(for: .postgresql).text == "x = $1 AND y IS NULL AND z = $2")
        #expect(joined.rendered(for: .postgresql).values == [.integer(1), .null])
    }

    /// A record with every kind of column the store's records have.
    struct Sample: Codable, Equatable {
        enum Kind: String, Codable { case alpha, beta }
        var id: Int64
        var name: String
        var note: String?
        var kind: Kind
        var flag: Bool
        var ratio: Double
        var tags: [String]
        var photo: Data?
        var rank: Int16
    }

    @Test("Rows read back alike on both engines: text, NULL, raw-value enums, booleans, doubles, JSON lists, bytes, narrow integers; column names in any case", arguments: Engine.allCases)
    func roundTrip(engine: Engine) async throws {
        let db = try await engine.makeStore().sql
        try await db.write("CREATE TABLE seamSample (id BIGINT PRIMARY KEY, name TEXT NOT NULL, note TEXT, kind TEXT NOT NULL, flag BOOLEAN NOT NULL, ratio DOUBLE PRECISION NOT NULL, tags TEXT NOT NULL, photo \(dialect: { $0.blob }), rank INTEGER NOT NULL)")
        let rows = [Sample(id: 1, name: "Zoë", note: nil, kind: .beta, flag: true, ratio: 0.25, tags: ["a", "b"], photo: Data([0, 255, 7]), rank: -300),
                    Sample(id: 2, name: "o'Brien; DROP TABLE x", note: "n", kind: .alpha, flag: false, ratio: -3, tags: [], photo: nil, rank: 12)]
        let inserts: [SQL] = rows.map { r in
            let tags = String(decoding: try! JSONEncoder().encode(r.tags), as: UTF8.self)
            return "INSERT INTO seamSample (id, name, note, kind, flag, ratio, tags, photo, rank) VALUES (\(r.id), \(r.name), \(r.note), \(r.kind.rawValue), \(r.flag), \(r.ratio), \(tags), \(r.photo), \(Int(r.rank))) RETURNING id"
        }
        let returned = try await db.transaction(inserts)
        #expect(try returned.map { try $0[0].decode(0, as: Int64.self) } == [1, 2])
        #expect(try await db.all("SELECT * FROM seamSample ORDER BY id", as: Sample.self) == rows)
        #expect(try await db.value("SELECT COUNT(*) FROM seamSample WHERE flag = \(true)", as: Int.self) == 1)
        // PostgreSQL's SUM of integers is numeric: read as an integer all the same.
        #expect(try await db.value("SELECT SUM(id) FROM seamSample", as: Int.self) == 3)
        let row = try #require(try await db.query("SELECT id AS camelCase FROM seamSample WHERE id = \(2)").first)
        #expect(try row.decode("CAMELCASE", as: Int.self) == 2)
        #expect(throws: SQLDecodingError.self) { try row.decode("camelCase", as: String.self) }
    }

    @Test("A transaction is all or nothing, and a duplicate key is told apart from other errors", arguments: Engine.allCases)
    func transactionAndUniqueness(engine: Engine) async throws {
        let db = try await engine.makeStore().sql
        try await db.write("CREATE TABLE seamKey (k TEXT PRIMARY KEY)")
        try await db.write("INSERT INTO seamKey (k) VALUES (\("a"))")
        do {
            try await db.transaction(["INSERT INTO seamKey (k) VALUES (\("b"))", "INSERT INTO seamKey (k) VALUES (\("a"))"])
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(db.isUniqueViolation(error))
        }
        #expect(try await db.value("SELECT COUNT(*) FROM seamKey", as: Int.self) == 1)
        do {
            try await db.write("INSERT INTO noSuchTable (k) VALUES (\(1))")
            Issue.record("a missing table was accepted")
        } catch {
            #expect(!db.isUniqueViolation(error))
        }
    }

    @Test("A fragment that differs by engine binds its own values, in order with the statement's")
    func dialectFragments() {
        let q: SQL = "SELECT \(1) FROM statMember WHERE \(dialect: { $0.hasDay("days", from: "\(5)", to: "\(9)") }) AND kind = \(2)"
        let sqlite = q.rendered(for: .sqlite)
        #expect(sqlite.text == "SELECT ? FROM statMember WHERE ft_hasday(days, ?, ?) AND kind = ?")
        let postgres = q.rendered(for: .postgresql)
        #expect(postgres.text == "SELECT $1 FROM statMember WHERE EXISTS (SELECT 1 FROM unnest(days) AS x WHERE x BETWEEN $2 AND $3) AND kind = $4")
        #expect(sqlite.values == [.integer(1), .integer(5), .integer(9), .integer(2)])
        #expect(postgres.values == sqlite.values)
    }

    @Test("A snapshot runs the statements made from its first rows, on the same committed state", arguments: Engine.allCases)
    func snapshot(engine: Engine) async throws {
        let db = try await engine.makeStore().sql
        try await db.write("CREATE TABLE seamSnap (n BIGINT NOT NULL)")
        try await db.transaction(["INSERT INTO seamSnap (n) VALUES (\(3))", "INSERT INTO seamSnap (n) VALUES (\(4))"])
        let results = try await db.snapshot("SELECT MAX(n) FROM seamSnap") { rows in
            let top = try rows[0].decode(0, as: Int.self)
            return ["SELECT COUNT(*) FROM seamSnap WHERE n < \(top)", "SELECT \(top * 10)"]
        }
        #expect(results.count == 3)
        #expect(try results.map { try $0[0].decode(0, as: Int.self) } == [4, 1, 40])
        let none = try await db.snapshot("SELECT MAX(n) FROM seamSnap WHERE n > \(100)") { _ in [] }
        #expect(none.count == 1)
        #expect(try none[0][0].decode(0, as: Int?.self) == nil)
    }
}
