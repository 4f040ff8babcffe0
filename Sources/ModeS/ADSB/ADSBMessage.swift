/// The content of an extended squitter ME field, by format type code (DO-260B §2.2.3.2,
/// ICAO Doc 9871 Appendix C Table C-1).
public enum ADSBMessage: Hashable, Sendable {
    /// TC 0: no position information (an altitude may be present).
    case noPosition(altitude: Int?)
    /// TC 1–4.
    case identification(Identification)
    /// TC 5–8.
    case surfacePosition(SurfacePosition)
    /// TC 9–18, 20–22.
    case airbornePosition(AirbornePosition)
    /// TC 19.
    case airborneVelocity(AirborneVelocity)
    /// TC 28.
    case aircraftStatus(AircraftStatus)
    /// TC 29.
    case targetState(TargetStateAndStatus)
    /// TC 31.
    case operationalStatus(OperationalStatus)
    /// Type codes and subtypes with no defined or supported content (23–27, 30, reserved
    /// subtypes): the raw ME field is kept.
    case other(typeCode: Int, me: MessageField)

    /// Decodes an ME field; never fails (unknown content becomes `.other`).
    public init(_ me: MessageField) {
        let tc = me.typeCode
        switch tc {
        case 0: self = .noPosition(altitude: Altitude.fromAC12(UInt32(me.bits(9, 20))))
        case 1...4: if let m = Identification(me) { self = .identification(m) } else { self = .other(typeCode: tc, me: me) }
        case 5...8: if let m = SurfacePosition(me) { self = .surfacePosition(m) } else { self = .other(typeCode: tc, me: me) }
        case 9...18, 20...22: if let m = AirbornePosition(me) { self = .airbornePosition(m) } else { self = .other(typeCode: tc, me: me) }
        case 19: if let m = AirborneVelocity(me) { self = .airborneVelocity(m) } else { self = .other(typeCode: tc, me: me) }
        case 28: if let m = AircraftStatus(me) { self = .aircraftStatus(m) } else { self = .other(typeCode: tc, me: me) }
        case 29: if let m = TargetStateAndStatus(me) { self = .targetState(m) } else { self = .other(typeCode: tc, me: me) }
        case 31: if let m = OperationalStatus(me) { self = .operationalStatus(m) } else { self = .other(typeCode: tc, me: me) }
        default: self = .other(typeCode: tc, me: me)
        }
    }

    /// Writes the message's values into `fields`.
    public func contribute(to fields: inout FieldSet) {
        switch self {
        case .noPosition(let altitude): fields.altBaro = altitude
        case .identification(let m): m.contribute(to: &fields)
        case .surfacePosition(let m): m.contribute(to: &fields)
        case .airbornePosition(let m): m.contribute(to: &fields)
        case .airborneVelocity(let m): m.contribute(to: &fields)
        case .aircraftStatus(let m): m.contribute(to: &fields)
        case .targetState(let m): m.contribute(to: &fields)
        case .operationalStatus(let m): m.contribute(to: &fields)
        case .other: break
        }
    }
}
