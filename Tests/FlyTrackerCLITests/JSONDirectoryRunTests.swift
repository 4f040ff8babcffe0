import Foundation
import Testing
@testable import FlyTrackerCLI

/// `run --json-dir` writes what tar1090 reads for trails and range (issue 26): history
/// files named in receiver.json, outline.json with its saved state.
@Suite(.serialized) struct JSONDirectoryRunTests {
    @Test("a replay writes history files, receiver.json's history and outlineJson, and the outline with its state")
    func historyAndOutline() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-jsondir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let iq = dir.appendingPathComponent("sky.uc8").path
        let json = dir.appendingPathComponent("json").path
        try await onOwnThread {
            try SimulateCommand.parse([
                "--output", iq, "--format", "uc8", "--sample-rate", "2.4M", "--duration", "3.5",
                "--aircraft", "8", "--snr", "20", "--seed", "5", "--lat", "40.6", "--lon=-73.8", "--quiet",
            ]).run()
        }
        var run = try RunCommand.parse([
            "--ifile", iq, "--iformat", "uc8", "--sample-rate", "2.4M", "--lat", "40.6", "--lon=-73.8", "--no-db",
            "--json-dir", json, "--json-history", "2", "--json-history-interval", "1", "--quiet",
        ])
        try await run.run()
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: json))
        #expect(files.isSuperset(of: ["aircraft.json", "receiver.json", "stats.json", "history_0.json", "history_1.json",
                                      "outline.json", RunOutputs.outlineState]))
        #expect(!files.contains("history_2.json"), "a ring of two")
        func object(_ name: String) throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: json + "/" + name))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let receiver = try object("receiver.json")
        #expect(receiver["history"] as? Int == 2)
        #expect(receiver["outlineJson"] as? Bool == true)
        let history = try object("history_1.json")
        #expect(history["now"] is Double && history["aircraft"] is [Any])
        let outline = try object("outline.json")
        let points = ((outline["actualRange"] as? [String: Any])?["last24h"] as? [String: Any])?["points"] as? [[Double]] ?? []
        #expect(!points.isEmpty, "positions were decoded, so the outline has points")
        // The next start reads the saved outline back.
        let saved = RunOutputs.loadOutline(from: json + "/" + RunOutputs.outlineState, hours: 24)
        #expect(saved.outline(at: Date().timeIntervalSince1970).count == points.count)
        // A damaged state file is set aside, not trusted and not lost.
        let state = json + "/" + RunOutputs.outlineState
        try Data("{garbage".utf8).write(to: URL(fileURLWithPath: state))
        let fresh = RunOutputs.loadOutline(from: state, hours: 24)
        #expect(fresh.outline(at: 0).isEmpty)
        #expect(FileManager.default.fileExists(atPath: state + ".bad"))
    }

    @Test("a simulated sky shows every aircraft with its registration, type and operator, with no database")
    func simulatedAircraftHaveTypes() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-simtypes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path
        var run = try RunCommand.parse([
            "--simulate", "--sim-fast", "--sim-duration", "4", "--sim-aircraft", "8", "--no-db", "--json-dir", path,
            "--json-history", "0", "--range-outline-hours", "0", "--quiet",
        ])
        try await run.run()
        let data = try Data(contentsOf: dir.appendingPathComponent("aircraft.json"))
        let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let aircraft = try #require(doc["aircraft"] as? [[String: Any]])
        #expect(aircraft.count >= 6)
        for a in aircraft {
            #expect((a["t"] as? String)?.count == 4, "\(a["hex"] ?? "?")")
            #expect(a["r"] is String && a["desc"] is String)
            if let flight = a["flight"] as? String, !flight.hasPrefix("N") { #expect(a["ownOp"] is String, "\(flight)") }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!files.contains { $0.hasPrefix("history_") || $0.hasPrefix("outline") }, "history and outline turned off")
    }

    @Test(arguments: [["--json-history", "-1"], ["--json-history-interval", "0"], ["--range-outline-hours", "0.01"]])
    func badHistoryAndOutlineOptionsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try RunCommand.parse(["--simulate"] + arguments) }
    }
}
