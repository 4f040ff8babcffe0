import Foundation
import Testing
@testable import FlyTrackerCLI

/// `flytracker simulate`: arguments are checked, and a run writes the recording and its truth.
struct SimulateCommandTests {
    @Test(arguments: [
        ["-o", "/tmp/x.bin", "--format", "u8"],
        ["-o", "/tmp/x.bin", "--sample-rate", "3M"],
        ["-o", "/tmp/x.bin", "--duration", "0"],
        ["-o", "/tmp/x.bin", "--aircraft", "-1"],
        ["-o", "/tmp/x.bin", "--lat", "91"],
        ["--duration", "1"],
        ["-o", "/tmp/x.bin", "--channel", "rtl"],
        ["-o", "/tmp/x.bin", "--test-frames", "0"],
        ["-o", "/tmp/x.bin", "--test-frames", "10", "--fruit-rate", "-1"],
    ])
    func badArgumentsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try SimulateCommand.parse(arguments) }
    }

    @Test func aRunWritesTheRecordingAndTheTruth() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-sim-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let iq = dir.appendingPathComponent("s.bin").path, truth = dir.appendingPathComponent("s.jsonl").path
        let command = try SimulateCommand.parse([
            "--output", iq, "--truth", truth, "--format", "cf32", "--sample-rate", "2.0M", "--duration", "0.2",
            "--aircraft", "10", "--snr", "15", "--seed", "3", "--lat", "40.6", "--lon=-73.8", "--quiet",
        ])
        try command.run()
        #expect(try Data(contentsOf: URL(fileURLWithPath: iq)).count == 400_000 * 8)
        let lines = try String(contentsOfFile: truth, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        // Aircraft fly around the receiver given by --lat/--lon.
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let lat = try #require(object["lat"] as? Double), lon = try #require(object["lon"] as? Double)
            #expect(abs(lat - 40.6) < 2 && abs(lon + 73.8) < 3)
        }
    }

    @Test func anUnwritableOutputFailsWithExitCodeOne() throws {
        let command = try SimulateCommand.parse(["--output", "/nonexistent-dir/s.bin", "--duration", "0.01", "--quiet"])
        #expect(throws: (any Error).self) { try command.run() }
    }

    /// `--test-frames`: the sensitivity signal of `bench --sensitivity`, on the realistic
    /// channel, with a truth line per frame (tests and FRUIT) that matches the samples' length.
    @Test func aTestSignalIsWrittenWithItsTruth() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-sim-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let iq = dir.appendingPathComponent("t.uc8").path, truth = dir.appendingPathComponent("t.jsonl").path
        try SimulateCommand.parse([
            "--output", iq, "--truth", truth, "--test-frames", "50", "--snr", "12", "--channel", "realistic",
            "--fruit-rate", "1000", "--seed", "4", "--quiet",
        ]).run()
        // 51 slots of 400 µs at 2.4 MS/s, uc8.
        #expect(try Data(contentsOf: URL(fileURLWithPath: iq)).count == 51 * 960 * 2)
        let objects = try String(contentsOfFile: truth, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.filter { $0["kind"] as? String == "test" }.count == 50)
        #expect(objects.filter { $0["kind"] as? String == "fruit" }.count > 5)
        for object in objects where object["kind"] as? String == "test" {
            #expect((object["snr"] as? Double) == 12)
            #expect((object["hex"] as? String)?.hasPrefix("8D") == true)
        }
    }
}
