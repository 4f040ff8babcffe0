/// Altitude codes for transmission: the inverse of `Altitude.fromAC13` / `fromAC12`
/// (Annex 10 Vol IV §3.1.2.6.5.4, DO-260B §2.2.3.2.3.4).
extension Altitude {
    /// Highest altitude of the 25 ft (Q = 1) code: N = 2047 → 50175 ft.
    public static let maxQBitAltitude = 50_175
    /// Range of the Gillham (Mode C) 100 ft code.
    public static let gillhamRange = -1200...126_700

    /// The 13-bit AC field (C1 A1 C2 A2 C4 A4 M B1 Q B2 D2 B4 D4) for an altitude in feet.
    /// −1000…50175 ft: 25 ft code with Q = 1, N = (feet + 1000)/25 rounded to the nearest
    /// step. Above that, up to 126700 ft: the Gillham 100 ft code (nearest 100 ft), as
    /// transponders do. Nil below −1000 ft or above 126700 ft (the caller sends 0, "no
    /// altitude").
    public static func ac13(feet: Int) -> UInt32? {
        if feet >= -1000 - 12, feet <= maxQBitAltitude + 12 {
            let n = UInt32(min(max((feet + 1000 + 12) / 25, 0), 2047))
            // N bits 11…6 → AC bits 1–6, N bit 5 → B1 (8), Q (9) = 1, N bits 4…1 → 10–13.
            return (n >> 5) << 7 | ((n >> 4) & 1) << 5 | 1 << 4 | (n & 0xF)
        }
        return gillhamAC13(feet: feet)
    }

    /// The 12-bit ADS-B altitude field (ME bits 9–20): `ac13(feet:)` without the M bit.
    public static func ac12(feet: Int) -> UInt32? {
        guard let code = ac13(feet: feet) else { return nil }
        return (code >> 7) << 6 | (code & 0x3F)
    }

    /// The Gillham (Mode C) code of an altitude in AC13 bit order (Q = M = 0), rounded to the
    /// nearest 100 ft; nil outside −1200…126700 ft. The 500 ft count n500 is sent as a Gray
    /// code in D1 D2 D4 A1 A2 A4 B1 B2 B4, the 100 ft step (1…5, reversed when n500 is odd) as
    /// C1 C2 C4 = 001, 011, 010, 110, 100. Altitude = 500·n500 + 100·step − 1300.
    public static func gillhamAC13(feet: Int) -> UInt32? {
        guard feet >= gillhamRange.lowerBound - 50, feet < gillhamRange.upperBound + 50 else { return nil }
        let rounded = (feet + 1300 + 50) / 100                       // 1…1280: (feet + 1300)/100, nearest
        let n500 = (rounded - 1) / 5
        var step = rounded - 5 * n500                                // 1…5
        if n500 & 1 == 1 { step = 6 - step }
        let gray = UInt32(n500 ^ (n500 >> 1))
        let c: UInt32 = [0, 0b001, 0b011, 0b010, 0b110, 0b100][step]
        @inline(__always) func g(_ i: UInt32) -> UInt32 { (gray >> (8 - i)) & 1 }   // i = 0 is D1
        let d1 = g(0), d2 = g(1), d4 = g(2), a1 = g(3), a2 = g(4), a4 = g(5), b1 = g(6), b2 = g(7), b4 = g(8)
        let c1 = c >> 2, c2 = (c >> 1) & 1, c4 = c & 1
        // Positions 1…13: C1 A1 C2 A2 C4 A4 M B1 D1 B2 D2 B4 D4.
        let bits: [UInt32] = [c1, a1, c2, a2, c4, a4, 0, b1, d1, b2, d2, b4, d4]
        return bits.reduce(0) { $0 << 1 | $1 }
    }
}
