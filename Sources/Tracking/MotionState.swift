import Foundation
import ModeS

/// What a prediction starts from: an aircraft's last position and how it moves.
public struct MotionState: Sendable, Equatable {
    public var position: Coordinate
    /// Unix seconds of `position`.
    public var time: Double
    /// True track over the ground, degrees.
    public var track: Double
    /// Ground speed, kt.
    public var groundSpeed: Double
    /// Track angle rate, °/s, right turns positive (BDS 5,0, DO-260B 2.2.5.1.50); nil: flying
    /// straight as far as anyone knows.
    public var turnRate: Double?
    /// Barometric altitude, ft.
    public var altitude: Int?
    /// Vertical rate, ft/min, climbing positive.
    public var verticalRate: Int?
    public var onGround: Bool

    /// Turn rates below this (°/s) are flown as straight lines.
    public static let straightBelow = 0.05

    public init(position: Coordinate, time: Double, track: Double, groundSpeed: Double, turnRate: Double? = nil,
                altitude: Int? = nil, verticalRate: Int? = nil, onGround: Bool = false) {
        self.position = position
        self.time = time
        self.track = track
        self.groundSpeed = groundSpeed
        self.turnRate = turnRate
        self.altitude = altitude
        self.verticalRate = verticalRate
        self.onGround = onGround
    }

    /// The motion of a table entry: its position, track and ground speed (nil without them);
    /// the turn rate when reported within `freshness` seconds of the position.
    public init?(_ aircraft: Aircraft, freshness: Double = 10) {
        guard let position = aircraft.position, let track = aircraft.track, let gs = aircraft.gs else { return nil }
        let rate = aircraft.trackRate.flatMap { abs($0.time - position.time) <= freshness ? $0.value : nil }
        self.init(position: position.value, time: position.time, track: track.value, groundSpeed: gs.value, turnRate: rate,
                  altitude: aircraft.altBaro?.value ?? aircraft.altGeom?.value,
                  verticalRate: aircraft.baroRate?.value ?? aircraft.geomRate?.value, onGround: aircraft.isOnGround)
    }

    /// Whether the turn rate makes the path a turn rather than a great circle.
    public var isTurning: Bool { abs(turnRate ?? 0) >= Self.straightBelow && groundSpeed > 0 }

    /// Where the aircraft is `seconds` after `time` if it keeps its ground speed and either
    /// its great circle (no turn) or its turn rate: a small circle on the sphere whose
    /// circumference it flies in 360° / rate.
    public func position(after seconds: Double) -> Coordinate {
        let distance = groundSpeed * seconds / 3600
        guard isTurning, let turn = self.turn else {
            return Geodesy.destination(from: position, bearing: track, distance: distance)
        }
        return Geodesy.destination(from: turn.center, bearing: turn.startBearing + turn.sweepRate * seconds, distance: turn.radius)
    }

    /// The small circle of a turn: its centre, radius (NM along the surface), the bearing from
    /// the centre to the aircraft now, and degrees swept around the centre per second.
    var turn: (center: Coordinate, radius: Double, startBearing: Double, sweepRate: Double)? {
        guard let rate = turnRate, abs(rate) >= Self.straightBelow, groundSpeed > 0 else { return nil }
        // A circle flown at v with the track turning at ω has circumference v·360/ω; on the
        // sphere that is 2πR·sin ρ for angular radius ρ.
        let circumference = groundSpeed / 3600 * 360 / abs(rate)
        let sine = circumference / (2 * .pi * Geodesy.earthRadiusNM)
        guard sine < 1 else { return nil }
        let radius = asin(sine) * Geodesy.earthRadiusNM
        let side = rate > 0 ? 90.0 : -90.0
        let center = Geodesy.destination(from: position, bearing: track + side, distance: radius)
        return (center, radius, Geodesy.bearing(from: center, to: position), rate)
    }
}
