/// ADS-B ME fields for transmission (DO-260B §2.2.3.2): the inverses of `Identification`,
/// `AirbornePosition`, `SurfacePosition` and `AirborneVelocity`. Each layout table is on the
/// decoder; the encoders write the same bits.
extension MessageField {
    /// Identification and category, TC 1–4 (BDS 0,8; DO-260B §2.2.3.2.5): TC from the
    /// category set (A → 4 … D → 1), ME 6–8 the category number, 9–56 eight 6-bit characters.
    /// Nil when the callsign does not fit (`Callsign.encode`).
    public static func identification(category: EmitterCategory, callsign: some StringProtocol) -> MessageField? {
        guard let characters = Callsign.encode(callsign) else { return nil }
        return MessageField(0)
            .setting(1, 5, to: UInt64(category.typeCode))
            .setting(6, 8, to: UInt64(truncatingIfNeeded: category.number))
            .setting(9, 56, to: characters)
    }

    /// Airborne position, TC 9–18 (barometric altitude) or 20–22 (GNSS height) (BDS 0,5;
    /// DO-260B §2.2.3.2.3) from already encoded CPR fields. `altitude` (ft) goes into ME 9–20
    /// as `Altitude.ac12(feet:)`; nil or an altitude that cannot be coded sends 0 (not
    /// available). Nil for another type code.
    public static func airbornePosition(
        typeCode: Int = 11, surveillanceStatus: Int = 0, nicSupplementB: Bool = false,
        altitude: Int?, utcSynchronised: Bool = false, cpr: CPRPosition
    ) -> MessageField? {
        guard (9...18).contains(typeCode) || (20...22).contains(typeCode) else { return nil }
        let ac12 = altitude.flatMap(Altitude.ac12(feet:)) ?? 0
        return MessageField(0)
            .setting(1, 5, to: UInt64(typeCode))
            .setting(6, 7, to: UInt64(truncatingIfNeeded: surveillanceStatus))
            .setting(8, nicSupplementB)
            .setting(9, 20, to: UInt64(ac12))
            .setting(21, utcSynchronised)
            .setting(22, cpr.format == .odd)
            .setting(23, 39, to: UInt64(cpr.lat))
            .setting(40, 56, to: UInt64(cpr.lon))
    }

    /// Airborne position of a coordinate, CPR-encoded in `format` with `CPR.encode` (airborne
    /// zones). Nil for an invalid coordinate or type code.
    public static func airbornePosition(
        typeCode: Int = 11, surveillanceStatus: Int = 0, nicSupplementB: Bool = false,
        altitude: Int?, utcSynchronised: Bool = false, position: Coordinate, format: CPRFormat
    ) -> MessageField? {
        guard let cpr = CPR.encode(position, format: format, surface: false) else { return nil }
        return airbornePosition(
            typeCode: typeCode, surveillanceStatus: surveillanceStatus, nicSupplementB: nicSupplementB,
            altitude: altitude, utcSynchronised: utcSynchronised, cpr: cpr)
    }

    /// Surface position, TC 5–8 (BDS 0,6; DO-260B §2.2.3.2.4) from encoded CPR fields:
    /// movement (ME 6–12, `SurfacePosition.movementCode(groundSpeed:)`), track status and
    /// track (13, 14–20 in 360/128° steps, nearest; status 0 when `track` is nil), T, F,
    /// CPR latitude and longitude. Nil for another type code.
    public static func surfacePosition(
        typeCode: Int = 7, groundSpeed: Double?, track: Double?, utcSynchronised: Bool = false, cpr: CPRPosition
    ) -> MessageField? {
        guard (5...8).contains(typeCode) else { return nil }
        var field = MessageField(0)
            .setting(1, 5, to: UInt64(typeCode))
            .setting(6, 12, to: UInt64(SurfacePosition.movementCode(groundSpeed: groundSpeed)))
        if let track, track.isFinite {
            field = field.setting(13, true).setting(14, 20, to: UInt64(angleCode(track, steps: 128)))
        }
        return field
            .setting(21, utcSynchronised)
            .setting(22, cpr.format == .odd)
            .setting(23, 39, to: UInt64(cpr.lat))
            .setting(40, 56, to: UInt64(cpr.lon))
    }

    /// Surface position of a coordinate, CPR-encoded with the surface (90°) zones.
    public static func surfacePosition(
        typeCode: Int = 7, groundSpeed: Double?, track: Double?, utcSynchronised: Bool = false,
        position: Coordinate, format: CPRFormat
    ) -> MessageField? {
        guard let cpr = CPR.encode(position, format: format, surface: true) else { return nil }
        return surfacePosition(
            typeCode: typeCode, groundSpeed: groundSpeed, track: track, utcSynchronised: utcSynchronised, cpr: cpr)
    }

