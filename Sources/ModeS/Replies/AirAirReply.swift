/// Air-air surveillance replies: DF0 (short) and DF16 (long, with ACAS coordination)
/// (Annex 10 Vol IV §4.3.8.4.2).
///
/// | frame bits | field |
/// |---|---|
/// | 6 | VS vertical status (1 = on the ground) |
/// | 7 | CC cross-link capability (DF0) |
/// | 9–11 | SL sensitivity level (ACAS) |
/// | 14–17 | RI reply information (air-air: ACAS capability and maximum airspeed) |
/// | 20–32 | AC altitude code |
/// | 33–88 | MV ACAS message (DF16) |
public struct AirAirReply: Hashable, Sendable {
    public var verticalStatus: Int
    public var crossLink: Bool
    public var sensitivityLevel: Int
    public var replyInformation: Int
    /// Barometric altitude, ft.
    public var altitude: Int?
    /// DF16 only.
    public var mv: MessageField?

    public init?(_ frame: Frame) {
        let df = frame.downlinkFormat
        guard df == 0 || df == 16 else { return nil }
        verticalStatus = Int(frame.bits(6, 6))
        crossLink = df == 0 && frame.bit(7)
        sensitivityLevel = Int(frame.bits(9, 11))
        replyInformation = Int(frame.bits(14, 17))
        altitude = Altitude.fromAC13(UInt32(frame.bits(20, 32)))
        if df == 16 { mv = frame.messageField }
    }

    public func contribute(to fields: inout FieldSet) {
        fields.vs = verticalStatus
        fields.onGround = verticalStatus == 1
        fields.altBaro = altitude
    }
}
