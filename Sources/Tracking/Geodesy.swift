import Foundation
import ModeS

/// Great-circle geometry on a sphere of the Earth's mean radius (good to about 0.5 % against
/// WGS-84, plenty for range checks and display).
public enum Geodesy {
    /// Mean Earth radius in nautical miles (6371.0 km).
    public static let earthRadiusNM = 6371.0 / 1.852
    /// Metres in one nautical mile (exact, by definition).
    public static let metresPerNM = 1852.0
    static let degrees = 180.0 / Double.pi
    static let radians = Double.pi / 180.0

    /// Great-circle distance in NM (haversine).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * radians
        let s1 = sin(dPhi / 2)
        let s2 = sin(dLambda / 2)
        let h = s1 * s1 + cos(phi1) * cos(phi2) * s2 * s2
        return 2 * earthRadiusNM * asin(min(1, h.squareRoot()))
    }

    /// Initial bearing from `a` to `b`, degrees true, 0 ..< 360.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let dLambda = (b.longitude - a.longitude) * radians
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        var angle = atan2(y, x) * degrees
        if angle < 0 { angle += 360 }
        if angle >= 360 { angle -= 360 }
        return angle
    }

    /// The point `distance` NM from `start` along initial bearing `bearing` (degrees).
    public static func destination(from start: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        let delta = distance / earthRadiusNM
        let theta = bearing * radians
        let phi1 = start.latitude * radians
        let lambda1 = start.longitude * radians
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        return Coordinate(latitude: phi2 * degrees, longitude: Coordinate.normalizeLongitude(lambda2 * degrees))
    }

    /// Unit vector of a position (x toward 0°E on the equator, z toward the north pole).
    static func unitVector(_ c: Coordinate) -> SIMD3<Double> {
        let phi = c.latitude * radians
        let lambda = c.longitude * radians
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The position of a (non-zero) vector.
    static func coordinate(_ v: SIMD3<Double>) -> Coordinate? {
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        guard horizontal > 0 || v.z != 0 else { return nil }
        return Coordinate(latitude: atan2(v.z, horizontal) * degrees, longitude: atan2(v.y, v.x) * degrees)
    }

    static func log10(_ x: Double) -> Double { Foundation.log10(x) }

    /// Linear power (0…1 of full scale) of a level in dBFS.
    static func power(dBFS: Double) -> Float { Float(pow(10, dBFS / 10)) }
}
