import ModeS

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

/// The stateful decoding behind `flytracker decode`: one frame in, one decoded key set out,
/// with CPR state kept across frames so that even/odd pairs of one aircraft give positions.
/// The same path serves every input line, whatever its form.
public struct DecodeSession: Sendable {
    /// Reference position for local CPR decoding (receiver or airport), if any.
    public var reference: Coordinate?
    private var pairing = CPRPairing()

    public init(reference: Coordinate? = nil) {
        self.reference = reference
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
        if case .extendedSquitter(let es) = message.content, let position = es.message {
            switch position {
            case .airbornePosition(let p):
                locate(&fields, address: es.address, cpr: p.cpr, surface: false, time: time)
            case .surfacePosition(let p):
                locate(&fields, address: es.address, cpr: p.cpr, surface: true, time: time)
            default: break
            }
        }
        return fields
    }

    private mutating func locate(_ fields: inout FieldSet, address: UInt32, cpr: CPRPosition, surface: Bool, time: Double?) {
        // Positions of zero CPR fields carry no information (no fix).
        guard cpr.lat != 0 || cpr.lon != 0 else { return }
        if let c = pairing.resolve(address: address, position: cpr, surface: surface, at: time, reference: reference) {
            fields.lat = c.latitude
            fields.lon = c.longitude
        }
    }
}
