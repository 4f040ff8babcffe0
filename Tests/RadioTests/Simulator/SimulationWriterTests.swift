import Foundation
import Testing
import Demod
@testable import Radio

/// `flytracker simulate`'s writer: file sizes, one truth line per frame, clear errors.
struct SimulationWriterTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesTheRecordingAndOneTruthLinePerFrame() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let iq = dir.appendingPathComponent("sim.bin").path, truth = dir.appendingPathComponent("sim.jsonl").path
        let configuration = SkyConfiguration(seed: 21, aircraftCount: 25, sampleRate: .rate2_4, format: .sc16q11)
        let summary = try SimulationWriter.write(configuration: configuration, duration: 0.25, iqPath: iq, truthPath: truth)
        #expect(summary.samples == 600_000)
        #expect(abs(summary.seconds - 0.25) < 1e-9)
        #expect(try Data(contentsOf: URL(fileURLWithPath: iq)).count == 600_000 * 4)
        let lines = try String(contentsOfFile: truth, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == summary.frames)
        #expect(summary.framesByDF.values.reduce(0, +) == summary.frames)
        #expect(summary.framesByDF[17, default: 0] > summary.framesByDF[11, default: 0])
        for line in lines { #expect(TruthRecord(jsonLine: line, sampleRate: .rate2_4) != nil) }
    }

    @Test func anUnwritablePathIsAClearError() throws {
        let configuration = SkyConfiguration(seed: 1, aircraftCount: 1)
        #expect(throws: SimulationWriteError.cannotWrite(path: "/nonexistent-dir/x.bin", reason: "No such file or directory")) {
            try SimulationWriter.write(configuration: configuration, duration: 0.01, iqPath: "/nonexistent-dir/x.bin", truthPath: nil)
        }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try SimulationWriter.write(configuration: configuration, duration: 0.01,
                                           iqPath: dir.appendingPathComponent("ok.bin").path, truthPath: dir.path)
            Issue.record("writing the truth to a directory succeeded")
        } catch {
            #expect(error.description == "cannot write \(dir.path): Is a directory")
        }
    }
}
