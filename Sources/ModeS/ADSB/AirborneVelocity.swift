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
    // Stored: the ME field only; every value is read from it on access (a small plain value).
    /// The ME field as received.
    public let me: MessageField

    public init?(_ me: MessageField) {
        guard me.typeCode == 19, (1...4).contains(me.int(6, 8)) else { return nil }
        self.me = me
    }

    public var subtype: Int { me.int(6, 8) }
    public var intentChange: Bool { me.bit(9) }
    /// NACv (or NUCr in version 0).
    public var nacV: Int { me.int(11, 13) }
    /// 4 for the supersonic subtypes (2 and 4), else 1.
    private var scale: Int { subtype == 2 || subtype == 4 ? 4 : 1 }

    /// East component over ground, kt (subtypes 1–2); nil when either component is unavailable.
    public var velocityEast: Int? {
        guard subtype <= 2, me.int(15, 24) != 0, me.int(26, 35) != 0 else { return nil }
        return (me.int(15, 24) - 1) * scale * (me.bit(14) ? -1 : 1)
    }

    /// North component over ground, kt (subtypes 1–2); nil when either component is unavailable.
    public var velocityNorth: Int? {
        guard subtype <= 2, me.int(15, 24) != 0, me.int(26, 35) != 0 else { return nil }
        return (me.int(26, 35) - 1) * scale * (me.bit(25) ? -1 : 1)
    }

    /// Magnetic heading, degrees (subtypes 3–4, when available).
    public var heading: Double? {
        guard subtype >= 3, me.bit(14) else { return nil }
        return Double(me.int(15, 24)) * 360.0 / 1024.0
    }

    /// Airspeed, kt (subtypes 3–4), when present.
    private var airspeed: Int? {
        guard subtype >= 3, me.int(26, 35) != 0 else { return nil }
        return (me.int(26, 35) - 1) * scale
    }

    /// Indicated airspeed, kt (subtypes 3–4, airspeed type bit 0).
    public var indicatedAirspeed: Int? { me.bit(25) ? nil : airspeed }
    /// True airspeed, kt (subtypes 3–4, airspeed type bit 1).
    public var trueAirspeed: Int? { me.bit(25) ? airspeed : nil }

    /// Vertical rate, ft/min, whichever the source bit says.
    private var verticalRate: Int? {
        let vr = me.int(38, 46)
        return vr == 0 ? nil : (vr - 1) * 64 * (me.bit(37) ? -1 : 1)
    }

    /// Barometric vertical rate, ft/min (source bit 1).
    public var baroRate: Int? { me.bit(36) ? verticalRate : nil }
    /// GNSS vertical rate, ft/min (source bit 0).
    public var geomRate: Int? { me.bit(36) ? nil : verticalRate }

    /// GNSS height minus barometric altitude, ft.
    public var geomDelta: Int? {
        let delta = me.int(50, 56)
        return delta == 0 ? nil : (delta - 1) * 25 * (me.bit(49) ? -1 : 1)
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
