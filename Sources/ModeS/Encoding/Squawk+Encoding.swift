/// Mode A identity codes for transmission: the inverse of `Squawk.fromID13`.
extension Squawk {
    /// The 13-bit ID field (Annex 10 Vol IV §3.1.2.6.7.1: C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4
    /// D4, X = 0) of a 12-bit code A4A2A1 B4B2B1 C4C2C1 D4D2D1 (such as 0o7700). Bits above
    /// the 12th are ignored.
    public static func id13(_ code: UInt16) -> UInt32 {
        let c = UInt32(code & 0o7777)
        @inline(__always) func digit(_ shift: UInt32) -> (UInt32, UInt32, UInt32) {
            let d = (c >> shift) & 7
            return (d & 1, (d >> 1) & 1, d >> 2)   // x1, x2, x4
        }
        let (a1, a2, a4) = digit(9), (b1, b2, b4) = digit(6), (c1, c2, c4) = digit(3), (d1, d2, d4) = digit(0)
        let bits: [UInt32] = [c1, a1, c2, a2, c4, a4, 0, b1, d1, b2, d2, b4, d4]
        return bits.reduce(0) { $0 << 1 | $1 }
    }

    /// Parses 4 octal digits ("7700") to the 12-bit code; nil for anything else.
    public static func code(_ text: some StringProtocol) -> UInt16? {
        guard text.utf8.count == 4 else { return nil }
        var code: UInt16 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7") else { return nil }
            code = code << 3 | UInt16(byte - UInt8(ascii: "0"))
        }
        return code
    }
}
