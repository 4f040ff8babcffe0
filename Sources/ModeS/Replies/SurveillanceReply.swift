/// Surveillance and Comm-B replies: DF4 (altitude), DF5 (identity), DF20 (Comm-B altitude),
/// DF21 (Comm-B identity) (Annex 10 Vol IV §3.1.2.6.5, §3.1.2.6.7, §3.1.2.6.6).
///
/// | frame bits | field |
/// |---|---|
/// | 6–8 | FS flight status |
/// | 9–13 | DR downlink request |
/// | 14–19 | UM utility message (IIS 4 bits, IDS 2 bits) |
/// | 20–32 | AC altitude code (DF4/20) or ID identity code (DF5/21) |
/// | 33–88 | MB Comm-B message (DF20/21) |
/// | last 24 | AP address/parity |
public struct SurveillanceReply: Hashable, Sendable {
    // Stored small (replies are copied a lot); the public values are read from these.
    private let format: UInt8
    private let status: UInt8
    private let request: UInt8
    private let utility: UInt8
    private let code: UInt16
    /// The Comm-B field (DF20/21).
    public let mb: MessageField?

    public var flightStatus: Int { Int(status) }
    public var downlinkRequest: Int { Int(request) }
    public var utilityMessage: Int { Int(utility) }
    /// Barometric altitude, ft (DF4/20).
    public var altitude: Int? { format == 4 || format == 20 ? Altitude.fromAC13(UInt32(code)) : nil }
    /// Mode A code, 12 bits (DF5/21).
    public var identity: UInt16? { format == 5 || format == 21 ? Squawk.fromID13(UInt32(code)) : nil }

    public init?(_ frame: Frame) {
        let df = frame.downlinkFormat
        guard df == 4 || df == 5 || df == 20 || df == 21 else { return nil }
        format = UInt8(df)
        status = UInt8(frame.bits(6, 8))
        request = UInt8(frame.bits(9, 13))
        utility = UInt8(frame.bits(14, 19))
        code = UInt16(frame.bits(20, 32))
        mb = df >= 20 ? frame.messageField : nil
    }

    /// FS 1 and 3 mean on the ground, 0 and 2 airborne; 4 and 5 say nothing.
    public var onGround: Bool? {
        switch flightStatus {
        case 0, 2: false
        case 1, 3: true
        default: nil
        }
    }

    public func contribute(to fields: inout FieldSet) {
        fields.fs = flightStatus
        fields.dr = downlinkRequest
        fields.um = utilityMessage
        fields.altBaro = altitude
        if let identity {
            fields.squawk = identity
            if let emergency = Emergency(squawk: identity) { fields.emergency = emergency }
        }
        fields.onGround = onGround
        fields.alert = (2...4).contains(flightStatus)
        fields.spi = flightStatus == 4 || flightStatus == 5
    }
}
