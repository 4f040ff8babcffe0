import ArgumentParser
import Benchmarks
import Foundation
import Store
import Testing
@testable import FlyTrackerCLI

/// `flytracker bench --store` and `flytracker db bench`: bad options are one line and status 1,
/// before anything is written; a small run times every query.
@Suite("Store benchmark command")
struct StoreBenchCommandTests {
    @Test("Bad store benchmark options exit with status 1", arguments: [
        ["bench", "--store", "--visits", "0"],
        ["bench", "--store", "--points=-1"],
        ["bench", "--visits", "10"],
        ["bench", "--queries-only", "--file", "/tmp/x.sqlite"],
        ["bench", "--store", "--queries-only"],
        ["bench", "--store", "--queries-only", "--file", "/tmp/x.sqlite", "--visits", "5"],
        ["db", "bench", "--visits=-5"],
        ["db", "bench", "--queries-only"],
    ])
    func badOptions(arguments: [String]) {
        do {
            _ = try FlyTracker.parseAsRoot(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            // Status 1, and nothing more than the one line the command wrote itself.
            #expect(FlyTracker.exitCode(for: error) == ExitCode(1))
            #expect(FlyTracker.message(for: error).isEmpty)
        }
    }

    @Test("--queries-only on a missing file, and a fill into an existing file, are refused")
    func files() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-storebench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("none.sqlite").path
        var command = try FlyTracker.parseAsRoot(["bench", "--store", "--queries-only", "--file", missing])
        #expect(await ParsedCommand.exitCode(of: command) == ExitCode(1))
        let existing = dir.appendingPathComponent("there.sqlite").path
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("not a database".utf8)))
        command = try FlyTracker.parseAsRoot(["db", "bench", "--file", existing, "--visits", "10"])
        #expect(await ParsedCommand.exitCode(of: command) == ExitCode(1))
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("not a database".utf8))
    }

    @Test("A small fill writes its visits and points, and a second run times the same file")
    func smallRun() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-storebench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bench.sqlite").path
        var command = try FlyTracker.parseAsRoot(["bench", "--store", "--visits", "400", "--points", "3", "--file", path])
        try await ParsedCommand.run(command)
        command = try FlyTracker.parseAsRoot(["db", "bench", "--queries-only", "--file", path])
        try await ParsedCommand.run(command)
        let db = try AppDatabase.open(path: path)
        #expect(try await db.writer.read { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM visit") } == 400)
        #expect(try await db.writer.read { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM trackPoint") } == 1200)
        await #expect(try db.statistics.total(filter: StatsFilter()).visits == 400)
    }

    @Test("The benchmark times a random aircraft the first time and again, and one statement's round trip through the seam")
    func smallQuestionsTimedColdAndWarm() async throws {
        let db = try AppDatabase.inMemory()
        _ = try StoreBenchmark.fill(db, visits: 2000, pointsPerVisit: 0)
        let timings = try await StoreBenchmark.queries(db)
        let byName = Dictionary(timings.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in ["random aircraft of the last day", "random aircraft of the year"] {
            #expect(byName[name] != nil && byName[name + ", again (median)"] != nil, "\(name): first and again")
        }
        // A year of 2000 visits always has one to pick.
        #expect(byName["random aircraft of the year, again (median)"]?.rows == 1)
        #expect(timings.last?.name == "one statement through the seam (median)")
        #expect(timings.allSatisfy { $0.duration > .zero })
    }
}
