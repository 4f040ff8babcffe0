import Demod
import Foundation
import ModeS

/// One aircraft of the synthetic sky: who it is, where it is and how it moves.
///
/// Motion is a sequence of legs: straight flight, turns at 1.5–3°/s (standard rate is 3°/s),
/// climbs and descents at 500–2500 ft/min towards a new flight level, speed changes of at most
/// 1 kt/s; aircraft that reach the edge of the receiver's range turn back towards it. Surface
/// vehicles taxi at up to 20 kt around an airport, turning at up to 6°/s, and stop now and
/// then.
public struct SimulatedAircraft: Sendable {
    public enum Kind: String, Sendable, Hashable {
        /// Jet airliner: 250–480 kt at FL100–FL400.
        case airliner
        /// Light aircraft: 90–170 kt at 1500–8000 ft.
        case light
        /// On the ground at an airport: 0–20 kt.
        case surface
    }

    public let address: UInt32
    public let callsign: String
    public let squawk: UInt16
    public let category: EmitterCategory
    public let kind: Kind
    /// Transmitter power relative to nominal, dB (transponders differ).
    public let powerOffset: Double
    /// Carrier frequency offset of this transponder, Hz.
    public let frequencyOffset: Double
    /// GNSS height minus barometric altitude, ft.
    public let geometricDelta: Int
    /// Whether the radar interrogates this aircraft.
    public let interrogated: Bool

    public internal(set) var position: Coordinate
    /// Barometric altitude, ft (the airport elevation, 0, on the ground).
    public internal(set) var altitude: Double
    /// Ground speed, kt.
    public internal(set) var groundSpeed: Double
    /// True track, degrees 0..<360.
    public internal(set) var track: Double
    /// ft/min, climbing positive.
    public internal(set) var verticalRate: Double
    /// °/s, right turns positive.
    public internal(set) var turnRate: Double

    public var onGround: Bool { kind == .surface || landed }

    /// Flying to or from an airport (`SimulatedRoute`); nil: the random legs.
    var route: RouteState?
    /// On the runway: before lift-off, after touchdown.
    var landed = false

    // The current leg.
    var targetTrack: Double?
    var legTurnRate: Double = 0
    var targetAltitude: Double
    var climbRate: Double = 0
    var targetSpeed: Double
    var legEnds: Double = 0
    /// Surface vehicles keep to their airport.
    var home: Coordinate
    var motion: SplitMix64

    /// The largest turn rate a kind of aircraft uses, °/s.
    public var maxTurnRate: Double { kind == .surface ? 6 : 3 }

    init(address: UInt32, callsign: String, squawk: UInt16, category: EmitterCategory, kind: Kind,
         powerOffset: Double, frequencyOffset: Double, geometricDelta: Int, interrogated: Bool,
         position: Coordinate, altitude: Double, groundSpeed: Double, track: Double, home: Coordinate, motion: SplitMix64) {
        self.address = address
        self.callsign = callsign
        self.squawk = squawk
        self.category = category
        self.kind = kind
        self.powerOffset = powerOffset
        self.frequencyOffset = frequencyOffset
        self.geometricDelta = geometricDelta
        self.interrogated = interrogated
        self.position = position
        self.altitude = altitude
        self.groundSpeed = groundSpeed
        self.track = track
        self.verticalRate = 0
        self.turnRate = 0
        self.targetAltitude = altitude
        self.targetSpeed = groundSpeed
        self.home = home
        self.motion = motion
    }

    /// Where the aircraft will be `seconds` from now if it keeps its track, speed and
    /// vertical rate (for frames sent between two motion steps).
    public func extrapolated(by seconds: Double) -> (position: Coordinate, altitude: Double) {
        let km = groundSpeed * SkyGeodesy.kmPerNM * seconds / 3600
        let position = km > 0 ? SkyGeodesy.destination(from: position, bearing: track, km: km) : position
        return (position, altitude + verticalRate * seconds / 60)
    }

