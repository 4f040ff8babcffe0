/// The 2-bit hazard severity of the meteorological registers (Doc 9871 Table A-2-68 bits
/// 48–49 for BDS 4,4 turbulence; Table A-2-69 for every BDS 4,5 hazard): 0 NIL, 1 light,
/// 2 moderate, 3 severe.
public enum HazardLevel: Int, Hashable, Sendable, CaseIterable {
    /// NIL: the hazard is reported as absent.
    case nilLevel = 0
    case light = 1
    case moderate = 2
    case severe = 3

    /// The level of a 2-bit code (always one of the four).
    init(code: Int) { self = HazardLevel(rawValue: code & 3) ?? .nilLevel }
}
