import Foundation
import ModeS

/// One frame of the Beast binary format (FORMATS.md, "Beast binary"):
///
/// ```
/// 0x1A  TYPE  TS0 TS1 TS2 TS3 TS4 TS5  SIG  PAYLOAD…
/// ```
///
/// | field | bytes | meaning |
/// |---|---|---|
/// | TYPE | 1 | `'1'` Mode A/C (2 payload bytes), `'2'` Mode S short (7), `'3'` Mode S long (14), `'4'` status (ignored) |
/// | TS | 6 | 48-bit big-endian 12 MHz counter at the end of bit 56; 0 = unknown |
/// | SIG | 1 | `round(sqrt(power) · 255)` clamped to 1…255, power 0…1 of full scale; 0 = unknown |
/// | PAYLOAD | 2/7/14 | the reply bits in transmission order |
///
/// Every 0x1A after the type byte is sent twice.
public enum BeastFrame: Hashable, Sendable {
    /// A Mode S frame (type '2' or '3').
    case modeS(frame: Frame, timestamp: UInt64, signal: UInt8)
    /// A Mode A/C reply (type '1'); the all-zero one is the heartbeat.
    case modeAC(code: UInt16, timestamp: UInt64, signal: UInt8)

    /// The escape / frame start byte.
    public static let escape: UInt8 = 0x1A
    /// Type bytes.
    public static let typeModeAC: UInt8 = 0x31
    public static let typeShort: UInt8 = 0x32
    public static let typeLong: UInt8 = 0x33
    public static let typeStatus: UInt8 = 0x34
    /// Timestamp readsb puts on MLAT results ("MLAT" in ASCII after 0xFF00); never forwarded
    /// as received data.
    public static let mlatTimestamp: UInt64 = 0xFF00_4D4C_4154

    /// The heartbeat: an all-zero Mode A/C frame.
    public static let heartbeat = BeastFrame.modeAC(code: 0, timestamp: 0, signal: 0)

    /// Payload bytes after the signal byte for a type byte; nil for an unknown type.
    public static func payloadLength(type: UInt8) -> Int? {
        switch type {
        case typeModeAC: 2
        case typeShort: 7
        case typeLong, typeStatus: 14
        default: nil
        }
    }

    /// The Beast frame of a received Mode S frame (timestamp truncated to 48 bits).
    public init(_ received: ReceivedFrame) {
        self = .modeS(frame: received.frame, timestamp: received.timestamp & 0xFFFF_FFFF_FFFF,
                      signal: BeastFrame.signalByte(dBFS: received.signal))
    }

    public var timestamp: UInt64 {
        switch self {
        case .modeS(_, let t, _), .modeAC(_, let t, _): t
        }
    }

    public var signal: UInt8 {
        switch self {
        case .modeS(_, _, let s), .modeAC(_, _, let s): s
        }
    }

    /// The frame as a `ReceivedFrame` (signal in dBFS, nil when the byte is 0); nil for Mode A/C.
    public var received: ReceivedFrame? {
        guard case .modeS(let frame, let t, let s) = self else { return nil }
        return ReceivedFrame(frame: frame, timestamp: t, signal: BeastFrame.dBFS(signalByte: s))
    }

    /// True when the timestamp is the MLAT marker.
    public var isMLAT: Bool { timestamp == BeastFrame.mlatTimestamp }

    /// `round(sqrt(power) · 255)` clamped to 1…255 with power = 10^(dBFS/10); 0 when unknown.
    public static func signalByte(dBFS: Double?) -> UInt8 {
        guard let dBFS, !dBFS.isNaN else { return 0 }
        let power = Foundation.pow(10, dBFS / 10)
        let value = (power.squareRoot() * 255).rounded()
        if !(value >= 1) { return 1 }
        if value >= 255 { return 255 }
        return UInt8(value)
    }

    /// RSSI in dBFS of a signal byte: 10·log10((sig/255)²); nil for 0 (unknown).
    public static func dBFS(signalByte: UInt8) -> Double? {
        guard signalByte > 0 else { return nil }
        let amplitude = Double(signalByte) / 255
        return 10 * Foundation.log10(amplitude * amplitude)
    }

    /// Appends the escaped wire bytes of this frame to `out`.
    public func encode(into out: inout [UInt8]) {
        out.append(BeastFrame.escape)
        let t: UInt64
        switch self {
        case .modeS(let frame, let ts, _):
            out.append(frame.isLong ? BeastFrame.typeLong : BeastFrame.typeShort)
            t = ts
        case .modeAC(_, let ts, _):
            out.append(BeastFrame.typeModeAC)
            t = ts
        }
        func put(_ b: UInt8) {
            out.append(b)
            if b == BeastFrame.escape { out.append(b) }
        }
        for shift in stride(from: 40, through: 0, by: -8) { put(UInt8(truncatingIfNeeded: t >> UInt64(shift))) }
        put(signal)
        switch self {
        case .modeS(let frame, _, _):
            for i in 0..<frame.byteCount { put(frame.byte(i)) }
        case .modeAC(let code, _, _):
            put(UInt8(truncatingIfNeeded: code >> 8))
            put(UInt8(truncatingIfNeeded: code))
        }
    }

    /// The escaped wire bytes of this frame.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(40)
        encode(into: &out)
        return out
    }
}
