import ModeS

/// Why a line of text is not a frame.
public enum FrameLineError: Error, Equatable, Sendable, CustomStringConvertible {
    case frame(FrameParseError)
    /// `*` or `@` form without the closing `;`.
    case missingTerminator
    /// `@` form whose 12-digit timestamp is missing or not hex.
    case badTimestamp
    /// A Mode A/C reply (4 hex digits): not a Mode S frame.
    case modeAC
    /// Text after the closing `;`.
    case trailingCharacters
    /// Longer than any frame line can be.
    case tooLong(bytes: Int)

    public var description: String {
        switch self {
        case .frame(let e): e.description
        case .missingTerminator: "missing ';' at the end of an AVR frame"
        case .badTimestamp: "an '@' frame needs 12 hex digits of timestamp before the frame"
        case .modeAC: "a Mode A/C reply, not a Mode S frame"
        case .trailingCharacters: "characters after ';'"
        case .tooLong(let n): "line of \(n) bytes is too long for a frame"
        }
    }
}

/// Text frame lines as AVR feeds and `flytracker decode` accept them (FORMATS.md):
/// bare hex (`8D4840D6…`), `*HEX;`, or `@TTTTTTTTTTTTHEX;` with a 12 MHz timestamp.
/// Case-insensitive; surrounding white space and `\r` ignored.
public enum AVRLine {
    /// The longest line worth parsing: `@` + 12 + 28 digits + `;` with some white space.
    public static let maximumLength = 64

    /// Parses one line. Returns nil for a line with nothing to decode: blank, or the Mode A/C
    /// heartbeat `*0000;`.
    public static func parse(_ line: Substring) throws(FrameLineError) -> ReceivedFrame? {
        // Work on the bytes throughout: a line of arbitrary bytes is not made of whole
        // characters, and only ASCII can be part of a frame anyway.
        let bytes = line.utf8
        if bytes.count > 4096 { throw .tooLong(bytes: bytes.count) }
        let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 10 }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else {
            return nil
        }
        let text = bytes[start...end]
        if text.count > maximumLength { throw .tooLong(bytes: text.count) }
        let lead = text[text.startIndex]
        if lead != UInt8(ascii: "*") && lead != UInt8(ascii: "@") {
            return ReceivedFrame(frame: try frame(text))
        }
        guard let semicolon = text.firstIndex(of: UInt8(ascii: ";")) else { throw .missingTerminator }
        guard text.index(after: semicolon) == text.endIndex else { throw .trailingCharacters }
        var body = text[text.index(after: text.startIndex)..<semicolon]
        var timestamp: UInt64 = 0
        if lead == UInt8(ascii: "@") {
            guard body.count >= 12 else { throw .badTimestamp }
            let stampEnd = body.index(body.startIndex, offsetBy: 12)
            for c in body[..<stampEnd] {
                guard let v = Frame.hexValue(c) else { throw .badTimestamp }
                timestamp = timestamp << 4 | UInt64(v)
            }
            body = body[stampEnd...]
        }
        if body.count == 4 {
            if body.allSatisfy({ $0 == UInt8(ascii: "0") }) { return nil }
            throw .modeAC
        }
        return ReceivedFrame(frame: try frame(body), timestamp: timestamp)
    }

    private static func frame<Bytes: Sequence>(_ hex: Bytes) throws(FrameLineError) -> Frame where Bytes.Element == UInt8 {
        do { return try Frame(hexDigits: hex) } catch { throw .frame(error) }
    }

    /// The AVR line for a frame: `*HEX;`, or `@TTTTTTTTTTTTHEX;` when the timestamp is known.
    public static func format(_ received: ReceivedFrame, timestamps: Bool = true) -> String {
        let stamped = timestamps && received.timestamp != 0
        let frame = received.frame
        let digits = frame.bitCount / 4
        let length = 2 + (stamped ? 12 : 0) + digits
        // One buffer for the whole line (this runs for every frame of `--raw`).
        return String(unsafeUninitializedCapacity: length) { buffer in
            let p = buffer.baseAddress!
            p[0] = stamped ? UInt8(ascii: "@") : UInt8(ascii: "*")
            var at = 1
            if stamped {
                Frame.writeHex(UInt128(received.timestamp & 0xFFFF_FFFF_FFFF), digits: 12, uppercase: true, into: p + at)
                at += 12
            }
            frame.writeHex(into: p + at)
            p[length - 1] = UInt8(ascii: ";")
            return length
        }
    }
}
