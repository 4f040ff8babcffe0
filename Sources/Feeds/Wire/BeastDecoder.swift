import ModeS
import Tracking

/// A streaming Beast reader: feed it bytes in chunks of any size (a frame may be split
/// anywhere, even between an escape byte and its double) and it emits each complete frame.
///
/// Garbage is skipped: bytes before a frame start are discarded, and a lone 0x1A (one not
/// doubled) followed by a valid type byte starts a new frame, abandoning a partial one
/// (FORMATS.md: "A reader resynchronises on a lone 0x1A followed by a valid TYPE").
/// Type '4' status frames are read and dropped. Mode S frames whose first five bits do not
/// agree with the length of their type are dropped as malformed. Never traps on any input.
///
/// Receiver announcements (`ReceiverAnnouncement`: 0xE3, 0xE4, 0xE5) update `announcement`,
/// which `push(_:_:)`'s two-argument callback passes with each frame after it.
public struct BeastDecoder: Sendable {
    enum State: Sendable {
        /// Looking for 0x1A.
        case hunting
        /// Seen a frame-start 0x1A; the next byte is the type.
        case type
        /// Inside a frame: collecting `need` unescaped bytes after the type.
        case body
        /// After `0x1A 0xE4`: the ASCII digits of a UUID.
        case uuidText
    }

    var state = State.hunting
    var frameType: UInt8 = 0
    var need = 0
    /// Unescaped bytes after the type byte.
    var collected: [UInt8] = []
    /// Inside a body: the previous byte was an undoubled 0x1A.
    var escapePending = false

    /// Complete frames read.
    public private(set) var frames = 0
    /// Bytes skipped while looking for a frame start.
    public private(set) var garbageBytes = 0
    /// Partial frames abandoned because a new frame started inside them.
    public private(set) var resyncs = 0
    /// Status frames and malformed Mode S frames dropped.
    public private(set) var dropped = 0
    /// What the sender said about itself so far.
    public private(set) var announcement = ReceiverAnnouncement()
    /// Receiver announcements read, and those that were malformed (ignored).
    public private(set) var announcements = 0
    public private(set) var badAnnouncements = 0
    /// Hex digits of a UUID being read.
    var uuidDigits: [UInt8] = []

    public init() { collected.reserveCapacity(24) }

    /// Reads `bytes`, calling `emit` for each complete frame.
    public mutating func push<S: Sequence>(_ bytes: S, _ emit: (BeastFrame) -> Void) where S.Element == UInt8 {
        for b in bytes { step(b) { frame, _ in emit(frame) } }
    }

    /// Reads `bytes`, calling `emit` for each complete frame with what the sender had
    /// announced about itself before that frame.
    public mutating func push<S: Sequence>(_ bytes: S, _ emit: (BeastFrame, ReceiverAnnouncement) -> Void) where S.Element == UInt8 {
        for b in bytes { step(b, emit) }
    }

    /// Reads `bytes` and returns the complete frames.
    public mutating func decode<S: Sequence>(_ bytes: S) -> [BeastFrame] where S.Element == UInt8 {
        var out: [BeastFrame] = []
        push(bytes) { (frame: BeastFrame) in out.append(frame) }
        return out
    }

    /// Ends a UUID announcement: 8…32 digits name a receiver (readsb pads short ones).
    mutating func finishUUID() {
        announcements += 1
        if let id = ReceiverID.uuid(hexDigits: uuidDigits) { announcement.identify(id) } else { badAnnouncements += 1 }
        uuidDigits.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func step(_ b: UInt8, _ emit: (BeastFrame, ReceiverAnnouncement) -> Void) {
        switch state {
        case .uuidText:
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                uuidDigits.append(b | 0x20)
                if uuidDigits.count == 32 { finishUUID(); state = .hunting }
            case UInt8(ascii: "-"):
                break
            case BeastFrame.escape:
                finishUUID()
                state = .type
            default:
                finishUUID()
                garbageBytes += 1
                state = .hunting
            }
        case .hunting:
            if b == BeastFrame.escape { state = .type } else { garbageBytes += 1 }
        case .type:
            startFrame(type: b)
        case .body:
            if escapePending {
                escapePending = false
                if b == BeastFrame.escape {
                    append(b, emit)
                } else {
                    // The 0x1A was a lone frame start: abandon the partial frame.
                    resyncs += 1
                    startFrame(type: b)
                }
            } else if b == BeastFrame.escape {
                escapePending = true
            } else {
                append(b, emit)
            }
        }
    }

