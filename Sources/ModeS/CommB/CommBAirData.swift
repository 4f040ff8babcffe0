import RealModule

/// Standard-atmosphere relations the Comm-B plausibility checks use (ICAO Doc 7488 ISA;
/// subsonic compressible-flow pitot relation). Pure functions, no state.
enum CommBAirData {
    /// Speed of sound at ISA sea level, kt.
    static let seaLevelSoundSpeed = 661.4786

    /// Impact pressure over static pressure for Mach `m` (subsonic): (1 + 0.2 m²)^3.5 − 1.
    static func impactPressureRatio(mach m: Double) -> Double {
        let y = 1 + 0.2 * m * m
        return y * y * y * y.squareRoot() - 1
    }

    /// Static pressure / ISA sea-level pressure (δ) implied by a calibrated airspeed (kt)
    /// flown at Mach `mach`, or nil when the Mach number is zero. Sea level is ≈ 1, FL450 ≈ 0.146.
    static func pressureRatio(calibratedAirspeed cas: Double, mach: Double) -> Double? {
        let atMach = impactPressureRatio(mach: mach)
        guard atMach > 0 else { return nil }
        return impactPressureRatio(mach: cas / seaLevelSoundSpeed) / atMach
    }

    /// ISA temperature, °C, at static pressure `pressure` hPa: 15 − 6.5 °C/km up to the
    /// tropopause (226.32 hPa), −56.5 °C above it.
    static func standardTemperature(pressure: Double) -> Double {
        guard pressure > 226.32 else { return -56.5 }
        return 288.15 * Double.pow(pressure / 1013.25, 0.190263) - 273.15
    }

    /// Rate of a coordinated level turn, deg/s (positive right), for bank `roll` (degrees,
    /// positive right wing down) at `speed` kt: ω = g·tan(φ)/V.
    static func turnRate(roll: Double, speed: Double) -> Double? {
        guard speed > 0, abs(roll) < 89 else { return nil }
        // g / (1 kt in m/s) converted to deg/s: 9.80665 / 0.514444 × 180/π ≈ 1091.2.
        return 1091.2 * Double.tan(roll * .pi / 180) / speed
    }
}