    /// Airborne velocity over ground, TC 19 subtype 1 (BDS 0,9; DO-260B §2.2.3.2.6.1).
    /// - velocity components in kt (east and north positive), each sent as |v| rounded + 1
    ///   (up to 1022 kt; larger values are sent as 1023, "more than 1021.5 kt") with a
    ///   direction bit (ME 14 west, 25 south);
    /// - `verticalRate` ft/min (up positive) as |rate|/64 rounded + 1 (up to 511) with the sign
    ///   in ME 37 and the source in ME 36; nil sends 0 (not available);
    /// - `geomDelta` = GNSS height − barometric altitude, ft, as |delta|/25 rounded + 1 (up to
    ///   127) with the sign in ME 49; nil sends 0;
    /// - NACv (ME 11–13), intent change (9), IFR capability (10).
    /// Non-finite velocities send 0 (not available) for both components.
    public static func airborneVelocity(
        velocityEast: Double, velocityNorth: Double, verticalRate: Int?,
        verticalRateSource: AirborneVelocity.VerticalRateSource = .barometric, geomDelta: Int? = nil,
        nacV: Int = 1, intentChange: Bool = false, ifrCapability: Bool = false
    ) -> MessageField {
        var field = MessageField(0)
            .setting(1, 5, to: 19)
            .setting(6, 8, to: 1)
            .setting(9, intentChange)
            .setting(10, ifrCapability)
            .setting(11, 13, to: UInt64(truncatingIfNeeded: nacV))
        if velocityEast.isFinite, velocityNorth.isFinite {
            let (westward, ew) = magnitudeCode(velocityEast, step: 1, maxCode: 1023)
            let (southward, ns) = magnitudeCode(velocityNorth, step: 1, maxCode: 1023)
            field = field.setting(14, westward).setting(15, 24, to: ew).setting(25, southward).setting(26, 35, to: ns)
        }
        field = field.setting(36, verticalRateSource == .barometric)
        if let verticalRate {
            let (down, code) = magnitudeCode(Double(verticalRate), step: 64, maxCode: 511)
            field = field.setting(37, down).setting(38, 46, to: code)
        }
        if let geomDelta {
            let (below, code) = magnitudeCode(Double(geomDelta), step: 25, maxCode: 127)
            field = field.setting(49, below).setting(50, 56, to: code)
        }
        return field
    }

    /// Sign and (|value|/step rounded) + 1 clamped to `maxCode`: the ADS-B "0 = not available"
    /// magnitude codes. A value that rounds to 0 is sent without its sign.
    static func magnitudeCode(_ value: Double, step: Double, maxCode: UInt64) -> (negative: Bool, code: UInt64) {
        let steps = (abs(value) / step).rounded()
        let code = steps < Double(maxCode - 1) ? UInt64(steps) + 1 : maxCode   // NaN → maxCode
        return (value < 0 && code > 1, code)
    }

    /// An angle in degrees as the nearest of `steps` equal steps of the circle, 0 ..< steps.
    static func angleCode(_ degrees: Double, steps: Int) -> Int {
        let turns = degrees / 360
        let fraction = turns - turns.rounded(.down)
        let code = Int((fraction * Double(steps)).rounded())
        return code >= steps ? code - steps : code
    }
}

extension AirborneVelocity {
    /// Where the vertical rate comes from (ME bit 36).
    public enum VerticalRateSource: Int, Hashable, Sendable {
        /// GNSS (bit 36 = 0).
        case gnss = 0
        /// Barometric (bit 36 = 1).
        case barometric = 1
    }
}

extension SurfacePosition {
    /// The movement code (DO-260B Table 2-13) for a ground speed in kt: the code whose
    /// quantisation step holds the speed (the inverse of `speed(movement:)`, which returns a
    /// step's lower bound). nil → 0 (no information); below 0.125 kt → 1 (stopped);
    /// 175 kt or more → 124.
    public static func movementCode(groundSpeed: Double?) -> Int {
        guard let v = groundSpeed, !v.isNaN else { return 0 }
        switch v {
        case ..<0.125: return 1
        case ..<1: return 2 + Int(((v - 0.125) / 0.125).rounded(.down))
        case ..<2: return 9 + Int(((v - 1) / 0.25).rounded(.down))
        case ..<15: return 13 + Int(((v - 2) / 0.5).rounded(.down))
        case ..<70: return 39 + Int((v - 15).rounded(.down))
        case ..<100: return 94 + Int(((v - 70) / 2).rounded(.down))
        case ..<175: return 109 + Int(((v - 100) / 5).rounded(.down))
        default: return 124
        }
    }
}
