/// Airborne position, TC 9–18 (barometric altitude) and TC 20–22 (GNSS height)
/// (BDS 0,5; DO-260B §2.2.3.2.3).
///
/// | ME bits | field |
/// |---|---|
/// | 1–5 | type code |
/// | 6–7 | surveillance status (0 none, 1 permanent alert, 2 temporary alert, 3 SPI) |
/// | 8 | NIC supplement B (version 2) / single antenna flag (versions 0–1) |
/// | 9–20 | altitude: AC12 code, 25 ft or Gillham 100 ft steps (baro for TC 9–18, GNSS height for 20–22) |
/// | 21 | time synchronised to UTC |
/// | 22 | CPR format (0 even, 1 odd) |
/// | 23–39 | CPR latitude (17 bits) |
/// | 40–56 | CPR longitude (17 bits) |
public struct AirbornePosition: Hashable, Sendable {
    public var typeCode: Int
    public var surveillanceStatus: Int
    /// NIC supplement B (version 2) or single-antenna flag (earlier versions).
    public var nicSupplementB: Bool
    /// Barometric altitude, ft (TC 9–18).
    public var baroAltitude: Int?
    /// GNSS height above the ellipsoid, ft (TC 20–22).
    public var gnssAltitude: Int?
    public var utcSynchronised: Bool
    /// CPR format, and the 17-bit encoded latitude and longitude.
    public var cprFormat: CPRFormat
    public var cprLat: UInt32
    public var cprLon: UInt32

    public init?(_ me: MessageField) {
        let tc = me.typeCode
        guard (9...18).contains(tc) || (20...22).contains(tc) else { return nil }
        typeCode = tc
        surveillanceStatus = me.int(6, 7)
        nicSupplementB = me.bit(8)
        let altitude = Altitude.fromAC12(UInt32(me.bits(9, 20)))
        if tc <= 18 { baroAltitude = altitude } else { gnssAltitude = altitude }
        utcSynchronised = me.bit(21)
        cprFormat = me.bit(22) ? .odd : .even
        cprLat = UInt32(me.bits(23, 39))
        cprLon = UInt32(me.bits(40, 56))
    }

    /// The encoded position as one value, for CPR decoding.
    public var cpr: CPRPosition { CPRPosition(format: cprFormat, lat: cprLat, lon: cprLon) }

    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(0, 5)
        fields.altBaro = baroAltitude
        fields.altGeom = gnssAltitude
        fields.cprFormat = cprFormat
        fields.cprLat = Int(cprLat)
        fields.cprLon = Int(cprLon)
        switch surveillanceStatus {
        case 1: fields.alert = true
        case 2: fields.alert = true
        case 3: fields.spi = true
        default: break
        }
    }
}
