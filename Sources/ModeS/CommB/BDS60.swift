/// BDS 6,0 — heading and speed report (ICAO Doc 9871 Table A-2-96).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1 / 2 / 3–12 | status / sign / magnetic heading | 10 bits × 90/512°, −180…+180 |
/// | 13 / 14–23 | status / indicated airspeed | 10 bits, 1 kt, 0–1023 |
/// | 24 / 25–34 | status / Mach | 10 bits × 2.048/512, 0–4.092 |
/// | 35 / 36 / 37–45 | status / sign / barometric altitude rate | 9 bits × 8192/256 = 32 ft/min |
/// | 46 / 47 / 48–56 | status / sign / inertial vertical velocity | 9 bits × 32 ft/min |
public struct BDS60: Hashable, Sendable {
    public static let bds = BDS(6, 0)

    /// Magnetic heading, degrees 0..<360.
    public var magneticHeading: Double?
    /// Indicated airspeed, kt.
    public var indicatedAirspeed: Int?
    public var mach: Double?
    /// Barometric altitude rate, ft/min.
    public var baroRate: Int?
    /// Inertial vertical velocity, ft/min.
    public var inertialVerticalVelocity: Int?

    /// Plausibility limits of the validator.
    static let maxIndicatedAirspeed = 500
    static let maxMach = 1.0
    static let maxVerticalRate = 6000
    /// Static pressure ratio δ implied by IAS and Mach: −3800 ft … 57000 ft in ISA.
    static let plausiblePressureRatio = 0.08...1.15
    /// Largest accepted |barometric rate − inertial vertical velocity|, ft/min.
    static let maxRateDisagreement = 3000

    /// Status/value consistency of all five fields, at least one present, and plausible
    /// values: IAS ≤ 500 kt, Mach ≤ 1, vertical rates within ±6000 ft/min and within
    /// 3000 ft/min of each other, IAS and Mach (when both present) consistent with a pressure
    /// altitude between about −3800 and 57000 ft.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.statusConsistent(1, 2, 12), mb.statusConsistent(13, 14, 23),
              mb.statusConsistent(24, 25, 34), mb.statusConsistent(35, 36, 45),
              mb.statusConsistent(46, 47, 56) else { return false }
        guard mb.bit(1) || mb.bit(13) || mb.bit(24) || mb.bit(35) || mb.bit(46) else { return false }
        let v = BDS60(mb)
        if let ias = v.indicatedAirspeed, ias > maxIndicatedAirspeed { return false }
        if let mach = v.mach, mach > maxMach { return false }
        if let rate = v.baroRate, abs(rate) > maxVerticalRate { return false }
        if let rate = v.inertialVerticalVelocity, abs(rate) > maxVerticalRate { return false }
        if let a = v.baroRate, let b = v.inertialVerticalVelocity, abs(a - b) > maxRateDisagreement {
            return false
        }
        if let ias = v.indicatedAirspeed, let mach = v.mach {
            guard let delta = CommBAirData.pressureRatio(calibratedAirspeed: Double(ias), mach: mach),
                  plausiblePressureRatio.contains(delta) else { return false }
        }
        return true
    }

    public init(_ mb: MessageField) {
        if mb.bit(1) {
            let h = Double(mb.signed(sign: 2, 3, 12)) * 90 / 512
            magneticHeading = h < 0 ? h + 360 : h
        } else {
            magneticHeading = nil
        }
        indicatedAirspeed = mb.bit(13) ? mb.int(14, 23) : nil
        mach = mb.bit(24) ? Double(mb.int(25, 34)) * 2.048 / 512 : nil
        baroRate = mb.bit(35) ? mb.signed(sign: 36, 37, 45) * 32 : nil
        inertialVerticalVelocity = mb.bit(46) ? mb.signed(sign: 47, 48, 56) * 32 : nil
    }

    /// Writes bds 6,0, `mag_heading`, `ias`, `mach`, `baro_rate` and `geom_rate` (from the
    /// inertial vertical velocity).
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
        if let magneticHeading { fields.magHeading = magneticHeading }
        if let indicatedAirspeed { fields.ias = indicatedAirspeed }
        if let mach { fields.mach = mach }
        if let baroRate { fields.baroRate = baroRate }
        if let inertialVerticalVelocity { fields.geomRate = inertialVerticalVelocity }
    }

    /// Inference evidence: status + value bits of each present field, then cross-checks
    /// (together at most +16): IAS and Mach within a flight envelope (+8: the pressure ratio δ
    /// they imply lies in 0.1…1.05, about 52000…−1300 ft, and IAS lies between
    /// 60 + 150·(1 − δ) kt, roughly the slowest an aircraft flies at that height, and 400 kt);
    /// barometric and inertial rates within 500 ft/min (+8), within
    /// 1500 ft/min (+2), further apart (−4). Penalties for unusual reports: airspeed without
    /// the barometric rate (the air data computer feeds both): −4; each vertical rate beyond
    /// ±4000 ft/min: −2.
    static func score(_ mb: MessageField) -> Int {
        guard isValid(mb) else { return 0 }
        let v = BDS60(mb)
        var score = 0
        if v.magneticHeading != nil { score += 12 }
        if v.indicatedAirspeed != nil { score += 11 }
        if v.mach != nil { score += 11 }
        if v.baroRate != nil { score += 11 }
        if v.inertialVerticalVelocity != nil { score += 11 }
        if let ias = v.indicatedAirspeed, let mach = v.mach,
           let delta = CommBAirData.pressureRatio(calibratedAirspeed: Double(ias), mach: mach),
           (0.1...1.05).contains(delta), Double(ias) >= 60 + 150 * (1 - delta), ias <= 400 {
            score += 8
        }
        if let a = v.baroRate, let b = v.inertialVerticalVelocity {
            let d = abs(a - b)
            if d <= 500 { score += 8 } else if d <= 1500 { score += 2 } else { score -= 4 }
        }
        if v.indicatedAirspeed != nil || v.mach != nil, v.baroRate == nil { score -= 4 }
        if let a = v.baroRate, abs(a) > 4000 { score -= 2 }
        if let b = v.inertialVerticalVelocity, abs(b) > 4000 { score -= 2 }
        return max(score, 1)
    }
}
