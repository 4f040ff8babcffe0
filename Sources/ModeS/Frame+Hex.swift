/// Why a hexadecimal string is not a Mode S frame.
public enum FrameParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A character that is not a hex digit, at this 0-based offset.
    case invalidCharacter(offset: Int)
    /// The number of hex digits is not 14 (56 bits) or 28 (112 bits).
    case invalidLength(digits: Int)
    /// The length does not match the downlink format (DF 0–15 need 14 digits, 16–24 need 28).
    case lengthMismatch(downlinkFormat: Int, digits: Int)

    public var description: String {
        switch self {
        case .invalidCharacter(let offset): "not a hex digit at offset \(offset)"
        case .invalidLength(let digits):
            "\(digits) hex digits; a Mode S frame has 14 (56 bits) or 28 (112 bits)"
        case .lengthMismatch(let df, let digits):
            "DF\(df) needs \(Frame.bitCount(forDownlinkFormat: df) / 4) hex digits, got \(digits)"
        }
    }
}

extension Frame {
    /// Parses 14 or 28 hex digits (either case). The length must match the downlink format.
    public init(hex: some StringProtocol) throws(FrameParseError) {
        try self.init(hexDigits: hex.utf8)
    }

    /// Parses 14 or 28 ASCII hex digits given as bytes (any other byte is an invalid character).
    public init<Bytes: Sequence>(hexDigits: Bytes) throws(FrameParseError) where Bytes.Element == UInt8 {
        var value: UInt128 = 0
        var digits = 0
        for byte in hexDigits {
            guard let nibble = Frame.hexValue(byte) else {
                throw .invalidCharacter(offset: digits)
            }
            if digits < 28 { value = (value << 4) | UInt128(nibble) }
            digits += 1
        }
        guard digits == 14 || digits == 28 else { throw .invalidLength(digits: digits) }
        value <<= UInt128(128 - digits * 4)
        let frame = Frame(raw: value, bitCount: digits * 4)!
        let df = frame.downlinkFormat
        guard Frame.bitCount(forDownlinkFormat: df) == frame.bitCount else {
            throw .lengthMismatch(downlinkFormat: df, digits: digits)
        }
        self = frame
    }

    /// Value of one ASCII hex digit, or nil.
    @inlinable
    public static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// Uppercase hex digits, as AVR output writes them.
    public var hex: String {
        String(unsafeUninitializedCapacity: bitCount / 4) { buffer in
            writeHex(into: buffer.baseAddress!)
            return bitCount / 4
        }
    }

    /// Writes `hex` (`bitCount / 4` uppercase digits) at `target`, for callers that build a
    /// whole line in one buffer.
    @inlinable
    public func writeHex(into target: UnsafeMutablePointer<UInt8>) {
        Frame.writeHex(raw >> UInt128(128 - bitCount), digits: bitCount / 4, uppercase: true, into: target)
    }

    /// Formats the low `digits` nibbles of `value` as hex.
    public static func hexString(_ value: UInt128, digits: Int, uppercase: Bool) -> String {
        String(unsafeUninitializedCapacity: digits) { buffer in
            writeHex(value, digits: digits, uppercase: uppercase, into: buffer.baseAddress!)
            return digits
        }
    }

    /// Writes the low `digits` nibbles of `value` as hex ASCII at `target` (no allocation: for
    /// callers that build a whole line in one buffer, such as AVR output).
    @inlinable
    public static func writeHex(_ value: UInt128, digits: Int, uppercase: Bool, into target: UnsafeMutablePointer<UInt8>) {
        let letters = uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
        var v = value
        var i = digits
        while i > 0 {
            i -= 1
            let nibble = UInt8(truncatingIfNeeded: v) & 0xF
            target[i] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : letters &+ (nibble &- 10)
            v >>= 4
        }
    }
}

extension Frame: CustomStringConvertible {
    public var description: String { hex }
}
