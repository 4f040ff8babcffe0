/// Compact Position Reporting: decoding the 17-bit encoded positions of ADS-B airborne and
/// surface position messages (DO-260B §A.1.7, ICAO Annex 10 Vol IV §C.2.6, Doc 9871 §C.2.6).
///
/// Constants (NZ = 15 latitude zones per hemisphere quadrant, Nb = 17 transmitted bits):
///
/// | quantity | airborne | surface |
/// |---|---|---|
/// | latitude zone size, even (i = 0) | 360/60 = 6° | 90/60 = 1.5° |
/// | latitude zone size, odd (i = 1) | 360/59 ≈ 6.1017° | 90/59 ≈ 1.5254° |
/// | longitude zone size | 360 / max(NL(lat) − i, 1) | 90 / max(NL(lat) − i, 1) |
/// | local decoding valid within | 180 NM of the reference | 45 NM of the reference |
/// | global pair window (DO-260B) | 10 s | 50 s |
///
/// Every decoder returns nil rather than a wrong or out-of-range position and never traps.
public enum CPR {
    /// Number of geographic latitude zones between the equator and a pole (NZ).
    public static let nz = 15
    /// 2^17: the encoded fields are fractions of a zone in units of 1/2^17.
    static let scale = 131_072.0
    /// Mask of the 17 transmitted bits.
    static let fieldMask: UInt32 = 0x1_FFFF

    // MARK: NL

    /// Transition latitudes of the NL function, ascending: `nlTransitions[k]` is the latitude
    /// where NL falls from 59 − k to 58 − k (DO-260B Table A-21, computed as
    /// `180/π · acos(√((1 − cos(π/(2·NZ))) / (1 − cos(2π/NL))))`; the last one is exactly 87°).
    static let nlTransitions: [Double] = [
        10.470471299968775, 14.828174368687508, 18.186263570714182, 21.029394926029344,
        23.545044865571402, 25.829247070588554, 27.938987101219166, 29.91135685731838,
        31.77209707681102, 33.539934362985456, 35.228995977964466, 36.85025107593547,
        38.412418924123045, 39.92256684333892, 41.386518322602825, 42.809140122435664,
        44.19454951419314, 45.54626722660254, 46.867332524987674, 48.160391280966536,
        49.42776439255704, 50.67150165553846, 51.89342469168786, 53.09516152796016,
        54.27817472272919, 55.4437844449506, 56.59318756205935, 57.72747353866127,
        58.84763776148471, 59.954592766940465, 61.04917774246363, 62.132166592103424,
        63.20427479381938, 64.2661652256745, 65.31845309682099, 66.36171008382628,
        67.39646774084676, 68.4232202208334, 69.44242631144031, 70.45451074987608,
        71.4598647302899, 72.45884544728952, 73.4517744166787, 74.43893415725142,
        75.42056256653363, 76.39684390794473, 77.36789461328192, 78.33374082922752,
        79.29428225456931, 80.24923213280516, 81.19801349271951, 82.13956980510609,
        83.07199444719816, 83.99173562980566, 84.89166190702088, 85.75541620944419,
        86.53536997512101, 87.0,
    ]

    /// NL: the number of longitude zones at a latitude, 59 at the equator down to 1 beyond
    /// ±87° (DO-260B §A.1.7.2.d). Equal to
    /// `floor(2π / acos(1 − (1 − cos(π/(2·NZ))) / cos²(π/180 · |lat|)))`; at a transition
    /// latitude itself the value is the one on the equator side (so NL(±87) = 2).
    /// A non-finite latitude gives 1.
    public static func nl(_ latitude: Double) -> Int {
        guard latitude.isFinite else { return 1 }
        let magnitude = latitude.magnitude
        // Count the transitions strictly below |lat| (binary search, first t ≥ |lat|).
        var low = 0
        var high = nlTransitions.count
        while low < high {
            let mid = (low + high) / 2
            if nlTransitions[mid] < magnitude { low = mid + 1 } else { high = mid }
        }
        return 59 - low
    }

