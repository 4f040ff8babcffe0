import Foundation
import Testing
import Demod
import ModeS
@testable import Radio

/// The synthetic sky: message rates per kind, plausible motion, frames that carry the truth,
/// level spread and determinism.
struct SkyTests {
    /// Runs a sky for `seconds`, returning every frame and the aircraft after each step.
    static func run(_ configuration: SkyConfiguration, seconds: Double,
                    observe: (Sky) -> Void = { _ in }) -> (sky: Sky, frames: [SkyFrame]) {
        var sky = Sky(configuration: configuration)
        var frames: [SkyFrame] = []
        observe(sky)
        while sky.time < seconds - 1e-9 {
            frames += sky.advance()
            observe(sky)
        }
        return (sky, frames)
    }

    @Test func messageRatesMatchRealTransponders() throws {
        let configuration = SkyConfiguration(seed: 1, aircraftCount: 30)
        let (sky, frames) = Self.run(configuration, seconds: 60)
        var counts: [UInt32: [SimulatedMessage: Int]] = [:]
        for f in frames { counts[f.address, default: [:]][f.kind, default: 0] += 1 }
        let airborne = sky.aircraft.filter { !$0.onGround }
        #expect(airborne.count >= 20)
        for plane in airborne {
            let c = counts[plane.address] ?? [:]
            // Positions and velocity: every 0.4–0.6 s, about 120 a minute.
            #expect((112...128).contains(c[.airbornePosition] ?? 0), "\(plane.callsign) positions \(c[.airbornePosition] ?? 0)")
            #expect((112...128).contains(c[.velocity] ?? 0), "\(plane.callsign) velocity")
            // Identification every 4.8–5.2 s: 12 a minute; operational status every 2.4–2.6 s: 24.
            #expect((11...13).contains(c[.identification] ?? 0), "\(plane.callsign) identification")
            #expect((23...25).contains(c[.operationalStatus] ?? 0), "\(plane.callsign) status")
            // DF11 acquisition squitters every 0.8–1.2 s: 60.
            #expect((56...64).contains(c[.allCall] ?? 0), "\(plane.callsign) DF11")
            #expect(c[.surfacePosition] == nil)
            // Radar replies: one DF4/DF5 per sweep (4.8 s: 12–13 a minute) when interrogated.
            let replies = (c[.altitudeReply] ?? 0) + (c[.identityReply] ?? 0)
            #expect(plane.interrogated ? (12...13).contains(replies) : replies == 0, "\(plane.callsign) replies \(replies)")
            let commB = (c[.commBAltitude] ?? 0) + (c[.commBIdentity] ?? 0)
            #expect(commB <= replies)
        }
        for plane in sky.aircraft where plane.onGround {
            let c = counts[plane.address] ?? [:]
            #expect(c[.airbornePosition] == nil && c[.velocity] == nil && c[.operationalStatus] == nil)
            #expect((12...128).contains(c[.surfacePosition] ?? 0))
        }
        // Comm-B follows about 60 % of the replies, with all three registers.
        let replies = frames.filter { $0.kind == .altitudeReply || $0.kind == .identityReply }.count
        let commB = frames.filter { $0.kind == .commBAltitude || $0.kind == .commBIdentity }
        #expect(abs(Double(commB.count) / Double(replies) - 0.6) < 0.12)
        #expect(Set(commB.compactMap(\.register)) == [BDS(2, 0), BDS(5, 0), BDS(6, 0)])
    }

