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

    @Test("The journal says what became of each alert: sent, failed, held back, not sent yet; nothing without a webhook")
    func journalAlertColumn() throws {
        let (path, db) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var alice = try #require(try db.user(named: "alice"))
        let kinds: [JournalKind] = [.firstSeen, .closestApproach, .firstSeen, .goal, .position]
        var events: [JournalEventRecord] = []
        for (i, kind) in kinds.enumerated() {
            var e = JournalEventRecord(userId: alice.id!, watchRuleId: nil, visitId: nil, address: 0x4840D6 + i, time: 1000 + Double(i), kind: kind)
            try db.writer.write { d in try e.insert(d) }
            events.append(e)
        }
        #expect(try HistoryCommand.alertOutcomes(events, user: alice, database: db).isEmpty, "no webhook, no alerts")
        alice.channels = [NotificationChannel(url: "https://hooks.example.org/a")]
        try db.updateUser(alice)
        func log(_ e: JournalEventRecord, _ attempt: Int, _ success: Bool) throws {
            _ = try db.recordDelivery(AlertDeliveryRecord(userId: alice.id!, journalEventId: e.id, url: "https://hooks.example.org/a",
                                                          time: e.time, attempt: attempt, status: nil, success: success, error: nil))
        }
        try log(events[0], 1, true)
        try log(events[1], 1, false)
        try log(events[1], 2, false)
        try log(events[2], 0, false)
        let outcomes = try HistoryCommand.alertOutcomes(events, user: alice, database: db)
        #expect(events.map { outcomes[$0.id!] } == ["sent", "failed (2 tries)", "held back", "not sent yet", nil])
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
