import ArgumentParser
import Foundation
import Store
import Testing
@testable import FlyTrackerCLI

/// `users`, `track`, `history`, `stats`: bad input exits non-zero and writes nothing.
@Suite("Store commands", .serialized)
struct StoreCommandsTests {
    static func database() throws -> (String, AppDatabase) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-cli-\(UUID().uuidString)/db.sqlite").path
        let db = try AppDatabase.open(path: path)
        try db.addUser(username: "alice", password: "correct horse", now: 0, cost: 4)
        return (path, db)
    }

    static func run(_ command: any ParsableCommand.Type, _ arguments: [String]) throws {
        var parsed = try command.parseAsRoot(arguments)
        try parsed.run()
    }

    @Test("A simulated run answers statistics by type with the fleet's types (no aircraft database imported)")
    func simulatedRunHasTypes() async throws {
        let (path, db) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try await onOwnThread {
            try RunCommand.parse(["--simulate", "--sim-fast", "--sim-duration", "4", "--sim-aircraft", "10", "--db", path, "--quiet"]).run()
        }
        let rows = try db.statistics(by: .type)
        #expect(!rows.isEmpty)
        #expect(!rows.contains { $0.key == "unknown" }, "\(rows.map(\.key))")
        #expect(rows.allSatisfy { $0.key.count == 4 })
    }

    @Test("--visit goes with --aircraft and counts from 1")
    func visitOption() {
        #expect(throws: (any Error).self) { try HistoryCommand.parse(["--user", "alice", "--visit", "1"]) }
        #expect(throws: (any Error).self) { try HistoryCommand.parse(["--aircraft", "4840d6", "--visit", "0"]) }
        #expect((try? HistoryCommand.parse(["--aircraft", "4840d6", "--visit", "2"]))?.visit == 2)
    }

    @Test("A watchlist rule is added, listed and removed")
    func trackRoundTrip() throws {
        let (path, db) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try Self.run(TrackCommand.self, ["add", "--user", "alice", "flight", "BA283", "--db", path])
        let rules = try db.rules(username: "alice")
        #expect(rules.map(\.value) == ["BA283"])
        try Self.run(TrackCommand.self, ["remove", "--user", "alice", "\(rules[0].id!)", "--db", path])
        #expect(try db.rules(username: "alice").isEmpty)
    }

    @Test("Bad input exits with status 1 and writes nothing", arguments: [
        ["track", "add", "--user", "alice", "squawk", "7800"],
        ["track", "add", "--user", "zed", "squawk", "7700"],
        ["track", "add", "--user", "alice", "type", "B7%"],
        ["track", "remove", "--user", "alice", "42"],
        ["users", "delete", "zed"],
        ["users", "passwd", "zed"],
        ["users", "set", "alice", "--dark-mode", "maybe"],
        ["users", "set", "alice", "--add-webhook", "ftp://example.org"],
        ["history", "--user", "zed"],
        ["history", "--aircraft", "x!y"],
        ["history", "--aircraft", "4840d6", "--visit", "1"],
        ["stats", "--towards", "ZZZZ"],
        ["stats", "--towards", "95,10"],
        ["stats", "--since", "yesterday"],
        ["stats", "--within", "-3"],
        ["stats", "--type", "B7%"],
    ])
    func badInput(arguments: [String]) throws {
        let (path, db) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let before = try db.writer.read { d in try Int.fetchOne(d, sql: "SELECT total_changes()") }
        let command: any ParsableCommand.Type = switch arguments[0] {
        case "track": TrackCommand.self
        case "users": UsersCommand.self
        case "history": HistoryCommand.self
        default: StatsCommand.self
        }
        #expect(throws: ExitCode(1)) { try Self.run(command, Array(arguments.dropFirst()) + ["--db", path]) }
        #expect(try db.rules(username: "alice").isEmpty)
        #expect(try db.users().map(\.username) == ["alice"])
        let user = try #require(try db.user(named: "alice"))
        #expect(!user.darkMode && user.channels.isEmpty)
        _ = before
    }
}
