/// BDS 3,0 — ACAS active resolution advisory (ICAO Doc 9871 Table A-2-48; Annex 10 Vol IV
/// §4.3.8.4.2.2).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1–8 | BDS code | 0011 0000 |
/// | 9–56 | the RA report | `ResolutionAdvisory` |
public struct BDS30: Hashable, Sendable {
    public static let bds = BDS(3, 0)

    public var advisory: ResolutionAdvisory

    /// True when the first byte is the 3,0 code, the ACAS III bits 16–22 are zero, the threat
    /// type is not the reserved 3, and the threat identity is consistent with it: all zero
    /// for TTI 0, bits 55–56 zero for TTI 1, a defined bearing (0–60) for TTI 2.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.bits(1, 8) == 0x30, mb.isZero(16, 22) else { return false }
        switch mb.int(29, 30) {
        case 0: return mb.isZero(31, 56)
        case 1: return mb.isZero(55, 56)
        case 2: return mb.int(51, 56) <= 60
        default: return false
        }
    }

    public init(_ mb: MessageField) {
        advisory = ResolutionAdvisory(mb)
    }

    /// Writes bds 3,0 (the RA has no aircraft.json field).
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
    }

    /// Inference evidence: all 56 bits are meaningful, plus the identifier bonus.
    static func score(_ mb: MessageField) -> Int {
        isValid(mb) ? 56 + CommB.identifierBonus : 0
    }
}
