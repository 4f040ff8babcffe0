/// Aircraft status, TC 28 (BDS 6,1): the emergency/priority state with the Mode A code, or
/// an ACAS resolution advisory broadcast.
///
/// | ME bits | subtype 1: emergency/priority status | subtype 2: ACAS RA broadcast |
/// |---|---|---|
/// | 1–5 | type code = 28 | type code = 28 |
/// | 6–8 | subtype = 1 | subtype = 2 |
/// | 9–11 | emergency state (`Emergency`) | 9–56: the RA report, laid out as Comm-B BDS 3,0 bits 9–56 (`ResolutionAdvisory`) |
/// | 12–24 | Mode A code, 13-bit ID code (C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4) | |
/// | 25–56 | reserved | |
///
/// Subtype 0 ("no information") and 3–7 (reserved) decode to `.reserved(subtype:)`.
///
/// Spec: DO-260B §2.2.3.2.7.8; ICAO Doc 9871 Table B-2-97a (subtype 1) and the BDS 3,0 table
/// A-2-48 for the subtype 2 payload.
public enum AircraftStatus: Hashable, Sendable {
    /// Subtype 1.
    case emergency(EmergencyStatus)
    /// Subtype 2.
    case resolutionAdvisory(ResolutionAdvisory)
    /// Subtype 0 (no information) or 3–7 (reserved).
    case reserved(subtype: Int)

    /// Decodes a TC 28 ME field; nil for any other type code.
    public init?(_ me: MessageField) {
        guard me.typeCode == 28 else { return nil }
        let subtype = me.int(6, 8)
        switch subtype {
        case 1: self = .emergency(EmergencyStatus(me))
        case 2: self = .resolutionAdvisory(ResolutionAdvisory(me))
        default: self = .reserved(subtype: subtype)
        }
    }

    /// Writes bds 6,1 and, for subtype 1, the emergency state and the squawk.
    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(6, 1)
        if case .emergency(let status) = self {
            fields.emergency = status.emergency
            if let squawk = status.squawk { fields.squawk = squawk }
        }
    }
}

/// The emergency/priority status of TC 28 subtype 1 (DO-260B §2.2.3.2.7.8.1).
public struct EmergencyStatus: Hashable, Sendable {
    /// The emergency/priority state, ME bits 9–11.
    public var emergency: Emergency
    /// The Mode A code as 12 bits (print with `Squawk.string`); nil when the 13-bit ID code
    /// (ME bits 12–24) is all zero, which is treated as "no code available" (as dump1090 and
    /// readsb do).
    public var squawk: UInt16?

    public init(emergency: Emergency, squawk: UInt16?) {
        self.emergency = emergency
        self.squawk = squawk
    }

    /// Reads ME bits 9–24 (the caller checks the type code and subtype).
    public init(_ me: MessageField) {
        emergency = Emergency(rawValue: me.int(9, 11)) ?? .reserved
        let id13 = UInt32(truncatingIfNeeded: me.bits(12, 24))
        squawk = id13 == 0 ? nil : Squawk.fromID13(id13)
    }
}
