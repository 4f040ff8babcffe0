/// A position on the WGS-84 ellipsoid in degrees: latitude −90…90 (north positive),
/// longitude −180..<180 (east positive). The CPR decoders always return normalised values.
public struct Coordinate: Hashable, Sendable {
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive, −180..<180 when produced by a decoder.
    public var longitude: Double

    /// Stores the values as given (see `normalized` to bring the longitude into −180..<180).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite and the latitude is within −90…90.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && latitude >= -90 && latitude <= 90
    }

    /// The same point with the longitude brought into −180..<180.
    public var normalized: Coordinate {
        Coordinate(latitude: latitude, longitude: Coordinate.normalizeLongitude(longitude))
    }

    /// Brings a finite longitude into −180..<180 (non-finite values are returned unchanged).
    public static func normalizeLongitude(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return longitude }
        var value = longitude.truncatingRemainder(dividingBy: 360)
        if value >= 180 { value -= 360 }
        if value < -180 { value += 360 }
        // Rounding can leave exactly +180 (for example −180 − ε + 360).
        if value >= 180 { value -= 360 }
        return value
    }
}
