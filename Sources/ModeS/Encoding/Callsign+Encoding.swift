/// Callsigns for transmission: the inverse of `Callsign.decode` (Annex 10 Vol IV Table 3-9).
extension Callsign {
    /// The 6-bit code of an ASCII character: A–Z → 1–26 (lower case is taken as upper case),
    /// space → 32, 0–9 → 48–57; nil for anything else.
    @inlinable
    public static func code(_ character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - 64)
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(character - 96)
        case UInt8(ascii: " "): 32
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(character)
        default: nil
        }
    }

    /// The 48 bits (8 characters × 6, first character in the high bits) of a callsign of at
    /// most 8 characters, padded with spaces. Nil when it is longer or holds a character outside
    /// the set.
    public static func encode(_ text: some StringProtocol) -> UInt64? {
        guard text.utf8.count <= 8 else { return nil }
        var bits: UInt64 = 0
        var count = 0
        for byte in text.utf8 {
            guard let code = code(byte) else { return nil }
            bits = bits << 6 | UInt64(code)
            count += 1
        }
        for _ in count..<8 { bits = bits << 6 | 32 }
        return bits
    }
}
