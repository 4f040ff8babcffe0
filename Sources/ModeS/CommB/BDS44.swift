/// BDS 4,4 — meteorological routine air report (ICAO Doc 9871 Table A-2-68).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1–4 | figure of merit / source | 0 invalid, 1 INS, 2 GNSS, 3 DME/DME, 4 VOR/DME, 5–15 reserved |
/// | 5 | status | |
/// | 6–14 | wind speed | 9 bits, 1 kt, 0–511 |
/// | 15–23 | wind direction (true, from) | 9 bits × 180/256° |
/// | 24 | sign | |
/// | 25–34 | static air temperature | sign + 10 bits × 0.25 °C, −128…+128 |
/// | 35 | status | |
/// | 36–46 | average static pressure | 11 bits, 1 hPa |
/// | 47 | status | |
/// | 48–49 | turbulence | `HazardLevel` |
/// | 50 | status | |
/// | 51–56 | humidity | 6 bits × 100/64 % |
///
/// The temperature has no status bit: it is always reported.
public struct BDS44: Hashable, Sendable {
    public static let bds = BDS(4, 4)

    /// Figure of merit / source, 0–4 in a valid report.
    public var figureOfMerit: Int
    /// Wind speed, kt.
    public var windSpeed: Int?
    /// Wind direction, degrees true (the direction the wind blows from).
    public var windDirection: Double?
    /// Static air temperature, °C.
    public var staticAirTemperature: Double
    /// Average static pressure, hPa.
    public var staticPressure: Int?
    public var turbulence: HazardLevel?
    /// Relative humidity, %.
    public var humidity: Double?

    /// Figure of merit 1–4 (0 means the report is invalid), status/value consistency, wind
    /// present and ≤ 250 kt, temperature −80…+60 °C, static pressure (when present)
    /// 100–1100 hPa and the temperature within 40 °C of the standard atmosphere's at that
    /// pressure.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard (1...4).contains(mb.int(1, 4)), mb.bit(5),
              mb.statusConsistent(35, 36, 46), mb.statusConsistent(47, 48, 49),
              mb.statusConsistent(50, 51, 56) else { return false }
        guard mb.int(6, 14) <= 250 else { return false }
        let sat = temperature(mb)
        guard sat >= -80, sat <= 60 else { return false }
        if mb.bit(35) {
            let pressure = mb.int(36, 46)
            guard (100...1100).contains(pressure),
                  abs(sat - CommBAirData.standardTemperature(pressure: Double(pressure))) <= 40 else { return false }
        }
        return true
    }

    public init(_ mb: MessageField) {
        figureOfMerit = mb.int(1, 4)
        windSpeed = mb.bit(5) ? mb.int(6, 14) : nil
        windDirection = mb.bit(5) ? Double(mb.int(15, 23)) * 180 / 256 : nil
        staticAirTemperature = Self.temperature(mb)
        staticPressure = mb.bit(35) ? mb.int(36, 46) : nil
        turbulence = mb.bit(47) ? HazardLevel(code: mb.int(48, 49)) : nil
        humidity = mb.bit(50) ? Double(mb.int(51, 56)) * 100 / 64 : nil
    }

    private static func temperature(_ mb: MessageField) -> Double {
        Double(mb.signed(sign: 24, 25, 34)) * 0.25
    }

    /// Writes bds 4,4, wind speed and direction, outside air temperature, static pressure and
    /// humidity.
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
        if let windSpeed { fields.windSpeed = windSpeed }
        if let windDirection { fields.windDirection = windDirection }
        fields.oat = staticAirTemperature
        if let staticPressure { fields.staticPressure = staticPressure }
        if let humidity { fields.humidity = humidity }
    }

    /// Inference evidence, halved because this optional register has a weak signature:
    /// source, the wind, temperature and each present field's bits.
    static func score(_ mb: MessageField) -> Int {
        guard isValid(mb) else { return 0 }
        var score = 4 + 19 + 11
        if mb.bit(35) { score += 12 }
        if mb.bit(47) { score += 3 }
        if mb.bit(50) { score += 7 }
        return score / 2
    }
}
