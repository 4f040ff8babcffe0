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
    /// Per aircraft: the ADS-B version and NIC supplements from its last operational status.
    private var integrity: [UInt32: IntegrityState] = [:]
    /// Bound on `integrity` (addresses), so a long run cannot grow without limit.
    private static let integrityCapacity = 10_000

    private struct IntegrityState {
        var version: Int
        var supplementA: Bool
        var supplementC: Bool
    }

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
        if case .extendedSquitter(let es) = message.content, let content = es.message {
            switch content {
            case .airbornePosition(let p):
                locate(&fields, address: es.address, cpr: p.cpr, surface: false, time: time)
                fields.nic = nic(of: es.address, typeCode: p.typeCode, supplementB: p.nicSupplementB)
            case .surfacePosition(let p):
                locate(&fields, address: es.address, cpr: p.cpr, surface: true, time: time)
                fields.nic = nic(of: es.address, typeCode: p.typeCode, supplementB: false)
            case .operationalStatus(let status):
                remember(status, of: es.address)
            default: break
            }
        }
        return fields
    }

    private func nic(of address: UInt32, typeCode: Int, supplementB: Bool) -> Int? {
        guard let state = integrity[address] else { return nil }
        return NavigationIntegrity.nic(typeCode: typeCode, version: state.version, supplementA: state.supplementA,
                                       supplementB: supplementB, supplementC: state.supplementC)
    }

    private mutating func remember(_ status: OperationalStatus, of address: UInt32) {
        guard status.version == 1 || status.version == 2, let a = status.nicSupplementA else { return }
        var c = false
        if case .surface(let surface)? = status.capabilities { c = surface.nicSupplementC ?? false }
        if integrity[address] == nil && integrity.count >= Self.integrityCapacity { integrity.removeAll(keepingCapacity: true) }
        integrity[address] = IntegrityState(version: status.version, supplementA: a, supplementC: c)
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
