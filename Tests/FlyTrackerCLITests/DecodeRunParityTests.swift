import Demod
import Feeds
import Foundation
import ModeS
import Radio
import Testing
import Tracking
@testable import FlyTrackerCLI

/// `decode` and `run` give the same positions for the same frames at the same times (issue
/// 24): `decode`'s session and `run`'s table (each frame applied as the receiver applies it)
/// are one engine. Checked on the real recording's frames, a replay of the simulator's
/// recording and a simulated sky of several minutes with airport traffic on the ground.
struct DecodeRunParityTests {
    struct Outcome {
        var positionMessages = 0
        var positions = 0
        var mismatches: [String] = []
    }

    /// Every frame through `decode`'s session (configured as `run`: the same receiver, its
    /// 300 NM range) and through a table as `ReceiverLoop` applies it; the positions of each
    /// position message compared.
    static func compare(_ frames: [(ReceivedFrame, Double)], receiver: Coordinate?) -> Outcome {
        var session = DecodeSession(reference: receiver, maxRange: TableConfiguration().maxRange)
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver))
        var outcome = Outcome()
        for (n, (received, time)) in frames.enumerated() {
            let decoded = try? session.decode(received, time: time)
            guard let message = ModeSMessage.decode(received.frame) else { continue }
            table.apply(message, received: received, at: time)
            guard case .extendedSquitter(let es) = message.content else { continue }
            switch es.message {
            case .airbornePosition?, .surfacePosition?: break
            default: continue
            }
            outcome.positionMessages += 1
            let run = table.position(givenBy: message, at: time)
            let decode = decoded?.lat.flatMap { lat in decoded?.lon.map { Coordinate(latitude: lat, longitude: $0) } }
            if run != nil { outcome.positions += 1 }
            if run != decode { outcome.mismatches.append("frame \(n) (\(String(message.address, radix: 16))): run \(String(describing: run)), decode \(String(describing: decode))") }
        }
        return outcome
    }

    static let samples = GoldenOutputTests.samples

    @Test("the real recording's frames give the same positions, including those run's speed check rejects")
    func realFrames() throws {
        let text = try String(contentsOf: Self.samples.appendingPathComponent("modes1-frames.avr"), encoding: .utf8)
        let frames = try text.split(separator: "\n").compactMap { line in
            try AVRLine.parse(line).map { ($0, $0.seconds ?? 0) }
        }
        let outcome = Self.compare(frames, receiver: nil)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches.prefix(5))")
        #expect(outcome.positions >= 70)
        // The recording packs minutes of flight into 0.18 s of samples: some pairs move the
        // aircraft faster than it can fly, and both commands refuse them.
        #expect(outcome.positions < outcome.positionMessages)
    }

    @Test("a replay of the simulator's recording gives the same positions")
    func simulatedRecording() async throws {
        let source = try IQFileSource(path: Self.samples.appendingPathComponent("sim-2m4-uc8.bin").path, format: .uc8, sampleRate: .rate2_4)
        var loop = ReceiverLoop(sampleRate: .rate2_4, epoch: 0)
        var frames: [(ReceivedFrame, Double)] = []
        // The receiver's table time of a frame (its epoch is 0 here).
        _ = await loop.run(source: source, frame: { frames.append(($0.received, Double($0.received.timestamp) / ReceivedFrame.ticksPerSecond)) },
                           periodic: { _, _, _ in })
        let outcome = Self.compare(frames, receiver: SkyConfiguration.defaultReceiver)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches.prefix(5))")
        #expect(outcome.positions >= 30)
    }

    @Test("five minutes of a simulated sky, airborne and on the ground, give the same positions")
    func simulatedSky() throws {
        var configuration = SkyConfiguration(seed: 24, aircraftCount: 40, snr: nil)
        configuration.routes = try RouteOptions.routes(arrivals: ["EHAM:4"], departures: ["EHAM:4"], runway: 240)
        var sky = Sky(configuration: configuration)
        var frames: [(ReceivedFrame, Double)] = []
        while sky.time < 300 {
            for f in sky.advance() { frames.append((ReceivedFrame(frame: f.frame), f.time)) }
        }
        let outcome = Self.compare(frames, receiver: configuration.receiver)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches.prefix(5))")
        #expect(outcome.positions > outcome.positionMessages / 2)
    }
}