    // MARK: Global decoding

    /// Globally unambiguous airborne decoding from one even and one odd message
    /// (DO-260B §A.1.7.7). `latest` names the more recent of the two; the result is that
    /// message's position. Nil when the two latitudes fall in different NL zones (the
    /// aircraft crossed a zone boundary between them, or the pair is inconsistent) or the
    /// latitude is outside ±90°.
    ///
    /// - j = ⌊59·YZ₀ − 60·YZ₁ + ½⌋, Rlatᵢ = Dlatᵢ·(MOD(j, 60 − i) + YZᵢ), minus 360 when ≥ 270
    /// - m = ⌊XZ₀·(NL − 1) − XZ₁·NL + ½⌋, nᵢ = max(NL − i, 1), lon = 360/nᵢ·(MOD(m, nᵢ) + XZᵢ)
    public static func globalAirborne(even: CPRPosition, odd: CPRPosition, latest: CPRFormat) -> Coordinate? {
        guard let (lat0, lat1) = globalLatitudes(even: even, odd: odd, span: 360) else { return nil }
        var rlat0 = lat0
        var rlat1 = lat1
        if rlat0 >= 270 { rlat0 -= 360 }
        if rlat1 >= 270 { rlat1 -= 360 }
        guard (-90.0...90.0).contains(rlat0), (-90.0...90.0).contains(rlat1) else { return nil }
        guard nl(rlat0) == nl(rlat1) else { return nil }
        let latitude = latest == .even ? rlat0 : rlat1
        let longitude = globalLongitude(even: even, odd: odd, latest: latest, latitude: latitude, span: 360)
        return Coordinate(latitude: latitude, longitude: Coordinate.normalizeLongitude(longitude))
    }

