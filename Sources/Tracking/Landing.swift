import ModeS

/// An aircraft seen to land: its last airborne position and track before its first surface
/// position (DO-260B 2.2.3.2.4). The track is the runway in use, for arrival estimates.
public struct Landing: Sendable, Equatable {
    public var address: UInt32
    /// Its last airborne position.
    public var position: Coordinate
    /// Its track then, degrees true.
    public var track: Double
    /// When it first reported on the surface, Unix seconds.
    public var time: Double

    public init(address: UInt32, position: Coordinate, track: Double, time: Double) {
        self.address = address
        self.position = position
        self.track = track
        self.time = time
    }

    /// Landings the table keeps (the latest).
    public static let kept = 64

    /// The runway heading in use at `airport`: the track of the latest landing within 4 NM
    /// of it in the last `maxAge` seconds before `now`, if any.
    public static func runway(at airport: Coordinate, in landings: [Landing], now: Double, maxAge: Double = 3600) -> Double? {
        landings.last { now - $0.time <= maxAge && now >= $0.time - 60 && Geodesy.distance($0.position, airport) <= 4 }?.track
    }
}
