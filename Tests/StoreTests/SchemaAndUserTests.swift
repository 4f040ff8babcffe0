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
                             "v10-postgresql-statistics-rollup", "v11-places", "v12-social", "v13-sessions"])
    }

    @Test("An empty file database migrates, is WAL, and reopens with its rows")
    func migratesFile() throws {
        let path = temporaryDatabasePath()
        defer { removeTemporary(path) }
        do {
            let db = try AppDatabase.open(path: path)
            #expect(try tableNames(db) == Self.tables)
            let mode = try db.writer.read { d in try String.fetchOne(d, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
            try db.addUser(username: "carol", password: "12345678", now: 5, cost: testCost)
        }
        let again = try AppDatabase.open(path: path)
        #expect(try again.user(named: "CAROL")?.username == "carol")
    }

    @Test("Passwords are stored as bcrypt hashes and verified; wrong ones are refused")
    func passwords() throws {
        let db = try databaseWithUsers()
        let alice = try #require(try db.user(named: "alice"))
        #expect(alice.passwordHash.hasPrefix("$2"))
        #expect(!alice.passwordHash.contains("correct horse"))
        #expect(try db.authenticate(username: "alice", password: "correct horse").id == alice.id)
        #expect(throws: UserError.wrongPassword) { try db.authenticate(username: "alice", password: "Correct horse") }
        #expect(throws: UserError.unknownUser("zed")) { try db.authenticate(username: "zed", password: "correct horse") }
        try db.setPassword(username: "alice", password: "battery staple", cost: testCost)
        #expect(throws: UserError.wrongPassword) { try db.authenticate(username: "alice", password: "correct horse") }
        #expect(try db.authenticate(username: "alice", password: "battery staple").username == "alice")
    }

    @Test("Duplicate, malformed and weak accounts are refused and nothing is written")
    func badAccounts() throws {
        let db = try databaseWithUsers()
        #expect(throws: UserError.duplicateUsername("Alice")) { try db.addUser(username: "Alice", password: "12345678", now: 0, cost: testCost) }
        #expect(throws: UserError.invalidUsername("a b")) { try db.addUser(username: "a b", password: "12345678", now: 0, cost: testCost) }
        #expect(throws: UserError.invalidUsername("")) { try db.addUser(username: "", password: "12345678", now: 0, cost: testCost) }
        #expect(throws: UserError.weakPassword) { try db.addUser(username: "dave", password: "short", now: 0, cost: testCost) }
        #expect(throws: UserError.invalidEmail("nope")) { try db.addUser(username: "dave", password: "12345678", email: "nope", now: 0, cost: testCost) }
        #expect(throws: UserError.unknownUser("zed")) { try db.deleteUser(username: "zed") }
        #expect(try count(db, "user") == 2)
    }

    @Test("Settings round-trip; bad webhook URLs are refused")
    func settings() throws {
        let db = try databaseWithUsers()
        var bob = try #require(try db.user(named: "bob"))
        #expect(bob.units == .metric && !bob.darkMode && bob.language == "en" && bob.channels.isEmpty)
        bob.units = .aeronautical
        bob.darkMode = true
        bob.language = "de"
        bob.channels = [NotificationChannel(url: "https://maker.ifttt.com/trigger/plane/with/key/x")]
        try db.updateUser(bob)
        #expect(try db.user(named: "bob") == bob)
        bob.channels = [NotificationChannel(url: "ftp://x")]
        #expect(throws: UserError.invalidURL("ftp://x")) { try db.updateUser(bob) }
        #expect(try db.user(named: "bob")?.channels.first?.url.hasPrefix("https://") == true)
    }

    @Test("Deleting a user deletes their watchlist")
    func deleteCascades() throws {
        let db = try databaseWithUsers()
        try db.addRule(username: "alice", kind: .flight, value: "BA283", now: 1)
        try db.addRule(username: "bob", kind: .squawk, value: "7700", now: 1)
        try db.deleteUser(username: "alice")
        #expect(try db.allRules().map(\.value) == ["7700"])
    }
}
