import ModeS

/// Which receiver of a network of receivers heard a frame: the UUID a receiver announces
/// on its Beast feed (readsb's `--uuid-file` / `0x1A 0xE4`, FORMATS "receiver identity"),
/// or, for a feed that announces none, a name made from the peer's address (`peer-192.0.2.7`).
///
/// UUIDs are kept in their canonical form (lowercase, 8-4-4-4-12) so that `5C3D…` and
/// `5c3d…` are one receiver.
public struct ReceiverID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let rawValue: String

    /// Longest accepted name, characters.
    public static let maxLength = 64

    /// A receiver name as given: 1…64 printable ASCII characters, no spaces. Nil otherwise.
    public init?(rawValue: String) {
        guard (1...Self.maxLength).contains(rawValue.utf8.count),
              rawValue.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        self.rawValue = rawValue
    }

    /// A UUID given as 32 hexadecimal digits, with or without dashes (readsb pads shorter
    /// ones with zeros; so do we, as long as at least 8 digits are given). Nil otherwise.
    public static func uuid(_ text: String) -> ReceiverID? {
        var digits: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "-"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(c)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digits.append(c + 32)
            default: return nil
            }
        }
        return uuid(hexDigits: digits)
    }

    /// The canonical UUID text of up to 32 lowercase hex digits (zero-padded), or nil when
    /// fewer than 8 are given.
    public static func uuid(hexDigits: [UInt8]) -> ReceiverID? {
        guard (8...32).contains(hexDigits.count) else { return nil }
        let padded = hexDigits + Array(repeating: UInt8(ascii: "0"), count: 32 - hexDigits.count)
        var text: [UInt8] = []
        for (i, d) in padded.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { text.append(UInt8(ascii: "-")) }
            text.append(d)
        }
        return ReceiverID(rawValue: String(decoding: text, as: UTF8.self))
    }

    /// readsb's 64-bit binary receiver id (`0x1A 0xE3`): the UUID's first 16 digits.
    public static func uuid(high bits: UInt64) -> ReceiverID {
        let hex = Array("0123456789abcdef".utf8)
        let digits = (0..<16).map { hex[Int(bits >> UInt64(60 - 4 * $0) & 15)] }
        return uuid(hexDigits: digits)!
    }

    /// A receiver id as a user or a feed gives it: a UUID in canonical form when `text` is
    /// one (any case, dashes or not), else the name as given; nil when it is neither.
    public static func parse(_ text: String) -> ReceiverID? {
        uuid(text) ?? ReceiverID(rawValue: text)
    }

    /// The name of a receiver that announced no id, from its peer address.
    public static func peer(_ host: String) -> ReceiverID {
        let cleaned = host.utf8.prefix(maxLength - 5).map { $0 > 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "_") }
        return ReceiverID(rawValue: "peer-" + String(decoding: cleaned, as: UTF8.self))!
    }

    public var description: String { rawValue }
    public static func < (a: ReceiverID, b: ReceiverID) -> Bool { a.rawValue < b.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ReceiverID(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a receiver id: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// The receiver a frame came through, passed with it to `AircraftTable.apply(_:received:at:via:)`:
/// its id and, when it announced one, its position (the reference for decoding a single
/// CPR message, and the centre of the range check).
public struct Hearing: Sendable, Hashable {
    public var receiver: ReceiverID
    public var position: Coordinate?

    public init(receiver: ReceiverID, position: Coordinate? = nil) {
        self.receiver = receiver
        self.position = position
    }
}

/// How one receiver hears one aircraft (`Aircraft.heardBy`).
public struct ReceiverHearing: Sendable, Hashable {
    /// Table time of the last frame this receiver delivered, s.
    public internal(set) var lastSeen: Double
    /// Frames this receiver delivered, merged duplicates included.
    public internal(set) var messages: Int
    /// Signal level of the last frame with one, dBFS.
    public internal(set) var signal: Double?
    /// Mean power of the frames with a level (for the mean in dBFS), and how many.
    var powerSum: Double = 0
    var powerCount: Int = 0

    public init(lastSeen: Double, messages: Int = 0, signal: Double? = nil) {
        self.lastSeen = lastSeen
        self.messages = messages
        self.signal = signal
        if let signal {
            powerSum = Double(Decibels.power(dBFS: signal)) * Double(max(messages, 1))
            powerCount = max(messages, 1)
        }
    }

    /// Mean signal level, dBFS (nil when no frame carried one).
    public var meanSignal: Double? {
        guard powerCount > 0, powerSum > 0 else { return nil }
        return 10 * Decibels.log10(powerSum / Double(powerCount))
    }

    mutating func add(signal: Double?, at time: Double) {
        messages &+= 1
        if time > lastSeen { lastSeen = time }
        if let signal {
            self.signal = signal
            powerSum += Double(Decibels.power(dBFS: signal))
            powerCount += 1
        }
    }
}
