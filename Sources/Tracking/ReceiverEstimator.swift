import ModeS

/// Estimates the receiver's position when none is configured: the mean (on the sphere) of
/// the globally decoded airborne positions the table accepted. Aircraft are heard all
/// around the antenna, so the mean lands near it (typically within a few tens of NM: good
/// enough to choose among the four surface CPR solutions 90° apart and as a map centre,
/// not for receiver-relative local decoding or range checks).
public struct ReceiverEstimator: Sendable {
    /// Positions averaged and distinct aircraft contributing, needed before an estimate.
    public static let minimumPositions = 20
    public static let minimumAircraft = 2

    var sum = SIMD3<Double>(repeating: 0)
    public private(set) var positions = 0
    var contributors: [UInt32] = []

    public init() {}

    /// Adds one accepted position of aircraft `key`.
    public mutating func add(_ coordinate: Coordinate, from key: UInt32) {
        sum += Geodesy.unitVector(coordinate)
        positions += 1
        if contributors.count < Self.minimumAircraft && !contributors.contains(key) { contributors.append(key) }
    }

    /// The estimate, once enough positions from enough aircraft were seen.
    public var estimate: Coordinate? {
        guard positions >= Self.minimumPositions, contributors.count >= Self.minimumAircraft else { return nil }
        return Geodesy.coordinate(sum)
    }
}
