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
        var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        var length = 0
        var valid = true
        withUnsafeMutableBytes(of: &bytes) { buffer in
            for i in 0..<8 {
                let code = field.int(first + 6 * i, first + 6 * i + 5)
                guard let c = character(code) else { valid = false; return }
                buffer[i] = c
                if c != UInt8(ascii: " ") { length = i + 1 }
            }
        }
        guard valid, length > 0 else { return nil }
        return withUnsafeBytes(of: &bytes) { buffer in
            String(decoding: buffer.prefix(length), as: UTF8.self)
        }
    }
}
