import Demod
import Feeds
import Foundation
import ModeS
import Radio
import Testing
import Tracking
import Web
@testable import FlyTrackerCLI

/// Every output a decoded field reaches, on the real recording and on the simulator, held
/// byte for byte to the files in `Golden/`: `aircraft.json` each second of a replay, the
/// `/api/aircraft` document at its end, the SBS line of every frame (with the position the
/// frame gave), and `flytracker decode`'s JSON Lines of both sample frame files. Written
/// before the field model is rebuilt (issue 24) and kept after it: a key renamed, dropped or
/// formatted differently fails here. When an output changes on purpose, write the files anew
/// with `FLYTRACKER_WRITE_GOLDEN=1 swift test --filter GoldenOutputTests` and read the diff.
@Suite(.serialized) struct GoldenOutputTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let directory = here.appendingPathComponent("Golden")
    static let samples = here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")
    /// Table time of the first sample (Unix seconds, 2026-09-21 14:13:20 UTC).
    static let epoch = 1_790_000_000.0

    /// Compares `text` with the golden file `name` (or writes it), naming the first line that differs.
    func check(_ name: String, _ text: String) throws {
        let url = Self.directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["FLYTRACKER_WRITE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if expected == text { return }
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, (w, g)) in zip(want, got).enumerated() where w != g {
            Issue.record("\(name), line \(i + 1):\nexpected \(w)\ngot      \(g)")
            return
        }
        Issue.record("\(name): \(want.count) lines expected, \(got.count) written")
    }

    /// An SBS time from Unix seconds in UTC (the output prints local time; the files must
    /// not depend on the machine's time zone).
    static func utc(_ seconds: Double) -> SBSTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: seconds)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let ms = Int(((seconds - seconds.rounded(.down)) * 1000).rounded(.down))
        return SBSTime(year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!, second: c.second!, millisecond: ms)
    }

    @Test("aircraft.json each second, /api/aircraft and the SBS lines of a replay are as the golden files hold",
          arguments: ["modes1-2m4.bin", "sim-2m4-uc8.bin"])
    func replayOutputs(_ file: String) async throws {
        let source = try IQFileSource(path: Self.samples.appendingPathComponent(file).path, format: .uc8, sampleRate: .rate2_4)
        var loop = ReceiverLoop(sampleRate: .rate2_4, epoch: Self.epoch)
        var frames: [DemodulatedFrame] = []
        var documents: [String] = []
        var end = Self.epoch
        let outcome = await loop.run(source: source, frame: { frames.append($0) }, periodic: { loop, _, now in
            documents.append(AircraftJSON.document(loop.table.snapshot(at: now), now: now))
            end = now
        })
        guard case .success = outcome else { Issue.record("\(file): \(outcome)"); return }
        #expect(frames.count > 100, "the replay decoded frames")
        let snapshot = loop.table.snapshot(at: end)
        #expect(snapshot.count > 0)
        let name = file.replacingOccurrences(of: ".bin", with: "")
        try check("\(name)-aircraft.json", documents.joined(separator: "\n") + "\n")
        try check("\(name)-api-aircraft.json", APIDocuments.aircraftList(snapshot, matching: AircraftQueryParameters(), now: end) + "\n")

        // The SBS output: every frame through a table of its own, as the receiver publishes it.
        var table = AircraftTable()
        var sbs = ""
        for f in frames {
            let message = ModeSMessage(f.parity)
            let time = Self.epoch + Double(f.received.timestamp) / ReceivedFrame.ticksPerSecond
            table.apply(message, received: f.received, at: time)
            let position = table.position(givenBy: message, at: time).map { (lat: $0.latitude, lon: $0.longitude) }
            let t = Self.utc(time)
            if let line = SBSLine.format(message, position: position, generated: t, logged: t) { sbs += line }
        }
        try check("\(name)-sbs.txt", sbs)
    }

    @Test("flytracker decode's JSON Lines of the sample frame files are as the golden files hold",
          arguments: ["modes1-frames.avr", "realworld-frames.txt"])
    func decodeOutput(_ file: String) throws {
        let text = try String(contentsOf: Self.samples.appendingPathComponent(file), encoding: .utf8)
        var session = DecodeSession()
        var out = ""
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do {
                if let fields = try session.decode(line: line) { out += fields.json + "\n" }
            } catch {
                out += "line \(n + 1): \(error)\n"
            }
        }
        try check(file.split(separator: ".")[0] + "-decode.jsonl", out)
    }
}
