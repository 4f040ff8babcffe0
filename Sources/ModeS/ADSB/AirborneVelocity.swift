import RealModule

/// Airborne velocity, TC 19 (BDS 0,9; DO-260B §2.2.3.2.6).
///
/// Subtypes 1–2 (ground speed; 2 is supersonic, ×4):
///
/// | ME bits | field |
/// |---|---|
/// | 6–8 | subtype |
/// | 9 | intent change flag |
/// | 10 | IFR capability (versions 0–1) |
/// | 11–13 | NACv (NUCr in version 0) |
/// | 14 | east-west direction (1 = west) |
/// | 15–24 | east-west velocity + 1, kt (0 = not available) |
/// | 25 | north-south direction (1 = south) |
/// | 26–35 | north-south velocity + 1, kt |
/// | 36 | vertical rate source (0 GNSS, 1 baro) |
/// | 37 | vertical rate sign (1 = down) |
/// | 38–46 | vertical rate / 64 + 1, ft/min (0 = not available) |
/// | 49 | GNSS-baro difference sign (1 = GNSS below baro) |
/// | 50–56 | difference / 25 + 1, ft (0 = not available) |
///
/// Subtypes 3–4 (air speed; 4 is supersonic, ×4): bit 14 heading status, 15–24 magnetic
/// heading in 360/1024 degree steps, bit 25 airspeed type (0 IAS, 1 TAS), 26–35 airspeed + 1.
public struct AirborneVelocity: Hashable, Sendable {
    public var subtype: Int
    public var intentChange: Bool
    /// NACv (or NUCr in version 0).
    public var nacV: Int
    /// East and north components over ground, kt (subtypes 1–2).
    public var velocityEast: Int?
    public var velocityNorth: Int?
    /// Magnetic heading, degrees (subtypes 3–4, when available).
    public var heading: Double?
    /// Indicated or true airspeed, kt (subtypes 3–4).
    public var indicatedAirspeed: Int?
    public var trueAirspeed: Int?
    /// Vertical rate, ft/min, from the barometric or the GNSS source.
    public var baroRate: Int?
    public var geomRate: Int?
    /// GNSS height minus barometric altitude, ft.
    public var geomDelta: Int?

    public init?(_ me: MessageField) {
        guard me.typeCode == 19 else { return nil }
        let st = me.int(6, 8)
        guard (1...4).contains(st) else { return nil }
        subtype = st
        intentChange = me.bit(9)
        nacV = me.int(11, 13)
        let scale = (st == 2 || st == 4) ? 4 : 1
        if st <= 2 {
            let ew = me.int(15, 24), ns = me.int(26, 35)
            if ew != 0 && ns != 0 {
                velocityEast = (ew - 1) * scale * (me.bit(14) ? -1 : 1)
                velocityNorth = (ns - 1) * scale * (me.bit(25) ? -1 : 1)
            }
        } else {
            if me.bit(14) { heading = Double(me.int(15, 24)) * 360.0 / 1024.0 }
            let speed = me.int(26, 35)
            if speed != 0 {
                if me.bit(25) { trueAirspeed = (speed - 1) * scale } else { indicatedAirspeed = (speed - 1) * scale }
            }
        }
        let vr = me.int(38, 46)
        if vr != 0 {
            let rate = (vr - 1) * 64 * (me.bit(37) ? -1 : 1)
            if me.bit(36) { baroRate = rate } else { geomRate = rate }
        }
        let delta = me.int(50, 56)
        if delta != 0 { geomDelta = (delta - 1) * 25 * (me.bit(49) ? -1 : 1) }
    }

    /// Ground speed, kt, truncated to whole knots as the published decoders report it.
    public var groundSpeed: Double? {
        guard let e = velocityEast, let n = velocityNorth else { return nil }
        return Double(e * e + n * n).squareRoot().rounded(.towardZero)
    }

    /// True track over ground, degrees 0..<360; nil when the aircraft is not moving.
    public var track: Double? {
        guard let e = velocityEast, let n = velocityNorth, e != 0 || n != 0 else { return nil }
        let degrees = Double.atan2(y: Double(e), x: Double(n)) * 180 / Double.pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(0, 9)
        fields.gs = groundSpeed
        fields.track = track
        fields.magHeading = heading
        fields.ias = indicatedAirspeed
        fields.tas = trueAirspeed
        fields.baroRate = baroRate
        fields.geomRate = geomRate
        fields.geomDelta = geomDelta
        fields.nacV = nacV
    }
}
