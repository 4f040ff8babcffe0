import ArgumentParser
import Foundation
import PostgresTestSupport
import Store
import Testing
@testable import FlyTrackerCLI

/// `users`, `track`, `history`, `stats`: bad input exits non-zero and writes nothing.
@Suite("Store commands", .serialized)
struct StoreCommandsTests {
    static func database() async throws -> (String, AppDatabase) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-cli-\(UUID().uuidString)/db.sqlite").path
        let db = try AppDatabase.open(path: path)
        try await db.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        return (path, db)
    }

    /// Parses and runs a command as `flytracker` does.
    static func run(_ command: any ParsableCommand.Type, _ arguments: [String]) async throws {
        try await ParsedCommand.run(try command.parseAsRoot(arguments))
    }

    @Test("A simulated run answers statistics by type with the fleet's types (no aircraft database imported)")
    func simulatedRunHasTypes() async throws {
        let (path, db) = try await Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var run = try RunCommand.parse(["--simulate", "--sim-fast", "--sim-duration", "4", "--sim-aircraft", "10", "--db", path, "--quiet"])
        try await run.run()
        let rows = try await db.statistics.groups(by: .type)
        #expect(!rows.isEmpty)
        #expect(!rows.contains { $0.key == "unknown" }, "\(rows.map(\.key))")
        #expect(rows.allSatisfy { $0.key.count == 4 })
    }

    @Test("The journal says what became of each alert: sent, failed, held back, not sent yet; nothing without a webhook")
    func journalAlertColumn() async throws {
        let (path, db) = try await Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var alice = try await #require(try db.accounts.user(named: "alice"))
        let kinds: [JournalKind] = [.firstSeen, .closestApproach, .firstSeen, .goal, .position]
        var events: [JournalEventRecord] = []
        for (i, kind) in kinds.enumerated() {
            let userId = alice.id!
            let e = try await db.writer.write { d in
                var e = JournalEventRecord(userId: userId, watchRuleId: nil, visitId: nil, address: 0x4840D6 + i, time: 1000 + Double(i), kind: kind)
                try e.insert(d)
                return e
            }
            events.append(e)
        }
        #expect(try await HistoryCommand.alertOutcomes(events, user: alice, database: db).isEmpty, "no webhook, no alerts")
        alice.channels = [NotificationChannel(url: "https://hooks.example.org/a")]
        try await db.accounts.update(alice)
        func log(_ e: JournalEventRecord, _ attempt: Int, _ success: Bool) async throws {
            _ = try await db.deliveryLog.record(AlertDeliveryRecord(userId: alice.id!, journalEventId: e.id, url: "https://hooks.example.org/a",
                                                          time: e.time, attempt: attempt, status: nil, success: success, error: nil))
        }
        try await log(events[0], 1, true)
        try await log(events[1], 1, false)
        try await log(events[1], 2, false)
        try await log(events[2], 0, false)
        let outcomes = try await HistoryCommand.alertOutcomes(events, user: alice, database: db)
        #expect(events.map { outcomes[$0.id!] } == ["sent", "failed (2 tries)", "held back", "not sent yet", nil])
    }

    @Test("--visit goes with --aircraft and counts from 1")
    func visitOption() {
        #expect(throws: (any Error).self) { try HistoryCommand.parse(["--user", "alice", "--visit", "1"]) }
        #expect(throws: (any Error).self) { try HistoryCommand.parse(["--aircraft", "4840d6", "--visit", "0"]) }
        #expect((try? HistoryCommand.parse(["--aircraft", "4840d6", "--visit", "2"]))?.visit == 2)
    }

    @Test("users set --language takes a language FlyTracker speaks, in any case")
    func setLanguage() async throws {
        let (path, db) = try await Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try await Self.run(UsersCommand.self, ["set", "alice", "--language", "FR", "--db", path])
        await #expect(try db.accounts.user(named: "alice")?.language == "fr")
    }

    @Test("history --aircraft shows a visit list and a visit's path in the units asked for (aeronautical unless told)")
    func historyUnits() {
        // North at 360 kt for a minute: 6 NM (11.1 km, 6.9 mi), climbing from 3000 to 3600 ft.
        let path = VisitPath(visitId: 9, points: TrackFixtures.northbound(visitId: 9, speed: 360))
        let visit = VisitRecord(id: 9, address: 0x4840D6, firstSeen: 1000, lastSeen: 1060, callsign: "KLM601", minAltitude: 3000,
                                maxAltitude: 3600, closestDistance: 4.25)
        let aeronautical = HistoryCommand.pathLines(path, of: visit, units: .aeronautical).joined(separator: "\n")
        #expect(aeronautical.contains("1 min 0 s, 6.0 NM flown, average 360 kt, top 360 kt"), "\(aeronautical)")
        #expect(aeronautical.contains("altitude 3000 ft–3600 ft"))
        let metric = HistoryCommand.pathLines(path, of: visit, units: .metric).joined(separator: "\n")
        #expect(metric.contains("11.1 km flown, average 667 km/h, top 667 km/h"), "\(metric)")
        #expect(metric.contains("altitude 914 m–1097 m"))
        #expect(metric.contains("5.6 km") && metric.contains("1067 m"), "the profile rows too")
        #expect(!metric.contains(" NM") && !metric.contains(" ft") && !metric.contains(" kt"))
        let imperial = HistoryCommand.pathLines(path, of: visit, units: .imperial).joined(separator: "\n")
        #expect(imperial.contains("6.9 mi flown, average 414 mph"), "\(imperial)")
        let list = HistoryCommand.visitLines([visit], units: .metric).joined(separator: "\n")
        #expect(list.contains("914 m") && list.contains("1097 m") && list.contains("7.9 km"), "\(list)")
        #expect((try? HistoryCommand.parse(["--aircraft", "4840d6", "--units", "metric"]))?.units == .metric)
    }

    @Test("A watchlist rule is added, listed and removed")
    func trackRoundTrip() async throws {
        let (path, db) = try await Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        try await Self.run(TrackCommand.self, ["add", "--user", "alice", "flight", "BA283", "--db", path])
        let rules = try await db.watchlists.rules(username: "alice")
        #expect(rules.map(\.value) == ["BA283"])
        try await Self.run(TrackCommand.self, ["remove", "--user", "alice", "\(rules[0].id!)", "--db", path])
        await #expect(try db.watchlists.rules(username: "alice").isEmpty)
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
        ["users", "set", "alice", "--language", "nl"],
        ["users", "set", "alice", "--dark-mode", "on", "--language", "klingon"],
        ["history", "--user", "zed"],
        ["history", "--aircraft", "x!y"],
        ["history", "--aircraft", "4840d6", "--visit", "1"],
        ["stats", "--towards", "ZZZZ"],
        ["stats", "--towards", "95,10"],
        ["stats", "--since", "yesterday"],
        ["stats", "--within", "-3"],
        ["stats", "--type", "B7%"],
    ])
    func badInput(arguments: [String]) async throws {
        let (path, db) = try await Self.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let command: any ParsableCommand.Type = switch arguments[0] {
        case "track": TrackCommand.self
        case "users": UsersCommand.self
        case "history": HistoryCommand.self
        default: StatsCommand.self
        }
        #expect(await ParsedCommand.exitCode(of: try command.parseAsRoot(Array(arguments.dropFirst()) + ["--db", path])) == ExitCode(1))
        await #expect(try db.watchlists.rules(username: "alice").isEmpty)
        await #expect(try db.accounts.all().map(\.username) == ["alice"])
        let user = try await #require(try db.accounts.user(named: "alice"))
        #expect(!user.darkMode && user.channels.isEmpty && user.language == "en")
    }
}
