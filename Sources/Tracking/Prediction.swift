import Foundation
import ModeS

/// When an aircraft will be closest to a place, and when it will land at an airport: dead
/// reckoning on the sphere from its last position, track and ground speed (`MotionState`).
///
/// Closest approach: along the great circle of its track (exact spherical along-track and
/// cross-track distances, no flat-earth step), or around the small circle of its reported
/// turn rate (searched numerically over one revolution, then refined). Arrival: see
/// `arrival(_:at:elevation:)`. How good the estimates are is measured in the README.
public enum Prediction {
    /// The point of closest approach to a place.
    public struct Approach: Sendable, Equatable {
        /// Unix seconds when the aircraft is closest (the state's own time when it is moving
        /// away already).
        public var time: Double
        /// Great-circle distance then, NM.
        public var distance: Double
        /// Where the aircraft is then.
        public var point: Coordinate
        /// Whether the closest point is still ahead (false: moving away, or circling at its
        /// closest now).
        public var isAhead: Bool
    }

    /// An estimated landing at an airport.
    public struct Arrival: Sendable, Equatable {
        /// Unix seconds of the estimated touchdown.
        public var time: Double
        /// Great-circle distance to the airport now, NM.
        public var distance: Double
    }

    /// The closest approach to `place` within `horizon` seconds of the state's time, or nil
    /// when the aircraft does not move.
    public static func closestApproach(_ m: MotionState, to place: Coordinate, horizon: Double = 7200) -> Approach? {
        guard m.groundSpeed > 0, m.groundSpeed.isFinite, horizon > 0 else { return nil }
        if m.isTurning, m.turn != nil { return turningApproach(m, to: place, horizon: horizon) }
        let r = Geodesy.earthRadiusNM
        let d13 = Geodesy.distance(m.position, place) / r
        let relative = (Geodesy.bearing(from: m.position, to: place) - m.track) * .pi / 180
        // Already moving away: closest now.
        guard cos(relative) > 0, d13 > 0 else {
            return Approach(time: m.time, distance: d13 * r, point: m.position, isAhead: false)
        }
        let crossTrack = asin(max(-1, min(1, sin(d13) * sin(relative))))
        let alongTrack = acos(max(-1, min(1, cos(d13) / cos(crossTrack))))
        let seconds = min(alongTrack * r / m.groundSpeed * 3600, horizon)
        let point = m.position(after: seconds)
        return Approach(time: m.time + seconds, distance: Geodesy.distance(point, place), point: point, isAhead: seconds > 0)
    }

    /// Closest approach around a turn: the distance sampled every 2° of the turn over one
    /// revolution (or the horizon), the best sample refined by golden-section search.
    static func turningApproach(_ m: MotionState, to place: Coordinate, horizon: Double) -> Approach? {
        guard let rate = m.turnRate else { return nil }
        let revolution = 360 / abs(rate)
        let span = min(horizon, revolution)
        let step = min(2 / abs(rate), span)
        func distance(_ t: Double) -> Double { Geodesy.distance(m.position(after: t), place) }
        var best = (t: 0.0, d: distance(0))
        var t = step
        while t <= span + 1e-9 {
            let d = distance(t)
            if d < best.d - 1e-9 { best = (t, d) }
            t += step
        }
        var lo = max(0, best.t - step), hi = min(span, best.t + step)
        let g = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 where hi - lo > 0.01 {
            let a = hi - g * (hi - lo), b = lo + g * (hi - lo)
            if distance(a) < distance(b) { hi = b } else { lo = a }
        }
        let seconds = (lo + hi) / 2
        let point = m.position(after: seconds)
        return Approach(time: m.time + seconds, distance: Geodesy.distance(point, place), point: point, isAhead: seconds > 0.5)
    }

    /// Track miles added to an arrival further out than 15 NM for joining the final approach
    /// (vectors, the turn onto the extended centreline), NM.
    public static let patternAllowance = 12.0

