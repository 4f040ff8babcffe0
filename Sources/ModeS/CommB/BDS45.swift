/// BDS 4,5 — meteorological hazard report (ICAO Doc 9871 Table A-2-69).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1 / 2–3 | status / turbulence | `HazardLevel` |
/// | 4 / 5–6 | status / wind shear | `HazardLevel` |
/// | 7 / 8–9 | status / microburst | `HazardLevel` |
/// | 10 / 11–12 | status / icing | `HazardLevel` |
/// | 13 / 14–15 | status / wake vortex | `HazardLevel` |
/// | 16 / 17 / 18–26 | status / sign / static air temperature | 9 bits × 0.25 °C |
/// | 27 / 28–38 | status / average static pressure | 11 bits, 1 hPa |
/// | 39 / 40–51 | status / radio height | 12 bits × 16 ft |
/// | 52–56 | reserved | 0 |
public struct BDS45: Hashable, Sendable {
    public static let bds = BDS(4, 5)

    public var turbulence: HazardLevel?
    public var windShear: HazardLevel?
    public var microburst: HazardLevel?
    public var icing: HazardLevel?
    public var wakeVortex: HazardLevel?
    /// Static air temperature, °C.
    public var staticAirTemperature: Double?
    /// Average static pressure, hPa.
    public var staticPressure: Int?
    /// Radio height, ft.
    public var radioHeight: Int?

    /// Status/value consistency of all eight fields, reserved bits zero, at least one field
    /// present, temperature −80…+60 °C and static pressure 100–1100 hPa when present, the
    /// temperature within 40 °C of the standard atmosphere's at that pressure when both are.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.statusConsistent(1, 2, 3), mb.statusConsistent(4, 5, 6),
              mb.statusConsistent(7, 8, 9), mb.statusConsistent(10, 11, 12),
              mb.statusConsistent(13, 14, 15), mb.statusConsistent(16, 17, 26),
              mb.statusConsistent(27, 28, 38), mb.statusConsistent(39, 40, 51),
              mb.isZero(52, 56) else { return false }
        guard statusCount(mb) > 0 else { return false }
        if mb.bit(16) {
            let sat = Double(mb.signed(sign: 17, 18, 26)) * 0.25
            guard sat >= -80, sat <= 60 else { return false }
        }
        if mb.bit(27) {
            let pressure = mb.int(28, 38)
            guard (100...1100).contains(pressure) else { return false }
            if mb.bit(16) {
                let sat = Double(mb.signed(sign: 17, 18, 26)) * 0.25
                guard abs(sat - CommBAirData.standardTemperature(pressure: Double(pressure))) <= 40 else { return false }
            }
        }
        return true
    }

    public init(_ mb: MessageField) {
        turbulence = mb.bit(1) ? HazardLevel(code: mb.int(2, 3)) : nil
        windShear = mb.bit(4) ? HazardLevel(code: mb.int(5, 6)) : nil
        microburst = mb.bit(7) ? HazardLevel(code: mb.int(8, 9)) : nil
        icing = mb.bit(10) ? HazardLevel(code: mb.int(11, 12)) : nil
        wakeVortex = mb.bit(13) ? HazardLevel(code: mb.int(14, 15)) : nil
        staticAirTemperature = mb.bit(16) ? Double(mb.signed(sign: 17, 18, 26)) * 0.25 : nil
        staticPressure = mb.bit(27) ? mb.int(28, 38) : nil
        radioHeight = mb.bit(39) ? mb.int(40, 51) * 16 : nil
    }

    /// Writes bds 4,5, outside air temperature and static pressure.
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
        if let staticAirTemperature { fields.oat = staticAirTemperature }
        if let staticPressure { fields.staticPressure = staticPressure }
    }

    /// Status bits of the five hazards, as a mask over `MessageField.value`.
    private static let hazardStatusMask: UInt64 = [1, 4, 7, 10, 13].reduce(0) { $0 | 1 << UInt64(56 - $1) }
    /// Status bits of all eight fields.
    private static let statusMask: UInt64 = [16, 27, 39].reduce(hazardStatusMask) { $0 | 1 << UInt64(56 - $1) }

    private static func statusCount(_ mb: MessageField) -> Int {
        (mb.value & statusMask).nonzeroBitCount
    }

    /// Inference evidence, halved because this optional register has a weak signature:
    /// each present field's bits and the 5 reserved bits.
    static func score(_ mb: MessageField) -> Int {
        guard isValid(mb) else { return 0 }
        var score = 5 + 3 * (mb.value & hazardStatusMask).nonzeroBitCount
        if mb.bit(16) { score += 11 }
        if mb.bit(27) { score += 12 }
        if mb.bit(39) { score += 13 }
        return score / 2
    }
}
