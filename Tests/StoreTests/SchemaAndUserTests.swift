import Foundation
import GRDB
import Testing
@testable import Store

@Suite("Store schema and users")
struct SchemaAndUserTests {
    static let tables: Set<String> = ["visitReceiver", "aircraft", "user", "watchRule", "airlineCode", "visit", "trackPoint",
                                      "journalEvent", "alertDelivery", "airport", "statDay", "statMember", "statMeta", "place", "reminder", "friendship", "userBlock", "profile", "spottingGroup", "groupMember", "groupRule", "goal", "post", "comment", "postReport", "siteAdmin", "loginSession",
                                      "grdb_migrations"]

    @Test("An empty in-memory database migrates to every table")
    func migratesInMemory() throws {
        let db = try AppDatabase.inMemory()
        #expect(try tableNames(db) == Self.tables)
        let applied = try db.writer.read { d in try AppDatabase.migrator.appliedIdentifiers(d) }
        #expect(applied == ["v1-aircraft-db", "v2-users", "v3-watchlists", "v4-sightings", "v5-journal", "v6-airports",
                             "v7-statistics-rollup", "v8-type-statistics-rollup", "v9-visit-receivers",
                             "v10-postgresql-statistics-rollup", "v11-places", "v12-social", "v13-sessions", "v14-visit-key"])
    }

    @Test("An empty file database migrates, is WAL, and reopens with its rows")
    func migratesFile() async throws {
        let path = temporaryDatabasePath()
        defer { removeTemporary(path) }
        do {
            let db = try AppDatabase.open(path: path)
            #expect(try tableNames(db) == Self.tables)
            let mode = try await db.writer.read { d in try String.fetchOne(d, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
            try await db.accounts.add(username: "carol", password: "12345678", now: 5, cost: testCost)
        }
        let again = try AppDatabase.open(path: path)
        #expect(try await again.accounts.user(named: "CAROL")?.username == "carol")
    }

    @Test("Passwords are stored as bcrypt hashes and verified; wrong ones are refused")
    func passwords() async throws {
        let db = try await databaseWithUsers()
        let alice = try await #require(try db.accounts.user(named: "alice"))
        #expect(alice.passwordHash.hasPrefix("$2"))
        #expect(!alice.passwordHash.contains("correct horse"))
        #expect(try await db.accounts.authenticate(username: "alice", password: "correct horse").id == alice.id)
        await #expect(throws: UserError.wrongPassword) { try await db.accounts.authenticate(username: "alice", password: "Correct horse") }
        await #expect(throws: UserError.unknownUser("zed")) { try await db.accounts.authenticate(username: "zed", password: "correct horse") }
        try await db.accounts.setPassword(username: "alice", password: "battery staple", cost: testCost)
        await #expect(throws: UserError.wrongPassword) { try await db.accounts.authenticate(username: "alice", password: "correct horse") }
        #expect(try await db.accounts.authenticate(username: "alice", password: "battery staple").username == "alice")
    }

    @Test("Duplicate, malformed and weak accounts are refused and nothing is written")
    func badAccounts() async throws {
        let db = try await databaseWithUsers()
        await #expect(throws: UserError.duplicateUsername("Alice")) { try await db.accounts.add(username: "Alice", password: "12345678", now: 0, cost: testCost) }
        await #expect(throws: UserError.invalidUsername("a b")) { try await db.accounts.add(username: "a b", password: "12345678", now: 0, cost: testCost) }
        await #expect(throws: UserError.invalidUsername("")) { try await db.accounts.add(username: "", password: "12345678", now: 0, cost: testCost) }
        await #expect(throws: UserError.weakPassword) { try await db.accounts.add(username: "dave", password: "short", now: 0, cost: testCost) }
        await #expect(throws: UserError.invalidEmail("nope")) { try await db.accounts.add(username: "dave", password: "12345678", email: "nope", now: 0, cost: testCost) }
        await #expect(throws: UserError.unknownUser("zed")) { try await db.accounts.delete(username: "zed") }
        #expect(try count(db, "user") == 2)
    }

    @Test("Settings round-trip; bad webhook URLs are refused")
    func settings() async throws {
        let db = try await databaseWithUsers()
        var bob = try await #require(try db.accounts.user(named: "bob"))
        #expect(bob.units == .metric && !bob.darkMode && bob.language == "en" && bob.channels.isEmpty)
        bob.units = .aeronautical
        bob.darkMode = true
        bob.language = "de"
        bob.channels = [NotificationChannel(url: "https://maker.ifttt.com/trigger/plane/with/key/x")]
        try await db.accounts.update(bob)
        #expect(try await db.accounts.user(named: "bob") == bob)
        bob.channels = [NotificationChannel(url: "ftp://x")]
        await #expect(throws: UserError.invalidURL("ftp://x")) { try await db.accounts.update(bob) }
        #expect(try await db.accounts.user(named: "bob")?.channels.first?.url.hasPrefix("https://") == true)
    }

    @Test("Deleting a user deletes their watchlist")
    func deleteCascades() async throws {
        let db = try await databaseWithUsers()
        try await db.watchlists.add(username: "alice", kind: .flight, value: "BA283", now: 1)
        try await db.watchlists.add(username: "bob", kind: .squawk, value: "7700", now: 1)
        try await db.accounts.delete(username: "alice")
        #expect(try await db.watchlists.all().map(\.value) == ["7700"])
    }
}
