import Foundation
import ModeS
@testable import Store

/// Fast bcrypt for tests (the minimum cost bcrypt allows).
let testCost: UInt8 = 4

/// An in-memory database with users `alice` and `bob` (password `correct horse`).
func databaseWithUsers() throws -> AppDatabase {
    let db = try AppDatabase.inMemory()
    try db.addUser(username: "alice", password: "correct horse", email: "alice@example.org", now: 1000, cost: testCost)
    try db.addUser(username: "bob", password: "correct horse", now: 1000, cost: testCost)
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

/// A deterministic generator (SplitMix64) for generated logs.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
