import ModeS

/// A streaming AVR reader (FORMATS.md, "AVR / raw"): bytes in chunks of any size, complete
/// frames out. A line ends at `;` or `\n`; each line goes through `AVRLine.parse`, so `*HEX;`,
/// `@TTTTTTTTTTTTHEX;` and either case are accepted, blank lines, `\r` and the `*0000;`
/// heartbeat are ignored, and Mode A/C or malformed lines are counted and skipped. A line
/// longer than any frame is discarded up to its end (memory stays bounded).
public struct AVRStreamParser: Sendable {
    var line: [UInt8] = []
    var overlong = false

    /// Frames read.
    public private(set) var frames = 0
    /// Lines that were not frames (malformed, Mode A/C, too long).
    public private(set) var rejectedLines = 0

    /// Longest line kept before it is discarded as garbage.
    public static let lineLimit = 128

    public init() { line.reserveCapacity(64) }

    /// Reads `bytes`, calling `emit` for each frame.
    public mutating func push<S: Sequence>(_ bytes: S, _ emit: (ReceivedFrame) -> Void) where S.Element == UInt8 {
        for b in bytes {
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: ";") {
                if b == UInt8(ascii: ";") && !overlong { line.append(b) }
                finishLine(emit)
            } else if overlong {
                continue
            } else if line.count >= AVRStreamParser.lineLimit {
                overlong = true
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(b)
            }
        }
    }

    /// Reads `bytes` and returns the frames.
    public mutating func decode<S: Sequence>(_ bytes: S) -> [ReceivedFrame] where S.Element == UInt8 {
        var out: [ReceivedFrame] = []
        push(bytes) { out.append($0) }
        return out
    }

    mutating func finishLine(_ emit: (ReceivedFrame) -> Void) {
        defer { line.removeAll(keepingCapacity: true) }
        if overlong {
            overlong = false
            rejectedLines += 1
            return
        }
        // AVRLine takes text; non-ASCII bytes make the line invalid anyway.
        let text = String(decoding: line, as: UTF8.self)
        do {
            if let frame = try AVRLine.parse(Substring(text)) {
                frames += 1
                emit(frame)
            }
        } catch {
            rejectedLines += 1
        }
    }
}
