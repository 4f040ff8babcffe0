/// Mode A identity codes (4096 codes, written as 4 octal digits).
public enum Squawk {
    /// Decodes the 13-bit ID code field (Annex 10 Vol IV §3.1.2.6.7.1): bits
    /// C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4, to the 12-bit code A4A2A1 B4B2B1 C4C2C1 D4D2D1
    /// (so `String(code, radix: 8)` padded to 4 digits is the squawk).
    @inlinable
    public static func fromID13(_ id13: UInt32) -> UInt16 {
        @inline(__always) func b(_ n: Int) -> UInt16 { UInt16((id13 >> UInt32(13 - n)) & 1) }
        // Field bit positions within the 13 bits (1 = MSB): C1=1 A1=2 C2=3 A2=4 C4=5 A4=6
        // X=7 B1=8 D1=9 B2=10 D2=11 B4=12 D4=13
        let a = b(6) << 2 | b(4) << 1 | b(2)
        let bb = b(12) << 2 | b(10) << 1 | b(8)
        let c = b(5) << 2 | b(3) << 1 | b(1)
        let d = b(13) << 2 | b(11) << 1 | b(9)
        return a << 9 | bb << 6 | c << 3 | d
    }

    /// The code as 4 octal digits, such as "7700".
    public static func string(_ code: UInt16) -> String {
        let digits = String(code & 0o7777, radix: 8)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
