extension CPR {
    /// Encodes a position into the 17-bit CPR fields an ADS-B transmitter sends
    /// (DO-260B §A.1.7.2–3), for the simulator and for tests.
    ///
    /// - Dlatᵢ = span/(60 − i); YZᵢ = ⌊2^17 · MOD(lat, Dlatᵢ)/Dlatᵢ + ½⌋
    /// - Rlatᵢ = Dlatᵢ · (YZᵢ/2^17 + ⌊lat/Dlatᵢ⌋) (the latitude a receiver will reconstruct)
    /// - Dlonᵢ = span / max(NL(Rlatᵢ) − i, 1); XZᵢ = ⌊2^17 · MOD(lon, Dlonᵢ)/Dlonᵢ + ½⌋
    /// - transmitted: YZᵢ and XZᵢ modulo 2^17
    ///
    /// span is 360° airborne and 90° surface. (The surface encoding of DO-260B uses 19 bits in
    /// 360° zones and sends the low 17; that is the same number as 17 bits in 90° zones.)
    /// Nil for a non-finite position or a latitude outside ±90°.
    public static func encode(_ coordinate: Coordinate, format: CPRFormat, surface: Bool) -> CPRPosition? {
        guard coordinate.isValid else { return nil }
        let span = surface ? 90.0 : 360.0
        let i = format == .even ? 0 : 1
        let dLat = latitudeZone(format, span: span)
        let lat = coordinate.latitude
        let yz = (scale * zoneFraction(lat, dLat) + 0.5).rounded(.down)
        let rlat = dLat * (yz / scale + (lat / dLat).rounded(.down))
        let dLon = span / Double(max(nl(rlat) - i, 1))
        let xz = (scale * zoneFraction(coordinate.longitude, dLon) + 0.5).rounded(.down)
        // Both are in 0...2^17 here, so the conversions cannot trap.
        return CPRPosition(
            format: format,
            lat: UInt32(yz) & fieldMask,
            lon: UInt32(xz) & fieldMask
        )
    }

    /// MOD(x, zone)/zone in 0 ..< 1 (clamped against rounding up to exactly 1).
    static func zoneFraction(_ x: Double, _ zone: Double) -> Double {
        let value = (x - zone * (x / zone).rounded(.down)) / zone
        return min(max(value, 0), 1)
    }
}
