import Demod
import Foundation
import ModeS

/// The synthetic sky: aircraft moving around the receiver and the frames they send, in
/// steps of 0.1 s of simulated time.
///
/// Squitters follow their own randomised schedules (`SimulatedMessage`); a radar rotating
/// once every `radarPeriod` seconds interrogates about three aircraft in four as its beam
/// passes them, and each answers with a DF4 or DF5 reply and, six times in ten, a DF20/21
/// Comm-B reply a few milliseconds later (BDS 2,0, 5,0 or 6,0). One aircraft never sends two
/// frames at once (a frame due while the previous is still on the air waits for it);
/// different aircraft overlap freely. Levels fall with distance (free-space loss) from
/// `levels.upperBound` near the receiver to `levels.lowerBound` at `maxRange`, shifted by each
/// transponder's power (±3 dB), 12 dB lower on the ground, ±0.5 dB per frame, clamped to
/// `levels`. Each frame gets a random carrier phase and the aircraft's frequency offset
/// ±1 kHz, and on the band-limited channel a random start between 12 MHz ticks.
///
/// Everything is drawn from generators seeded by the configuration, and the schedule does not
/// depend on how the output is consumed: the same seed gives the same sky.
public struct Sky: Sendable {
    public let configuration: SkyConfiguration
    public private(set) var aircraft: [SimulatedAircraft]
    /// The airport of the surface traffic.
    public let airport: Coordinate
    /// Steps generated so far; `time` is where the next one starts.
    public private(set) var stepCount: Int = 0
    /// Length of a step, s.
    public static let step = 0.1

    /// Seconds of sky generated so far.
    public var time: Double { Double(stepCount) * Sky.step }

    private var rng: SplitMix64
    /// Per aircraft: when each squitter is next due, s (indexed like `SimulatedMessage.squitters`).
    private var due: [[Double]]
    /// Per aircraft: the CPR format of the next position message.
    private var nextFormat: [CPRFormat]
    /// Per aircraft: the end of its last transmission, s.
    private var busyUntil: [Double]
    private var sequence = 0
    /// Reference distance of the level law, km: `levels.upperBound` at this distance.
    private let referenceDistance: Double
    /// Radar azimuth at time 0, degrees.
    private let radarOffset: Double

    public init(configuration: SkyConfiguration) {
        self.configuration = configuration
        var rng = SplitMix64(seed: configuration.seed ^ 0x5EED_5EED_0000_0001)
        airport = SkyGeodesy.destination(from: configuration.receiver, bearing: rng.uniform(0...360), km: rng.uniform(5...15))
        var used = Set<UInt32>()
        var aircraft: [SimulatedAircraft] = []
        for index in 0..<configuration.aircraftCount {
            aircraft.append(SimulatedAircraft.make(index: index, configuration: configuration, airport: airport,
                                                   rng: &rng, usedAddresses: &used))
        }
        for route in configuration.routes {
            for i in 0..<route.arrivals {
                aircraft.append(SimulatedAircraft.make(route: route, arrival: true, index: i, rng: &rng, usedAddresses: &used))
            }
            for i in 0..<route.departures {
                aircraft.append(SimulatedAircraft.make(route: route, arrival: false, index: i, rng: &rng, usedAddresses: &used))
            }
        }
        self.aircraft = aircraft
        due = aircraft.map { plane in
            SimulatedMessage.squitters.map { kind in
                Sky.interval(kind, aircraft: plane, rng: &rng).map { rng.unit() * $0 } ?? .infinity
            }
        }
        nextFormat = aircraft.map { _ in rng.unit() < 0.5 ? .even : .odd }
        busyUntil = aircraft.map { _ in -1 }
        let span = configuration.levels.upperBound - configuration.levels.lowerBound
        referenceDistance = configuration.maxRange / pow(10, max(span, 0) / 20)
        radarOffset = rng.uniform(0...360)
        self.rng = rng
    }

    /// Whether the aircraft sends a kind of squitter in its present state (on the ground or
    /// airborne).
    static func sends(_ kind: SimulatedMessage, aircraft: SimulatedAircraft) -> Bool {
        switch kind {
        case .airbornePosition, .velocity, .operationalStatus: !aircraft.onGround
        case .surfacePosition: aircraft.onGround
        case .identification, .allCall: true
        default: false
        }
    }

    /// The time to the next squitter of a kind (nil: the aircraft does not send it).
    static func interval(_ kind: SimulatedMessage, aircraft: SimulatedAircraft, rng: inout SplitMix64) -> Double? {
        let moving = aircraft.groundSpeed > 0.5
        switch kind {
        case .airbornePosition, .velocity: return aircraft.onGround ? nil : rng.uniform(0.4...0.6)
        case .surfacePosition: return aircraft.onGround ? (moving ? rng.uniform(0.4...0.6) : rng.uniform(4.8...5.2)) : nil
        case .identification: return aircraft.onGround && !moving ? rng.uniform(9.8...10.2) : rng.uniform(4.8...5.2)
        case .operationalStatus: return aircraft.onGround ? nil : rng.uniform(2.4...2.6)
        case .allCall: return rng.uniform(0.8...1.2)
        default: return nil
        }
    }

