/// Altitude codes of Mode S replies and ADS-B (Annex 10 Vol IV §3.1.2.6.5.4, DO-260B
/// §2.2.3.2.3.4). All results are in feet.
public enum Altitude {
    /// Decodes the 13-bit AC field (DF0/4/16/20 bits 20–32): C1 A1 C2 A2 C4 A4 M B1 Q B2 D2 B4 D4.
    /// - M = 1: metric altitude (11 bits, metres), converted to feet.
    /// - M = 0, Q = 1: 11-bit N, altitude = 25·N − 1000 ft.
    /// - M = 0, Q = 0: Gillham (Mode C) 100 ft code.
    /// Returns nil for an all-zero field (altitude not available) or an invalid Gillham code.
    @inlinable
    public static func fromAC13(_ ac: UInt32) -> Int? {
        let code = ac & 0x1FFF
        guard code != 0 else { return nil }
        let m = (code >> 6) & 1
        if m == 1 {
            // 12 bits without M (C1…A4, B1…D4) as a metric count (Annex 10 §3.1.2.6.5.4 c).
            let metres = Int(((code >> 7) << 6) | (code & 0x3F))
            return Int((Double(metres) * 3.28084).rounded())
        }
        let q = (code >> 4) & 1
        if q == 1 {
            // Remove M (bit 7 of 13) and Q (bit 9 of 13): N = bits 1–6, 8, 10–13.
            let n = ((code >> 7) << 5) | (((code >> 5) & 1) << 4) | (code & 0xF)
            return Int(n) * 25 - 1000
        }
        return gillham(ac13: code)
    }

    /// Decodes the 12-bit ADS-B altitude (ME bits 9–20): the AC13 layout without the M bit.
    /// Returns nil when the field is zero (no altitude information).
    @inlinable
    public static func fromAC12(_ ac: UInt32) -> Int? {
        let code = ac & 0xFFF
        guard code != 0 else { return nil }
        // Re-insert M = 0 after the sixth bit to reach the AC13 layout.
        let ac13 = ((code & 0xFC0) << 1) | (code & 0x3F)
        return fromAC13(ac13)
    }

    /// Decodes a Gillham (Mode C, ICAO Annex 10 Vol IV §3.1.1.7.12.2.3) code given in AC13 bit
    /// order with Q = 0 (the Q position is D1, which altitude codes never set).
    /// The 500 ft part is a reflected binary (Gray) code in D2 D4 A1 A2 A4 B1 B2 B4; the 100 ft
    /// part is the 5-state code in C1 C2 C4, reversed when the 500 ft count is odd.
    /// Result: 500·n500 + 100·n100 − 1300 ft, from −1200 ft upwards; nil for invalid codes.
    @inlinable
    public static func gillham(ac13 code: UInt32) -> Int? {
        @inline(__always) func b(_ n: Int) -> UInt32 { (code >> UInt32(13 - n)) & 1 }
        let c1 = b(1), a1 = b(2), c2 = b(3), a2 = b(4), c4 = b(5), a4 = b(6)
        let b1 = b(8), d1 = b(9), b2 = b(10), d2 = b(11), b4 = b(12), d4 = b(13)
        // Gray code, MSB first: D1 D2 D4 A1 A2 A4 B1 B2 B4.
        let gray = d1 << 8 | d2 << 7 | d4 << 6 | a1 << 5 | a2 << 4 | a4 << 3 | b1 << 2 | b2 << 1 | b4
        var n500 = gray
        var shift: UInt32 = 1
        while shift < 9 { n500 ^= n500 >> shift; shift <<= 1 }
        let n100: Int
        switch c1 << 2 | c2 << 1 | c4 {
        case 0b001: n100 = 1
        case 0b011: n100 = 2
        case 0b010: n100 = 3
        case 0b110: n100 = 4
        case 0b100: n100 = 5
        default: return nil
        }
        let hundreds = n500 & 1 == 1 ? 6 - n100 : n100
        return Int(n500) * 500 + hundreds * 100 - 1300
    }
}
