/// BDS 5,0 — track and turn report (ICAO Doc 9871 Table A-2-80).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1 / 2 / 3–11 | status / sign / roll angle | 9 bits × 45/256°, −90…+90, positive right wing down |
/// | 12 / 13 / 14–23 | status / sign / true track angle | 10 bits × 90/512°, −180…+180 |
/// | 24 / 25–34 | status / ground speed | 10 bits × 2 kt, 0–2046 |
/// | 35 / 36 / 37–45 | status / sign / track angle rate | 9 bits × 8/256 °/s, −16…+16 |
/// | 46 / 47–56 | status / true airspeed | 10 bits × 2 kt, 0–2046 |
public struct BDS50: Hashable, Sendable {
    public static let bds = BDS(5, 0)

    /// Roll angle, degrees, positive right wing down.
    public var roll: Double?
    /// True track angle, degrees 0..<360.
    public var track: Double?
    /// Ground speed, kt.
    public var groundSpeed: Int?
    /// Track angle rate, degrees per second, positive clockwise.
    public var trackRate: Double?
    /// True airspeed, kt.
    public var trueAirspeed: Int?

    /// Plausibility limits of the validator.
    static let maxRoll = 50.0
    static let maxGroundSpeed = 750
    static let maxTrueAirspeed = 600
    static let maxTrackRate = 10.0
    /// Largest wind (|ground speed − true airspeed|) accepted, kt.
    static let maxWind = 250

    /// Status/value consistency of all five fields, at least one present, and plausible
    /// values: |roll| ≤ 50°, ground speed ≤ 750 kt, true airspeed ≤ 600 kt, |track rate| ≤
    /// 10 °/s, |ground speed − true airspeed| ≤ 250 kt.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.statusConsistent(1, 2, 11), mb.statusConsistent(12, 13, 23),
              mb.statusConsistent(24, 25, 34), mb.statusConsistent(35, 36, 45),
              mb.statusConsistent(46, 47, 56) else { return false }
        guard mb.bit(1) || mb.bit(12) || mb.bit(24) || mb.bit(35) || mb.bit(46) else { return false }
        let v = BDS50(mb)
        if let roll = v.roll, abs(roll) > maxRoll { return false }
        if let gs = v.groundSpeed, gs > maxGroundSpeed { return false }
        if let tas = v.trueAirspeed, tas > maxTrueAirspeed { return false }
        if let rate = v.trackRate, abs(rate) > maxTrackRate { return false }
        if let gs = v.groundSpeed, let tas = v.trueAirspeed, abs(gs - tas) > maxWind { return false }
        return true
    }

    public init(_ mb: MessageField) {
        roll = mb.bit(1) ? Double(mb.signed(sign: 2, 3, 11)) * 45 / 256 : nil
        if mb.bit(12) {
            let t = Double(mb.signed(sign: 13, 14, 23)) * 90 / 512
            track = t < 0 ? t + 360 : t
        } else {
            track = nil
        }
        groundSpeed = mb.bit(24) ? mb.int(25, 34) * 2 : nil
        trackRate = mb.bit(35) ? Double(mb.signed(sign: 36, 37, 45)) * 8 / 256 : nil
        trueAirspeed = mb.bit(46) ? mb.int(47, 56) * 2 : nil
    }

    /// Writes bds 5,0, `roll`, `track`, `gs`, `track_rate` and `tas`.
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
        if let roll { fields.roll = roll }
        if let track { fields.track = track }
        if let groundSpeed { fields.gs = Double(groundSpeed) }
        if let trackRate { fields.trackRate = trackRate }
        if let trueAirspeed { fields.tas = trueAirspeed }
    }

    /// Inference evidence: status + value bits of each present field, then cross-checks
    /// (together at most +16): ground speed close to true airspeed (wind ≤ 60 kt: +8,
    /// ≤ 120 kt: +4, over 200 kt: −4); track rate agreeing with the coordinated-turn rate
    /// g·tan(roll)/TAS (+6, or −6 when clearly contradicting it); wings level (|roll| ≤ 5°,
    /// the usual state): +2. Penalties for unusual reports: track without ground speed (both
    /// come from the navigation system): −4; ground speed without true airspeed (the air data
    /// computer feeds TAS whenever the navigation system feeds ground speed): −4; roll beyond
    /// 40°: −4.
    static func score(_ mb: MessageField) -> Int {
        guard isValid(mb) else { return 0 }
        let v = BDS50(mb)
        var score = 0
        if v.roll != nil { score += 11 }
        if v.track != nil { score += 12 }
        if v.groundSpeed != nil { score += 11 }
        if v.trackRate != nil { score += 11 }
        if v.trueAirspeed != nil { score += 11 }
        if let gs = v.groundSpeed, let tas = v.trueAirspeed {
            let wind = abs(gs - tas)
            if wind <= 60 { score += 8 } else if wind <= 120 { score += 4 } else if wind > 200 { score -= 4 }
        }
        if v.track != nil, v.groundSpeed == nil { score -= 4 }
        if v.groundSpeed != nil, v.trueAirspeed == nil { score -= 4 }
        if let roll = v.roll, let rate = v.trackRate, let tas = v.trueAirspeed, tas >= 60,
           let expected = CommBAirData.turnRate(roll: roll, speed: Double(tas)) {
            let error = abs(rate - expected)
            if error <= 0.3 + 0.25 * abs(expected) {
                score += 6
            } else if error > 1 + 0.5 * abs(expected) {
                score -= 6
            }
        }
        if let roll = v.roll {
            if abs(roll) <= 5 { score += 2 } else if abs(roll) > 40 { score -= 4 }
        }
        return max(score, 1)
    }
}
