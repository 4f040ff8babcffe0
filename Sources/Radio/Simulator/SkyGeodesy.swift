import Foundation
import ModeS

/// Spherical-earth helpers for the simulator, in km (short distances; accuracy of a few metres
/// over hundreds of kilometres is plenty for a synthetic sky). The same formulas as
/// `ModeS.Geodesy` on a radius 9 m longer: folding them into it changes the simulated skies
/// the seeded tests pin, so it waits for issue 24's single geodesy.
enum SkyGeodesy {
    /// Mean earth radius, km.
    static let earthRadius = 6371.0088
    static let feetPerKm = 3280.84
    /// Kilometres per nautical mile.
    static let kmPerNM = 1.852

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// Great-circle distance, km.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = radians(a.latitude), φ2 = radians(b.latitude)
        let dφ = φ2 - φ1, dλ = radians(b.longitude - a.longitude)
        let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// Initial bearing from `a` to `b`, degrees 0..<360.
    static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = radians(a.latitude), φ2 = radians(b.latitude), dλ = radians(b.longitude - a.longitude)
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        return normalize(degrees(atan2(y, x)))
    }

    /// The point `km` away from `a` on initial bearing `bearing` (degrees).
    static func destination(from a: Coordinate, bearing: Double, km: Double) -> Coordinate {
        let δ = km / earthRadius, θ = radians(bearing)
        let φ1 = radians(a.latitude), λ1 = radians(a.longitude)
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return Coordinate(latitude: degrees(φ2), longitude: Coordinate.normalizeLongitude(degrees(λ2)))
    }

    /// An angle brought into 0..<360.
    static func normalize(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let v = r < 0 ? r + 360 : r
        return v >= 360 ? 0 : v
    }

    /// The signed smallest turn from `a` to `b`, degrees in −180..<180 (positive: right).
    static func difference(from a: Double, to b: Double) -> Double {
        let d = normalize(b - a)
        return d >= 180 ? d - 360 : d
    }
}
