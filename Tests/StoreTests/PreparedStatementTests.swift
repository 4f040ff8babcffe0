import Foundation
import GRDB
@testable import Store
import Testing

@Suite("Store: statements kept prepared on SQLite")
struct PreparedStatementTests {
    @Test("The kept texts are bounded: the first `capacity` distinct texts are kept and stay kept, later ones are compiled each time")
    func keptTextsAreBounded() {
        let texts = PreparedTexts(capacity: 2)
        #expect(texts.admits("SELECT 1"))
        #expect(texts.admits("SELECT 2"))
        #expect(!texts.admits("SELECT 3"), "a third text past a capacity of two")
        #expect(texts.admits("SELECT 1"), "a kept text stays kept")
        #expect(!texts.admits("SELECT 3"))
    }

    @Test("A statement kept prepared runs again with new values, past the bound too, and sees the table's rows as they are now")
    func keptStatementsRunWithNewValues() async throws {
        let db = GRDBDatabase(try AppDatabase.inMemory().writer, preparedCapacity: 1)
        try await db.write("CREATE TABLE preparedSample (n BIGINT NOT NULL)")
        for n in 1...3 {
            try await db.write("INSERT INTO preparedSample (n) VALUES (\(n))")
            // The first text was kept (the CREATE); these two are past the bound.
            #expect(try await db.value("SELECT COUNT(*) FROM preparedSample WHERE n <= \(n)", as: Int.self) == n)
            #expect(try await db.value("SELECT SUM(n) FROM preparedSample", as: Int.self) == n * (n + 1) / 2)
        }
        let kept = GRDBDatabase(db.writer)
        for n in 1...3 {
            #expect(try await kept.value("SELECT COUNT(*) FROM preparedSample WHERE n >= \(n)", as: Int.self) == 4 - n)
        }
        // A changed schema prepares the kept statement again.
        try await kept.write("ALTER TABLE preparedSample ADD COLUMN m BIGINT NOT NULL DEFAULT 7")
        #expect(try await kept.value("SELECT SUM(m) FROM preparedSample", as: Int.self) == 21)
        #expect(try await kept.value("SELECT COUNT(*) FROM preparedSample WHERE n >= \(2)", as: Int.self) == 2)
    }

    @Test("The project's SQL functions are there on every connection of a database file, the readers' too, between kept statements")
    func functionsOnEveryConnection() async throws {
        let path = temporaryDatabasePath()
        defer { removeTemporary(path) }
        let db = try AppDatabase.open(path: path).sql
        for _ in 0..<3 {
            // Towards Miami from due north, heading south: 1; heading north: 0.
            #expect(try await db.value("SELECT ft_towards(\(30.0), \(-80.29), \(180.0), \(25.79), \(-80.29), \(30.0))", as: Int.self) == 1)
            #expect(try await db.value("SELECT ft_towards(\(30.0), \(-80.29), \(0.0), \(25.79), \(-80.29), \(30.0))", as: Int.self) == 0)
            #expect(try await db.value("SELECT ft_hasday(\(",20454,20460,"), \(20455), \(20460))", as: Int.self) == 1)
            let written = try await db.transaction(["SELECT ft_hasday(\(",20454,"), \(20455), \(20460))"])
            #expect(try written[0][0].decode(0, as: Int.self) == 0)
        }
    }
}