    /// Moves the aircraft `dt` seconds on; `now` is the time at the start of the step.
    mutating func advance(by dt: Double, now: Double, receiver: Coordinate, maxRange: Double) {
        if route != nil {
            advanceOnRoute(by: dt, now: now)
            return
        }
        if now >= legEnds { planLeg(now: now, receiver: receiver, maxRange: maxRange) }
        // Turn towards the leg's track.
        if let target = targetTrack {
            let remaining = SkyGeodesy.difference(from: track, to: target)
            let step = abs(legTurnRate) * dt
            if abs(remaining) <= step {
                track = SkyGeodesy.normalize(target)
                targetTrack = nil
                turnRate = 0
            } else {
                turnRate = remaining > 0 ? abs(legTurnRate) : -abs(legTurnRate)
                track = SkyGeodesy.normalize(track + turnRate * dt)
            }
        } else {
            turnRate = 0
        }
        // Speed: at most 1 kt/s (2 kt/s on the ground).
        let acceleration = (kind == .surface ? 2.0 : 1.0) * dt
        groundSpeed += min(max(targetSpeed - groundSpeed, -acceleration), acceleration)
        // Climb or descend to the target altitude.
        let toGo = targetAltitude - altitude
        let climb = climbRate * dt / 60
        if abs(toGo) <= climb || climb == 0 {
            altitude = kind == .surface ? altitude : targetAltitude
            verticalRate = 0
        } else {
            verticalRate = toGo > 0 ? climbRate : -climbRate
            altitude += verticalRate * dt / 60
        }
        let km = groundSpeed * SkyGeodesy.kmPerNM * dt / 3600
        if km > 0 { position = SkyGeodesy.destination(from: position, bearing: track, km: km) }
    }

    /// Chooses the next leg: a turn back when near the edge of the area, else a straight leg
    /// or a turn, sometimes a new level or speed.
    private mutating func planLeg(now: Double, receiver: Coordinate, maxRange: Double) {
        let center = kind == .surface ? home : receiver
        let limit = kind == .surface ? 2.0 : (kind == .light ? min(80, maxRange) : maxRange) * 0.9
        let distance = SkyGeodesy.distance(position, center)
        let inward = SkyGeodesy.bearing(from: position, to: center)
        if kind == .surface {
            planSurfaceLeg(now: now, distance: distance, limit: limit, inward: inward)
            return
        }
        if distance > limit, abs(SkyGeodesy.difference(from: track, to: inward)) > 45 {
            targetTrack = SkyGeodesy.normalize(inward + motion.uniform(-30...30))
            legTurnRate = motion.uniform(2...3)
            legEnds = now + 60
        } else if motion.unit() < 0.5 {
            targetTrack = nil
            legEnds = now + motion.uniform(20...90)
        } else {
            let change = motion.uniform(20...110) * (motion.unit() < 0.5 ? -1 : 1)
            targetTrack = SkyGeodesy.normalize(track + change)
            legTurnRate = motion.uniform(1.5...3)
            legEnds = now + abs(change) / legTurnRate + motion.uniform(10...40)
        }
        if motion.unit() < 0.3 {
            switch kind {
            case .airliner:
                targetAltitude = 100 * (100 + (motion.next() % 301)).double   // FL100–FL400
                climbRate = motion.uniform(1000...2500)
            default:
                targetAltitude = 500 * (3 + (motion.next() % 14)).double       // 1500–8000 ft
                climbRate = motion.uniform(500...1000)
            }
        }
        targetSpeed = SimulatedAircraft.cruiseSpeed(kind: kind, altitude: targetAltitude, jitter: motion.uniform(-20...20))
    }

    private mutating func planSurfaceLeg(now: Double, distance: Double, limit: Double, inward: Double) {
        if distance > limit {
            targetTrack = inward
            legTurnRate = 5
            targetSpeed = 12
            legEnds = now + 40
            return
        }
        let choice = motion.unit()
        if choice < 0.25 {
            targetSpeed = 0
            targetTrack = nil
            legEnds = now + motion.uniform(5...30)
        } else if choice < 0.6 {
            targetSpeed = motion.uniform(8...20)
            targetTrack = nil
            legEnds = now + motion.uniform(10...40)
        } else {
            targetSpeed = motion.uniform(5...12)
            targetTrack = SkyGeodesy.normalize(track + (motion.unit() < 0.5 ? -90 : 90))
            legTurnRate = motion.uniform(3...6)
            legEnds = now + 90 / legTurnRate + motion.uniform(5...20)
        }
    }

    /// A plausible cruise ground speed for a kind of aircraft at an altitude, kt.
    static func cruiseSpeed(kind: Kind, altitude: Double, jitter: Double) -> Double {
        switch kind {
        case .airliner: min(max(250 + (altitude - 10_000) / 30_000 * 200 + jitter, 250), 480)
        case .light: min(max(130 + jitter * 2, 90), 170)
        case .surface: 0
        }
    }
}

extension UInt64 {
    fileprivate var double: Double { Double(self) }
}