    /// Globally unambiguous surface decoding from one even and one odd surface message
    /// (DO-260B §A.1.7.8). Surface zones are a quarter of airborne ones, so each latitude
    /// has two solutions (northern and southern hemisphere) and each longitude four; the ones
    /// nearest `reference` (the receiver, or the aircraft's last position) are chosen.
    /// Nil on an NL zone mismatch or a non-finite reference.
    public static func globalSurface(
        even: CPRPosition, odd: CPRPosition, latest: CPRFormat, reference: Coordinate
    ) -> Coordinate? {
        guard reference.latitude.isFinite, reference.longitude.isFinite else { return nil }
        guard let (lat0, lat1) = globalLatitudes(even: even, odd: odd, span: 90) else { return nil }
        // Both solutions lie in 0..<90; the southern alternative is 90° lower.
        let north = latest == .even ? lat0 : lat1
        let useSouth = (reference.latitude - (north - 90)).magnitude < (reference.latitude - north).magnitude
        let rlat0 = useSouth ? lat0 - 90 : lat0
        let rlat1 = useSouth ? lat1 - 90 : lat1
        guard nl(rlat0) == nl(rlat1) else { return nil }
        let latitude = latest == .even ? rlat0 : rlat1
        let base = globalLongitude(even: even, odd: odd, latest: latest, latitude: latitude, span: 90)
        let longitude = nearestLongitude(base: base, step: 90, count: 4, to: reference.longitude)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    // MARK: Local decoding

    /// Locally unambiguous airborne decoding of one message relative to a reference position
    /// within 180 NM (half a latitude zone) of the aircraft (DO-260B §A.1.7.5).
    ///
    /// - j = ⌊lat_ref/Dlat⌋ + ⌊½ + MOD(lat_ref, Dlat)/Dlat − YZ⌋, Rlat = Dlat·(j + YZ)
    /// - m = ⌊lon_ref/Dlon⌋ + ⌊½ + MOD(lon_ref, Dlon)/Dlon − XZ⌋, Rlon = Dlon·(m + XZ)
    ///
    /// Nil for a non-finite reference or a result outside ±90°.
    public static func localAirborne(_ position: CPRPosition, reference: Coordinate) -> Coordinate? {
        local(position, reference: reference, span: 360)
    }

    /// Locally unambiguous surface decoding relative to a reference within 45 NM of the
    /// aircraft (DO-260B §A.1.7.6): the airborne formulas with 90° zones.
    public static func localSurface(_ position: CPRPosition, reference: Coordinate) -> Coordinate? {
        local(position, reference: reference, span: 90)
    }

    // MARK: Shared pieces

    /// Latitude zone size for a format: span/60 even, span/59 odd.
    static func latitudeZone(_ format: CPRFormat, span: Double) -> Double {
        span / (format == .even ? 60 : 59)
    }

    /// The fraction of a zone an encoded field holds (0 ..< 1).
    @inline(__always)
    static func fraction(_ field: UInt32) -> Double { Double(field & fieldMask) / scale }

    /// Floor-based modulo of integer-valued doubles: result in 0 ..< n.
    @inline(__always)
    static func mod(_ x: Double, _ n: Double) -> Double { x - n * (x / n).rounded(.down) }

    /// Both latitude solutions (each in 0 ..< span) of an even/odd pair, before any
    /// hemisphere correction.
    static func globalLatitudes(even: CPRPosition, odd: CPRPosition, span: Double) -> (Double, Double)? {
        guard even.format == .even, odd.format == .odd else { return nil }
        let yz0 = fraction(even.lat)
        let yz1 = fraction(odd.lat)
        let j = (59 * yz0 - 60 * yz1 + 0.5).rounded(.down)
        let rlat0 = latitudeZone(.even, span: span) * (mod(j, 60) + yz0)
        let rlat1 = latitudeZone(.odd, span: span) * (mod(j, 59) + yz1)
        return (rlat0, rlat1)
    }

    /// The longitude of the latest message of a pair, in 0 ..< span (not normalised).
    static func globalLongitude(
        even: CPRPosition, odd: CPRPosition, latest: CPRFormat, latitude: Double, span: Double
    ) -> Double {
        let zones = nl(latitude)
        let i = latest == .even ? 0 : 1
        let n = Double(max(zones - i, 1))
        let xz0 = fraction(even.lon)
        let xz1 = fraction(odd.lon)
        let m = (xz0 * Double(zones - 1) - xz1 * Double(zones) + 0.5).rounded(.down)
        let xz = latest == .even ? xz0 : xz1
        return span / n * (mod(m, n) + xz)
    }

    /// Of the `count` longitudes `base + k·step`, the one nearest `target` (around the
    /// circle), normalised to −180..<180.
    static func nearestLongitude(base: Double, step: Double, count: Int, to target: Double) -> Double {
        var best = Coordinate.normalizeLongitude(base)
        var bestDistance = Double.infinity
        for k in 0..<count {
            let candidate = Coordinate.normalizeLongitude(base + Double(k) * step)
            let distance = Coordinate.normalizeLongitude(candidate - target).magnitude
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        return best
    }

    static func local(_ position: CPRPosition, reference: Coordinate, span: Double) -> Coordinate? {
        guard reference.latitude.isFinite, reference.longitude.isFinite else { return nil }
        let i = position.format == .even ? 0 : 1
        let dLat = latitudeZone(position.format, span: span)
        let yz = fraction(position.lat)
        // ⌊a⌋ + ⌊½ + frac(a) − YZ⌋ = ⌊a + ½ − YZ⌋ with a = lat_ref / Dlat.
        let j = (reference.latitude / dLat + 0.5 - yz).rounded(.down)
        let latitude = dLat * (j + yz)
        guard (-90.0...90.0).contains(latitude) else { return nil }
        let dLon = span / Double(max(nl(latitude) - i, 1))
        let xz = fraction(position.lon)
        let m = (reference.longitude / dLon + 0.5 - xz).rounded(.down)
        let longitude = dLon * (m + xz)
        guard longitude.isFinite else { return nil }
        return Coordinate(latitude: latitude, longitude: Coordinate.normalizeLongitude(longitude))
    }
}