    @Test func positionMessagesAlternateEvenAndOdd() {
        let (_, frames) = Self.run(SkyConfiguration(seed: 2, aircraftCount: 10), seconds: 10)
        var last: [UInt32: Bool] = [:]
        for f in frames where f.kind == .airbornePosition || f.kind == .surfacePosition {
            let odd = f.frame.bit(54)
            if let previous = last[f.address] { #expect(previous != odd) }
            last[f.address] = odd
        }
        #expect(last.count >= 9)
    }

    @Test func oneAircraftNeverTransmitsTwoFramesAtOnce() {
        let (_, frames) = Self.run(SkyConfiguration(seed: 3, aircraftCount: 20), seconds: 20)
        var end: [UInt32: UInt64] = [:]
        for f in frames.sorted(by: { $0.transmission.startTick < $1.transmission.startTick }) {
            if let previous = end[f.address] { #expect(f.transmission.startTick > previous) }
            end[f.address] = f.transmission.startTick + f.transmission.durationTicks
        }
    }

    @Test func aircraftMovePlausibly() {
        let configuration = SkyConfiguration(seed: 4, aircraftCount: 30)
        var previous: [SimulatedAircraft] = []
        var checked = 0
        _ = Self.run(configuration, seconds: 120) { sky in
            defer { previous = sky.aircraft }
            guard previous.count == sky.aircraft.count else { return }
            for (before, now) in zip(previous, sky.aircraft) {
                let dt = Sky.step
                let moved = SkyGeodesy.distance(before.position, now.position) / SkyGeodesy.kmPerNM * 3600 / dt
                // Distance flown agrees with the ground speed (kt) it had.
                #expect(abs(moved - before.groundSpeed) < max(2, 0.02 * before.groundSpeed) + abs(now.groundSpeed - before.groundSpeed))
                #expect(abs(SkyGeodesy.difference(from: before.track, to: now.track)) / dt <= now.maxTurnRate + 1e-6)
                #expect(abs(now.altitude - before.altitude) / dt * 60 <= 2500 + 1e-6)
                #expect(abs(now.groundSpeed - before.groundSpeed) / dt <= 2 + 1e-6)
                switch now.kind {
                case .airliner:
                    #expect((230...480).contains(now.groundSpeed) && (10_000...40_000).contains(now.altitude))
                    #expect(SkyGeodesy.distance(configuration.receiver, now.position) < configuration.maxRange * 1.1)
                case .light:
                    #expect((90...170).contains(now.groundSpeed) && (1500...8000).contains(now.altitude))
                case .surface:
                    #expect((0...20).contains(now.groundSpeed) && now.altitude == 0)
                    #expect(SkyGeodesy.distance(sky.airport, now.position) < 3)
                }
                checked += 1
            }
        }
        #expect(checked == 30 * 1200)
    }

    @Test func framesCarryTheAircraftsTruePositionAndAltitude() throws {
        let configuration = SkyConfiguration(seed: 5, aircraftCount: 20)
        let (sky, frames) = Self.run(configuration, seconds: 5)
        let byAddress = Dictionary(uniqueKeysWithValues: sky.aircraft.map { ($0.address, $0) })
        for f in frames {
            let message = try #require(ModeSMessage.decode(f.frame))
            #expect(message.address == f.address)
            #expect(f.frame.downlinkFormat == f.kind.downlinkFormat)
            let fields = message.fields
            switch f.kind {
            case .airbornePosition:
                let position = try #require(AirbornePosition(f.frame.messageField))
                let decoded = try #require(CPR.localAirborne(position.cpr, reference: configuration.receiver))
                #expect(SkyGeodesy.distance(decoded, f.position) < 0.02)
                #expect(abs(Double(position.baroAltitude ?? -99_999) - f.altitude) <= 12.5)
            case .surfacePosition:
                let position = try #require(SurfacePosition(f.frame.messageField))
                let decoded = try #require(CPR.localSurface(position.cpr, reference: sky.airport))
                #expect(SkyGeodesy.distance(decoded, f.position) < 0.01)
            case .identification:
                #expect(fields.flight == byAddress[f.address]?.callsign)
            case .identityReply, .commBIdentity:
                #expect(fields.squawk == byAddress[f.address]?.squawk)
            case .altitudeReply, .commBAltitude:
                #expect(abs(Double(fields.altBaro ?? -99_999) - f.altitude) <= 12.5)
            default: break
            }
        }
    }

    @Test func levelsSpreadOverTheConfiguredRange() {
        let configuration = SkyConfiguration(seed: 6, aircraftCount: 40)
        let (_, frames) = Self.run(configuration, seconds: 3)
        let levels = frames.map(\.levelDBFS)
        #expect(levels.allSatisfy { (-30.0 ... -3.0).contains($0) })
        #expect(levels.min()! < -24 && levels.max()! > -12)
        let phases = frames.map(\.transmission.phase)
        #expect(phases.allSatisfy { (0...(2 * Double.pi)).contains($0) })
        #expect(frames.allSatisfy { abs($0.transmission.frequencyOffset) <= 31_000 })
    }

    @Test func theSameSeedGivesTheSameSky() {
        let a = Self.run(SkyConfiguration(seed: 7, aircraftCount: 15), seconds: 5).frames
        let b = Self.run(SkyConfiguration(seed: 7, aircraftCount: 15), seconds: 5).frames
        let c = Self.run(SkyConfiguration(seed: 8, aircraftCount: 15), seconds: 5).frames
        #expect(a == b)
        #expect(a.map(\.frame) != c.map(\.frame))
    }

    @Test func addressesAndCallsignsAreValidAndUnique() {
        let sky = Sky(configuration: SkyConfiguration(seed: 9, aircraftCount: 200))
        #expect(Set(sky.aircraft.map(\.address)).count == 200)
        for plane in sky.aircraft {
            #expect(plane.address != 0 && plane.address <= 0xFF_FFFF)
            #expect(Callsign.encode(plane.callsign) != nil, "\(plane.callsign)")
            #expect(plane.squawk <= 0o7777)
        }
        #expect(sky.aircraft[0].kind == .airliner)
        #expect(Set(sky.aircraft.map(\.kind)) == [.airliner, .light, .surface])
    }
}
