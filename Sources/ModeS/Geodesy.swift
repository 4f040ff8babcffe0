import RealModule

/// Great-circle geometry on a sphere of the Earth's mean radius (good to about 0.5 % against
/// WGS-84, plenty for range checks and display): the one geodesy of the table, the store
/// and the statistics, and (in km, `Radio.SkyGeodesy`) of the simulator.
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
        let s1 = Double.sin(dPhi / 2)
        let s2 = Double.sin(dLambda / 2)
        let h = s1 * s1 + Double.cos(phi1) * Double.cos(phi2) * s2 * s2
        return 2 * earthRadiusNM * Double.asin(min(1, h.squareRoot()))
    }

    /// Initial bearing from `a` to `b`, degrees true, 0 ..< 360.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let dLambda = (b.longitude - a.longitude) * radians
        let y = Double.sin(dLambda) * Double.cos(phi2)
        let x = Double.cos(phi1) * Double.sin(phi2) - Double.sin(phi1) * Double.cos(phi2) * Double.cos(dLambda)
        var angle = Double.atan2(y: y, x: x) * degrees
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
        let phi2 = Double.asin(Double.sin(phi1) * Double.cos(delta) + Double.cos(phi1) * Double.sin(delta) * Double.cos(theta))
        let lambda2 = lambda1 + Double.atan2(y: Double.sin(theta) * Double.sin(delta) * Double.cos(phi1), x: Double.cos(delta) - Double.sin(phi1) * Double.sin(phi2))
        return Coordinate(latitude: phi2 * degrees, longitude: Coordinate.normalizeLongitude(lambda2 * degrees))
    }

    /// An angle brought into 0 ..< 360 degrees.
    public static func normalized(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let v = r < 0 ? r + 360 : r
        return v >= 360 ? 0 : v
    }

    /// The signed smallest turn from heading `a` to heading `b`, degrees in −180 ..< 180
    /// (positive: to the right).
    public static func turn(from a: Double, to b: Double) -> Double {
        let d = normalized(b - a)
        return d >= 180 ? d - 360 : d
    }

    /// Unit vector of a position (x toward 0°E on the equator, z toward the north pole).
    public static func unitVector(_ c: Coordinate) -> SIMD3<Double> {
        let phi = c.latitude * radians
        let lambda = c.longitude * radians
        return SIMD3(Double.cos(phi) * Double.cos(lambda), Double.cos(phi) * Double.sin(lambda), Double.sin(phi))
    }

    /// The position of a (non-zero) vector.
    public static func coordinate(_ v: SIMD3<Double>) -> Coordinate? {
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        guard horizontal > 0 || v.z != 0 else { return nil }
        return Coordinate(latitude: Double.atan2(y: v.z, x: horizontal) * degrees, longitude: Double.atan2(y: v.y, x: v.x) * degrees)
    }
}