    mutating func startFrame(type b: UInt8) {
        if b == ReceiverAnnouncement.typeUUID {
            uuidDigits.removeAll(keepingCapacity: true)
            state = .uuidText
        } else if b == ReceiverAnnouncement.typeBinaryID || b == ReceiverAnnouncement.typeDetails {
            // 8 id bytes; or a length byte, the details' length is known once it is read.
            frameType = b
            need = b == ReceiverAnnouncement.typeBinaryID ? 8 : 1
            collected.removeAll(keepingCapacity: true)
            escapePending = false
            state = .body
        } else if let length = BeastFrame.payloadLength(type: b) {
            frameType = b
            need = 7 + length
            collected.removeAll(keepingCapacity: true)
            escapePending = false
            state = .body
        } else if b == BeastFrame.escape {
            // 0x1A 0x1A outside a frame: an escaped data byte of a frame we did not see start.
            garbageBytes += 2
            state = .hunting
        } else {
            garbageBytes += 2
            state = .hunting
        }
    }

    mutating func append(_ b: UInt8, _ emit: (BeastFrame, ReceiverAnnouncement) -> Void) {
        collected.append(b)
        if frameType == ReceiverAnnouncement.typeDetails && collected.count == 1 {
            need = 1 + Int(b)
        }
        guard collected.count >= need else { return }
        state = .hunting
        switch frameType {
        case ReceiverAnnouncement.typeBinaryID:
            announcements += 1
            var bits: UInt64 = 0
            for byte in collected { bits = bits << 8 | UInt64(byte) }
            announcement.identify(ReceiverID.uuid(high: bits))
            return
        case ReceiverAnnouncement.typeDetails:
            announcements += 1
            if !announcement.apply(details: collected[1...]) { badAnnouncements += 1 }
            return
        default:
            break
        }
        var timestamp: UInt64 = 0
        for i in 0..<6 { timestamp = timestamp << 8 | UInt64(collected[i]) }
        let signal = collected[6]
        switch frameType {
        case BeastFrame.typeModeAC:
            frames += 1
            emit(.modeAC(code: UInt16(collected[7]) << 8 | UInt16(collected[8]), timestamp: timestamp, signal: signal), announcement)
        case BeastFrame.typeShort, BeastFrame.typeLong:
            guard let frame = Frame(bytes: collected[7...]),
                  Frame.bitCount(forDownlinkFormat: frame.downlinkFormat) == frame.bitCount else {
                dropped += 1
                return
            }
            frames += 1
            emit(.modeS(frame: frame, timestamp: timestamp, signal: signal), announcement)
        default:
            dropped += 1
        }
    }
}

/// Commands a client sends to a Beast output (FORMATS.md): `0x1A 0x31 X`, X = `J`/`j` Mode A/C
/// on/off, `V`/`v` verbatim frames on/off. Anything else on the socket is ignored.
public enum BeastCommand: Hashable, Sendable {
    case modeAC(Bool)
    case verbatim(Bool)
    /// Another option letter (readsb knows more: `C`/`c` CRC check, `D`/`d` DF11/17 only, …).
    case other(UInt8)
}

/// Streaming reader of client commands on a Beast output connection.
public struct BeastCommandReader: Sendable {
    var stage = 0
    public init() {}

    public mutating func push<S: Sequence>(_ bytes: S, _ emit: (BeastCommand) -> Void) where S.Element == UInt8 {
        for b in bytes {
            switch stage {
            case 0: stage = b == BeastFrame.escape ? 1 : 0
            case 1: stage = b == 0x31 ? 2 : (b == BeastFrame.escape ? 1 : 0)
            default:
                stage = 0
                switch b {
                case UInt8(ascii: "J"): emit(.modeAC(true))
                case UInt8(ascii: "j"): emit(.modeAC(false))
                case UInt8(ascii: "V"): emit(.verbatim(true))
                case UInt8(ascii: "v"): emit(.verbatim(false))
                default: emit(.other(b))
                }
            }
        }
    }
}
