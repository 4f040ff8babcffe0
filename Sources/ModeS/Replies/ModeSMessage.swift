/// The content of a Mode S downlink frame, by downlink format.
public enum DownlinkContent: Hashable, Sendable {
    /// DF0.
    case shortAirAir(AirAirReply)
    /// DF4.
    case surveillanceAltitude(SurveillanceReply)
    /// DF5.
    case surveillanceIdentity(SurveillanceReply)
    /// DF11.
    case allCall(AllCallReply)
    /// DF16.
    case longAirAir(AirAirReply)
    /// DF17, DF18.
    case extendedSquitter(ExtendedSquitter)
    /// DF19 military extended squitter: application field and the raw frame.
    case militaryExtendedSquitter(application: Int)
    /// DF20 with the Comm-B register inferred (nil when inference was not confident or skipped).
    case commBAltitude(SurveillanceReply, CommBRegister?)
    /// DF21.
    case commBIdentity(SurveillanceReply, CommBRegister?)
    /// DF24 Comm-D extended length message, raw.
    case commD
    /// Formats with no defined downlink content.
    case unknown
}

/// A decoded Mode S message: the checked frame and its content.
public struct ModeSMessage: Hashable, Sendable {
    /// The frame after any correction.
    public let parity: ParityResult
    public let content: DownlinkContent

    public var frame: Frame { parity.frame }
    public var downlinkFormat: Int { parity.frame.downlinkFormat }
    public var address: UInt32 { parity.address }

    /// Decodes a frame that passed `ParityCheck`. Comm-B inference is skipped for frames
    /// whose bits were corrected. Never fails.
    public init(_ parity: ParityResult) {
        self.parity = parity
        let frame = parity.frame
        switch frame.downlinkFormat {
        case 0: if let r = AirAirReply(frame) { content = .shortAirAir(r) } else { content = .unknown }
        case 4: if let r = SurveillanceReply(frame) { content = .surveillanceAltitude(r) } else { content = .unknown }
        case 5: if let r = SurveillanceReply(frame) { content = .surveillanceIdentity(r) } else { content = .unknown }
        case 11: if let r = AllCallReply(frame) { content = .allCall(r) } else { content = .unknown }
        case 16: if let r = AirAirReply(frame) { content = .longAirAir(r) } else { content = .unknown }
        case 17, 18: if let r = ExtendedSquitter(frame) { content = .extendedSquitter(r) } else { content = .unknown }
        case 19: content = .militaryExtendedSquitter(application: Int(frame.bits(6, 8)))
        case 20, 21:
            guard let reply = SurveillanceReply(frame) else { content = .unknown; break }
            let register = parity.correctedBits == 0 ? reply.mb.flatMap(CommB.infer) : nil
            content = frame.downlinkFormat == 20 ? .commBAltitude(reply, register) : .commBIdentity(reply, register)
        case 24: content = .commD
        default: content = .unknown
        }
    }

    /// Checks parity (with 2-bit correction for `known` addresses) and decodes.
    /// Returns nil when the parity check fails.
    public static func decode<K: KnownAddresses>(_ frame: Frame, known: K) -> ModeSMessage? {
        guard let parity = ParityCheck.check(frame, known: known) else { return nil }
        return ModeSMessage(parity)
    }

    /// Checks parity (1-bit correction only) and decodes.
    public static func decode(_ frame: Frame) -> ModeSMessage? {
        decode(frame, known: NoKnownAddresses())
    }

    /// The flat key set of this message (no position: CPR needs state, see `PositionDecoder`).
    public var fields: FieldSet {
        var f = FieldSet()
        f.df = downlinkFormat
        f.address = parity.address
        f.addressType = .modeS
        f.crc = parity.outcome
        if let iid = parity.interrogatorID, iid != 0 { f.iid = iid }
        switch content {
        case .shortAirAir(let r), .longAirAir(let r): r.contribute(to: &f)
        case .surveillanceAltitude(let r), .surveillanceIdentity(let r): r.contribute(to: &f)
        case .allCall(let r): r.contribute(to: &f)
        case .extendedSquitter(let es): es.contribute(to: &f)
        case .commBAltitude(let r, let register), .commBIdentity(let r, let register):
            r.contribute(to: &f)
            register?.contribute(to: &f)
        case .militaryExtendedSquitter, .commD, .unknown: break
        }
        return f
    }
}
