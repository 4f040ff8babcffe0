/// Surface position, TC 5–8 (BDS 0,6; DO-260B §2.2.3.2.4).
///
/// | ME bits | field |
/// |---|---|
/// | 1–5 | type code |
/// | 6–12 | movement (ground speed, non-linear quantisation, kt) |
/// | 13 | ground track status (1 = valid) |
/// | 14–20 | ground track, 360/128 degree steps |
/// | 21 | time synchronised to UTC |
/// | 22 | CPR format |
/// | 23–39 | CPR latitude (17 bits) |
/// | 40–56 | CPR longitude (17 bits) |
public struct SurfacePosition: Hashable, Sendable {
    public var typeCode: Int
    /// Ground speed, kt: the lower bound of the movement code's range (nil: no information).
    public var groundSpeed: Double?
    /// True ground track, degrees; nil when the status bit says invalid.
    public var track: Double?
    public var utcSynchronised: Bool
    /// CPR format, and the 17-bit encoded latitude and longitude.
    public var cprFormat: CPRFormat
    public var cprLat: UInt32
    public var cprLon: UInt32

    public init?(_ me: MessageField) {
        let tc = me.typeCode
        guard (5...8).contains(tc) else { return nil }
        typeCode = tc
        groundSpeed = SurfacePosition.speed(movement: me.int(6, 12))
        track = me.bit(13) ? Double(me.int(14, 20)) * 360.0 / 128.0 : nil
        utcSynchronised = me.bit(21)
        cprFormat = me.bit(22) ? .odd : .even
        cprLat = UInt32(me.bits(23, 39))
        cprLon = UInt32(me.bits(40, 56))
    }

    /// The movement code (DO-260B Table 2-13) as ground speed in kt, the lower bound of each
    /// quantisation step: 1 stopped; 2–8 0.125 kt steps; 9–12 0.25; 13–38 0.5; 39–93 1;
    /// 94–108 2; 109–123 5; 124 ≥ 175 kt. 0 (no information) and 125–127 (reserved) give nil.
    @inlinable
    public static func speed(movement m: Int) -> Double? {
        switch m {
        case 1: 0
        case 2...8: 0.125 + Double(m - 2) * 0.125
        case 9...12: 1 + Double(m - 9) * 0.25
        case 13...38: 2 + Double(m - 13) * 0.5
        case 39...93: 15 + Double(m - 39)
        case 94...108: 70 + Double(m - 94) * 2
        case 109...123: 100 + Double(m - 109) * 5
        case 124: 175
        default: nil
        }
    }

    /// The encoded position as one value, for CPR decoding.
    public var cpr: CPRPosition { CPRPosition(format: cprFormat, lat: cprLat, lon: cprLon) }

    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(0, 6)
        fields.gs = groundSpeed
        fields.track = track
        fields.onGround = true
        fields.cprFormat = cprFormat
        fields.cprLat = Int(cprLat)
        fields.cprLon = Int(cprLon)
    }
}
