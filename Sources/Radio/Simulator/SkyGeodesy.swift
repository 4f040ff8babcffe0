import ModeS

/// The simulator's geometry in kilometres: `ModeS.Geodesy` (the one great-circle geometry of
/// the project) with its distances in km.
enum SkyGeodesy {
    static let feetPerKm = 3280.84
    /// Kilometres per nautical mile.
    static let kmPerNM = Geodesy.metresPerNM / 1000

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// Great-circle distance, km.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        Geodesy.distance(a, b) * kmPerNM
    }

    /// Initial bearing from `a` to `b`, degrees 0..<360.
    static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        Geodesy.bearing(from: a, to: b)
    }

    /// The point `km` away from `a` on initial bearing `bearing` (degrees).
    static func destination(from a: Coordinate, bearing: Double, km: Double) -> Coordinate {
        Geodesy.destination(from: a, bearing: bearing, distance: km / kmPerNM)
    }

    /// An angle brought into 0..<360.
    static func normalize(_ degrees: Double) -> Double { Geodesy.normalized(degrees) }

    /// The signed smallest turn from `a` to `b`, degrees in −180..<180 (positive: right).
    static func difference(from a: Double, to b: Double) -> Double { Geodesy.turn(from: a, to: b) }
}
