import Foundation
import ModeS
@testable import Store

/// Fast bcrypt for tests (the minimum cost bcrypt allows).
let testCost: UInt8 = 4

/// An in-memory database with users `alice` and `bob` (password `correct horse`).
func databaseWithUsers() async throws -> AppDatabase {
    let db = try AppDatabase.inMemory()
    try await db.accounts.add(username: "alice", password: "correct horse", email: "alice@example.org", now: 1000, cost: testCost)
    try await db.accounts.add(username: "bob", password: "correct horse", now: 1000, cost: testCost)
    return db
}

/// A fresh temporary file path (the directory is removed by `removeTemporary`).
func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-store-\(UUID().uuidString)/test.sqlite").path
}

func removeTemporary(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}

/// Table names of the database.
func tableNames(_ db: AppDatabase) throws -> Set<String> {
    try db.writer.read { d in
        Set(try String.fetchAll(d, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    }
}

func count(_ db: AppDatabase, _ table: String) throws -> Int {
    try db.writer.read { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
}
