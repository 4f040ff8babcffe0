import ModeS
import Tracking

/// Why a line produced no decoded message.
public enum DecodeLineError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(FrameLineError)
    /// The frame's parity did not check out and could not be corrected.
    case parity(syndrome: UInt32)

    public var description: String {
        switch self {
        case .malformed(let e): e.description
        case .parity(let s): "parity check failed (syndrome \(Frame.hexString(UInt128(s), digits: 6, uppercase: false)))"
        }
    }
}

/// The stateful decoding behind `flytracker decode`: one frame in, one decoded key set out.
/// Positions and their integrity come from the same engine as `run`'s: each frame goes
/// through an aircraft table (`Tracking.AircraftTable`, its CPR pairing windows, global,
/// local and surface decoding, range and speed checks, NIC from the operational status),
/// so the same frames with the same times give the same positions in both commands. The
/// same path serves every input line, whatever its form.
///
/// Times: a frame's own (AVR `@` timestamps, or the caller's). A frame without one is
/// taken at the latest time seen (0 before any): no time has passed, so it pairs with the
/// aircraft's last half and decodes against its last position, and no speed check is made
/// (it needs the time between two positions).
public struct DecodeSession: Sendable {
    /// The range the checks allow around a reference by default, NM: the distance within
    /// which a lone airborne message decodes unambiguously, so `--ref` decodes single
    /// positions (`run` allows 300 NM and decodes lone airborne messages only against the
    /// aircraft's own position).
    public static let defaultMaxRange = 180.0

    private var table: AircraftTable
    /// The latest time a frame carried, seconds.
    private var latest = 0.0

    /// Reference position (receiver or airport), if any: lone messages decode against it,
    /// and positions farther than `maxRange` NM from it are rejected.
    public var reference: Coordinate? {
        get { table.configuration.receiver }
        set { table.configuration = Self.configuration(reference: newValue, maxRange: table.configuration.maxRange) }
    }

    /// Aircraft the session remembers (at most the table's capacity; an aircraft silent for
    /// five minutes of frame time is forgotten).
    public var aircraftCount: Int { table.count }

    public init(reference: Coordinate? = nil, maxRange: Double = DecodeSession.defaultMaxRange) {
        table = AircraftTable(configuration: Self.configuration(reference: reference, maxRange: maxRange))
    }

    /// The table configuration of a session: `run`'s, with `reference` as the receiver and
    /// `maxRange` NM.
    public static func configuration(reference: Coordinate?, maxRange: Double = defaultMaxRange) -> TableConfiguration {
        let usable = reference.flatMap { $0.latitude.isFinite && $0.longitude.isFinite ? $0 : nil }
        var configuration = TableConfiguration(receiver: usable)
        configuration.maxRange = maxRange
        return configuration
    }

    /// Decodes one line of text. `time` (seconds) overrides the line's own timestamp, if any.
    /// Returns nil for lines with nothing to decode (blank lines, heartbeats).
    public mutating func decode(line: Substring, time: Double? = nil) throws(DecodeLineError) -> FieldSet? {
        let received: ReceivedFrame?
        do { received = try AVRLine.parse(line) } catch { throw .malformed(error) }
        guard let received else { return nil }
        return try decode(received, time: time ?? received.seconds)
    }

    /// Decodes one received frame at `time` seconds (nil when unknown).
    public mutating func decode(_ received: ReceivedFrame, time: Double?) throws(DecodeLineError) -> FieldSet {
        guard let message = ModeSMessage.decode(received.frame) else {
            throw .parity(syndrome: CRC24.syndrome(of: received.frame))
        }
        var fields = message.fields
        fields.signal = received.signal
        let known = time.flatMap { $0.isFinite ? $0 : nil }
        if let known { latest = known }
        let accepted = table.counters.cpr.globalOK &+ table.counters.cpr.localOK
        table.apply(message, received: received, at: latest, timeKnown: known != nil)
        if case .extendedSquitter(let es) = message.content {
            switch es.message {
            case .airbornePosition?, .surfacePosition?:
                if table.counters.cpr.globalOK &+ table.counters.cpr.localOK != accepted,
                   let position = table.position(givenBy: message, at: latest) {
                    fields.lat = position.latitude
                    fields.lon = position.longitude
                }
                fields.nic = table.nic(of: message)
            default: break
            }
        }
        return fields
    }
}
