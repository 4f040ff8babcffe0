/// The 6-bit character set of aircraft identification (Annex 10 Vol IV Table 3-9, the
/// IA-5 subset): letters A–Z at 1–26, space at 32, digits at 48–57; the rest is invalid.
public enum Callsign {
    /// The character for a 6-bit code, or nil for codes outside the subset.
    @inlinable
    public static func character(_ code: Int) -> UInt8? {
        switch code {
        case 1...26: UInt8(code) &+ 64
        case 32: UInt8(ascii: " ")
        case 48...57: UInt8(code)
        default: nil
        }
    }

    /// Decodes 8 characters from field bits `first…first+47` and trims trailing spaces.
    /// Returns nil when a character is outside the subset, or when the result is empty.
    public static func decode(_ field: MessageField, from first: Int) -> String? {
        decodePacked(field, from: first).map(unpack)
    }
}

extension Callsign {
    /// Packs up to 8 ASCII characters into a `UInt64`, first character in the high byte,
    /// unused bytes zero: a plain value for storing callsigns without heap or reference counts.
    /// Longer strings keep their first 8 bytes.
    @inlinable
    public static func pack(_ text: String) -> UInt64 {
        var packed: UInt64 = 0
        var count = 0
        for byte in text.utf8 where count < 8 {
            packed |= UInt64(byte) << UInt64(56 - 8 * count)
            count += 1
        }
        return packed
    }

    /// The string `pack` stored (trailing zero bytes dropped).
    public static func unpack(_ packed: UInt64) -> String {
        var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &bytes) { buffer in
            for i in 0..<8 {
                let b = UInt8(truncatingIfNeeded: packed >> UInt64(56 - 8 * i))
                buffer[i] = b
                if b != 0 { length = i + 1 }
            }
        }
        return withUnsafeBytes(of: &bytes) { String(decoding: $0.prefix(length), as: UTF8.self) }
    }

    /// Decodes 8 characters from field bits `first…first+47` straight to the packed form
    /// (trailing spaces dropped); nil when a character is invalid or all are spaces.
    @inlinable
    public static func decodePacked(_ field: MessageField, from first: Int) -> UInt64? {
        var packed: UInt64 = 0
        var length = 0
        for i in 0..<8 {
            guard let c = character(field.int(first + 6 * i, first + 6 * i + 5)) else { return nil }
            packed |= UInt64(c) << UInt64(56 - 8 * i)
            if c != UInt8(ascii: " ") { length = i + 1 }
        }
        guard length > 0 else { return nil }
        // Clear trailing spaces.
        return length == 8 ? packed : packed & ~(UInt64.max >> UInt64(8 * length))
    }
}