    /// The level of a frame from an aircraft at `position` (dBFS), before the per-frame jitter.
    public func level(of aircraft: SimulatedAircraft, at position: Coordinate, altitude: Double) -> Double {
        let ground = SkyGeodesy.distance(configuration.receiver, position)
        let height = max(altitude, 0) / SkyGeodesy.feetPerKm
        let slant = max((ground * ground + height * height).squareRoot(), 0.1)
        var level = configuration.levels.upperBound - 20 * log10(slant / referenceDistance) + aircraft.powerOffset
        if aircraft.onGround { level -= 12 }
        return level
    }

    /// Generates the next step: the frames that start in it (a few may start just after it,
    /// waiting for their aircraft's previous frame), in start order, then moves the aircraft on.
    public mutating func advance() -> [SkyFrame] {
        let start = time
        let end = Double(stepCount + 1) * Sky.step
        var frames: [SkyFrame] = []
        for index in aircraft.indices {
            var events: [(time: Double, kind: SimulatedMessage, register: BDS?)] = []
            for (k, kind) in SimulatedMessage.squitters.enumerated() {
                // Landed or lifted off: squitters of the new state start (a random phase).
                if due[index][k] == .infinity, aircraft[index].route != nil, Sky.sends(kind, aircraft: aircraft[index]),
                   let interval = Sky.interval(kind, aircraft: aircraft[index], rng: &rng) {
                    due[index][k] = start + rng.unit() * interval
                }
                while due[index][k] < end {
                    events.append((due[index][k], kind, nil))
                    due[index][k] += Sky.interval(kind, aircraft: aircraft[index], rng: &rng) ?? .infinity
                }
            }
            if configuration.interrogations, aircraft[index].interrogated, let hit = beamHit(index, from: start, to: end) {
                let reply: SimulatedMessage = rng.unit() < 0.6 ? .altitudeReply : .identityReply
                events.append((hit, reply, nil))
                if rng.unit() < 0.6 {
                    let registers = [BDS(2, 0), BDS(5, 0), BDS(6, 0)]
                    let register = registers[Int(rng.next() % 3)]
                    let commB: SimulatedMessage = reply == .altitudeReply ? .commBAltitude : .commBIdentity
                    events.append((hit + rng.uniform(0.002...0.008), commB, register))
                }
            }
            events.sort { $0.time < $1.time }
            for event in events {
                if let frame = makeFrame(index, event.kind, register: event.register, at: event.time, stepStart: start) {
                    frames.append(frame)
                }
            }
            aircraft[index].advance(by: Sky.step, now: start, receiver: configuration.receiver, maxRange: configuration.maxRange)
        }
        stepCount += 1
        frames.sort { ($0.transmission.startTick, $0.sequence) < ($1.transmission.startTick, $1.sequence) }
        return frames
    }

    /// When the radar beam crosses the aircraft's azimuth within [from, to), if it does.
    private func beamHit(_ index: Int, from: Double, to: Double) -> Double? {
        let azimuth = SkyGeodesy.bearing(from: configuration.receiver, to: aircraft[index].position)
        let period = configuration.radarPeriod
        // Beam angle at t: radarOffset + 360·t/period. Times when it equals the azimuth:
        // t = (azimuth − radarOffset)/360·period + k·period.
        let phase = SkyGeodesy.normalize(azimuth - radarOffset) / 360 * period
        let k = ((from - phase) / period).rounded(.up)
        let hit = phase + k * period
        return hit >= from && hit < to ? hit : nil
    }

    /// Builds one frame of aircraft `index` due at `time`, after its previous transmission.
    private mutating func makeFrame(_ index: Int, _ kind: SimulatedMessage, register: BDS?, at due: Double, stepStart: Double) -> SkyFrame? {
        let plane = aircraft[index]
        let time = max(due, busyUntil[index] + 10e-6)
        let (position, altitude) = plane.extrapolated(by: time - stepStart)
        var format = CPRFormat.even
        if kind == .airbornePosition || kind == .surfacePosition {
            format = nextFormat[index]
            nextFormat[index] = format == .even ? .odd : .even
        }
        guard let frame = plane.frame(kind, position: position, altitude: altitude, cprFormat: format,
                                      register: register ?? BDS(2, 0)) else { return nil }
        let startTick = UInt64((time * 12_000_000).rounded())
        let level = min(max(level(of: plane, at: position, altitude: altitude) + rng.uniform(-0.5...0.5),
                            configuration.levels.lowerBound), configuration.levels.upperBound)
        var transmission = Transmission(
            frame: frame, startTick: startTick, levelDBFS: level, phase: rng.uniform(0...(2 * .pi)),
            frequencyOffset: plane.frequencyOffset + rng.uniform(-1000...1000))
        // Only the band-limited channel renders between ticks (and only it draws, so the
        // ideal channel's sky stays as it was).
        if configuration.channel.bandLimited { transmission.subTick = rng.unit() }
        busyUntil[index] = Double(startTick + transmission.durationTicks) / 12_000_000
        sequence += 1
        return SkyFrame(transmission: transmission, kind: kind, register: kind.downlinkFormat >= 20 ? register : nil,
                        address: plane.address, time: Double(startTick) / 12_000_000, position: position,
                        altitude: altitude, sequence: sequence)
    }
}
