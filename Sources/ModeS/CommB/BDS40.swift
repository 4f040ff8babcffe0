/// BDS 4,0 — selected vertical intention (ICAO Doc 9871 Table A-2-64).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1 | status | |
/// | 2–13 | MCP/FCU selected altitude | 12 bits × 16 ft, 0–65520 |
/// | 14 | status | |
/// | 15–26 | FMS selected altitude | 12 bits × 16 ft |
/// | 27 | status | |
/// | 28–39 | barometric pressure setting minus 800 hPa | 12 bits × 0.1 hPa, 800–1209.5 |
/// | 40–47 | reserved | 0 |
/// | 48 | status of MCP/FCU mode bits | |
/// | 49 | VNAV mode | |
/// | 50 | altitude hold mode | |
/// | 51 | approach mode | |
/// | 52–53 | reserved | 0 |
/// | 54 | status of target altitude source | |
/// | 55–56 | target altitude source | 0 unknown, 1 aircraft altitude, 2 FCU/MCP, 3 FMS |
public struct BDS40: Hashable, Sendable {
    public static let bds = BDS(4, 0)

    /// MCP/FCU selected altitude, ft.
    public var selectedAltitudeMCP: Int?
    /// FMS selected altitude, ft.
    public var selectedAltitudeFMS: Int?
    /// Barometric pressure setting, hPa.
    public var baroSetting: Double?
    /// VNAV / altitude hold / approach; nil when the mode bits are not valid.
    public var modes: NavModes?
    /// Which altitude the aircraft is flying to.
    public var targetAltitudeSource: TargetAltitudeSource?

    public enum TargetAltitudeSource: Int, Hashable, Sendable {
        case unknown = 0
        case aircraftAltitude = 1
        case mcp = 2
        case fms = 3
    }

    /// Highest selected altitude taken as plausible, ft (ceilings of business jets ≈ 51000).
    static let maxSelectedAltitude = 52_000
    /// Plausible pressure settings, hPa (world records: 870 and 1084).
    static let plausibleQNH = 870.0...1090.0

    /// Status/value consistency of all five fields, reserved bits 40–47 and 52–53 zero, at
    /// least one field present, selected altitudes ≤ 52000 ft and the pressure setting
    /// within 870–1090 hPa.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.statusConsistent(1, 2, 13), mb.statusConsistent(14, 15, 26),
              mb.statusConsistent(27, 28, 39), mb.statusConsistent(48, 49, 51),
              mb.statusConsistent(54, 55, 56),
              mb.isZero(40, 47), mb.isZero(52, 53) else { return false }
        guard mb.bit(1) || mb.bit(14) || mb.bit(27) || mb.bit(48) || mb.bit(54) else { return false }
        if mb.bit(1), mb.int(2, 13) * 16 > maxSelectedAltitude { return false }
        if mb.bit(14), mb.int(15, 26) * 16 > maxSelectedAltitude { return false }
        if mb.bit(27), !plausibleQNH.contains(800 + Double(mb.int(28, 39)) * 0.1) { return false }
        return true
    }

    public init(_ mb: MessageField) {
        selectedAltitudeMCP = mb.bit(1) ? mb.int(2, 13) * 16 : nil
        selectedAltitudeFMS = mb.bit(14) ? mb.int(15, 26) * 16 : nil
        baroSetting = mb.bit(27) ? 800 + Double(mb.int(28, 39)) * 0.1 : nil
        if mb.bit(48) {
            var m: NavModes = []
            if mb.bit(49) { m.insert(.vnav) }
            if mb.bit(50) { m.insert(.altitudeHold) }
            if mb.bit(51) { m.insert(.approach) }
            modes = m
        } else {
            modes = nil
        }
        targetAltitudeSource = mb.bit(54) ? TargetAltitudeSource(rawValue: mb.int(55, 56)) : nil
    }

    /// Writes bds 4,0, `nav_altitude_mcp`, `nav_altitude_fms`, `nav_qnh` and `nav_modes`.
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
        if let selectedAltitudeMCP { fields.navAltitudeMCP = selectedAltitudeMCP }
        if let selectedAltitudeFMS { fields.navAltitudeFMS = selectedAltitudeFMS }
        if let baroSetting { fields.navQNH = baroSetting }
        if let modes { fields.navModes = modes }
    }

    /// Inference evidence: status + value bits of each present field, the 10 reserved bits,
    /// and bonuses: selected altitudes on a 100 ft step (within the 16 ft resolution), MCP =
    /// FMS, a pressure setting near standard.
    static func score(_ mb: MessageField) -> Int {
        guard isValid(mb) else { return 0 }
        var score = 10
        if mb.bit(1) { score += 13 + roundAltitudeBonus(mb.int(2, 13) * 16) }
        if mb.bit(14) { score += 13 + roundAltitudeBonus(mb.int(15, 26) * 16) }
        if mb.bit(1), mb.bit(14), mb.int(2, 13) == mb.int(15, 26), mb.int(2, 13) != 0 { score += 2 }
        if mb.bit(27) {
            score += 13
            let qnh = 800 + Double(mb.int(28, 39)) * 0.1
            if (950.0...1050.0).contains(qnh) { score += 4 }
        }
        if mb.bit(48) { score += 4 }
        if mb.bit(54) { score += 3 }
        return score
    }

    /// 2 when `feet` is a non-zero altitude within 16 ft of a multiple of 100 ft, else 0.
    private static func roundAltitudeBonus(_ feet: Int) -> Int {
        let r = feet % 100
        return feet > 0 && (r < 16 || r > 84) ? 2 : 0
    }
}