    /// Airports further than this are not arrivals yet, NM.
    public static let arrivalRange = 200.0

    /// The speed schedule of an approach: at most this ground speed (kt) while this much
    /// distance (NM) remains. ICAO's 250 kt below FL100 (from about 40 NM out), about 180 kt
    /// on the intermediate approach (15 NM), 140 kt on final (5 NM).
    public static let approachSpeeds: [(within: Double, speed: Double)] = [(40, 250), (15, 180), (5, 140)]

    /// Where arrivals join the final approach when the runway is known: this far out on
    /// its extended centreline, NM (a typical ILS intercept).
    public static let finalJoin = 12.0

    /// An estimated landing at `airport` (elevation in ft), or nil when the aircraft is not
    /// arriving there. Arriving: airborne with an altitude, within `arrivalRange`, and either
    /// (a) inside 40 NM, below 15 000 ft above the airport and not climbing (any track:
    /// arrivals are vectored onto final, level at times), or (b) its track within 45° of the
    /// airport's bearing and descending (at most −300 ft/min) or already low (less than
    /// 2000 ft above a 3° path: 318 ft per NM).
    ///
    /// Estimate: the distance still to fly, at the ground speed now capped by the approach
    /// speed schedule (`approachSpeeds`) as it shrinks, plus a standard-rate (3°/s) turn
    /// towards where it is going. The distance: with the runway in use known (`runway`, the
    /// landing direction, e.g. learned from earlier landings: `Landing.runway`), to the point
    /// `finalJoin` NM out on the extended centreline and then along it (straight in when
    /// already on final); without it, the great circle to the airport plus
    /// `patternAllowance` for joining the final approach. It cannot know the vectors a
    /// controller will give: the measured errors are in the README.
    public static func arrival(_ m: MotionState, at airport: Coordinate, elevation: Int = 0, runway: Double? = nil) -> Arrival? {
        guard !m.onGround, let altitude = m.altitude, m.groundSpeed > 30, m.groundSpeed.isFinite else { return nil }
        let d = Geodesy.distance(m.position, airport)
        guard d <= arrivalRange else { return nil }
        func angle(_ a: Double, _ b: Double) -> Double {
            abs(((a - b).truncatingRemainder(dividingBy: 360) + 540).truncatingRemainder(dividingBy: 360) - 180)
        }
        let off = angle(Geodesy.bearing(from: m.position, to: airport), m.track)
        let height = Double(altitude - elevation)
        let descending = (m.verticalRate ?? 0) <= -300
        let low = height <= d * 318 + 2000
        let climbing = (m.verticalRate ?? 0) >= 300
        let vectored = d <= 40 && height <= 15_000 && !climbing
        guard vectored || (off <= 45 && (descending || low)) else { return nil }
        var path = d, target = airport
        if let runway {
            let approachSide = runway + 180
            let onFinal = d <= finalJoin + 3 && angle(Geodesy.bearing(from: airport, to: m.position), approachSide) <= 30
            if !onFinal {
                target = Geodesy.destination(from: airport, bearing: approachSide, distance: finalJoin)
                path = Geodesy.distance(m.position, target) + finalJoin
            }
        } else if d > 15 {
            path = d + min(patternAllowance, d - 15)
        }
        // Time along the path, piece by piece of the speed schedule: between a and b NM to
        // go, the ground speed now capped by the tightest limit in force at a.
        let bounds = [path] + approachSpeeds.map(\.within).filter { $0 < path } + [0]
        var seconds = 0.0
        for (a, b) in zip(bounds, bounds.dropFirst()) {
            let cap = approachSpeeds.last { $0.within >= a }?.speed ?? .infinity
            seconds += (a - b) / max(min(m.groundSpeed, cap), 60) * 3600
        }
        seconds += angle(Geodesy.bearing(from: m.position, to: target), m.track) / 3
        return Arrival(time: m.time + seconds, distance: d)
    }
}
