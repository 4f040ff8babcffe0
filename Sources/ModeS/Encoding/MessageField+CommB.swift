/// Comm-B MB fields for transmission (ICAO Doc 9871 Appendix A): the inverses of `BDS20`,
/// `BDS50` and `BDS60`. Values are rounded to the nearest step of each field and clamped to
/// its range; a nil (or non-finite) value is sent with its status bit 0 and value 0.
extension MessageField {
    /// BDS 2,0 aircraft identification: MB 1–8 = 0x20, 9–56 eight 6-bit characters. Nil when
    /// the callsign does not fit (`Callsign.encode`).
    public static func bds20(callsign: some StringProtocol) -> MessageField? {
        guard let characters = Callsign.encode(callsign) else { return nil }
        return MessageField(0).setting(1, 8, to: 0x20).setting(9, 56, to: characters)
    }

    /// BDS 5,0 track and turn report (Doc 9871 Table A-2-80): roll (° right wing down, 45/256°
    /// steps, ±90), true track (°, 90/512° steps, sent as −180…180), ground speed (kt, 2 kt
    /// steps, 0–2046), track angle rate (°/s, 8/256 steps, ±16), true airspeed (kt, 2 kt
    /// steps).
    public static func bds50(
        roll: Double?, track: Double?, groundSpeed: Double?, trackRate: Double?, trueAirspeed: Double?
    ) -> MessageField {
        var field = MessageField(0)
        if let roll, roll.isFinite {
            field = field.setting(1, true).settingSigned(sign: 2, 3, 11, to: steps(roll, 45.0 / 256))
        }
        if let track, track.isFinite {
            field = field.setting(12, true).settingSigned(sign: 13, 14, 23, to: signedAngleCode(track, step: 90.0 / 512, bits: 10))
        }
        if let groundSpeed, groundSpeed.isFinite {
            field = field.setting(24, true).setting(25, 34, to: UInt64(clamping: min(max(steps(groundSpeed, 2), 0), 1023)))
        }
        if let trackRate, trackRate.isFinite {
            field = field.setting(35, true).settingSigned(sign: 36, 37, 45, to: steps(trackRate, 8.0 / 256))
        }
        if let trueAirspeed, trueAirspeed.isFinite {
            field = field.setting(46, true).setting(47, 56, to: UInt64(clamping: min(max(steps(trueAirspeed, 2), 0), 1023)))
        }
        return field
    }

    /// BDS 6,0 heading and speed report (Doc 9871 Table A-2-96): magnetic heading (°,
    /// 90/512° steps, sent as −180…180), indicated airspeed (kt, 1 kt, 0–1023), Mach (2.048/512
    /// steps, 0–4.092), barometric altitude rate and inertial vertical velocity (ft/min, 32
    /// ft/min steps, −16384…16352).
    public static func bds60(
        magneticHeading: Double?, indicatedAirspeed: Int?, mach: Double?, baroRate: Int?, inertialVerticalVelocity: Int?
    ) -> MessageField {
        var field = MessageField(0)
        if let magneticHeading, magneticHeading.isFinite {
            field = field.setting(1, true).settingSigned(sign: 2, 3, 12, to: signedAngleCode(magneticHeading, step: 90.0 / 512, bits: 10))
        }
        if let indicatedAirspeed {
            field = field.setting(13, true).setting(14, 23, to: UInt64(min(max(indicatedAirspeed, 0), 1023)))
        }
        if let mach, mach.isFinite {
            field = field.setting(24, true).setting(25, 34, to: UInt64(clamping: min(max(steps(mach, 2.048 / 512), 0), 1023)))
        }
        if let baroRate {
            field = field.setting(35, true).settingSigned(sign: 36, 37, 45, to: steps(Double(baroRate), 32))
        }
        if let inertialVerticalVelocity {
            field = field.setting(46, true).settingSigned(sign: 47, 48, 56, to: steps(Double(inertialVerticalVelocity), 32))
        }
        return field
    }

    /// value/step rounded to the nearest integer, clamped to ±2^40 (callers clamp further).
    static func steps(_ value: Double, _ step: Double) -> Int {
        let n = (value / step).rounded()
        guard n.isFinite else { return 0 }
        return Int(min(max(n, -0x100_0000_0000), 0x100_0000_0000))
    }

    /// An angle as a signed count of `step`s in −2^bits ..< 2^bits (−180 ..< 180 for
    /// 90/512° steps and 10 bits).
    static func signedAngleCode(_ degrees: Double, step: Double, bits: Int) -> Int {
        let half = 1 << bits
        let code = angleCode(degrees, steps: 2 * half)   // 0 ..< 2^(bits+1), a whole turn
        return code >= half ? code - 2 * half : code
    }
}
