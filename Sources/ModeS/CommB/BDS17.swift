/// BDS 1,7 — common usage GICB capability report (ICAO Doc 9871 Table A-2-23).
///
/// MB bits 1–24 each say whether a register is supported and its data are being updated;
/// bits 25–56 are reserved (0).
///
/// | bit | BDS | bit | BDS | bit | BDS | bit | BDS |
/// |---|---|---|---|---|---|---|---|
/// | 1 | 0,5 | 7 | 2,0 | 13 | 4,4 | 19 | 5,3 |
/// | 2 | 0,6 | 8 | 2,1 | 14 | 4,5 | 20 | 5,4 |
/// | 3 | 0,7 | 9 | 4,0 | 15 | 4,8 | 21 | 5,5 |
/// | 4 | 0,8 | 10 | 4,1 | 16 | 5,0 | 22 | 5,6 |
/// | 5 | 0,9 | 11 | 4,2 | 17 | 5,1 | 23 | 5,F |
/// | 6 | 0,A | 12 | 4,3 | 18 | 5,2 | 24 | 6,0 |
public struct BDS17: Hashable, Sendable {
    public static let bds = BDS(1, 7)

    /// The registers of MB bits 1…24, in bit order.
    public static let registers: [BDS] = [
        BDS(0, 5), BDS(0, 6), BDS(0, 7), BDS(0, 8), BDS(0, 9), BDS(0, 0xA),
        BDS(2, 0), BDS(2, 1), BDS(4, 0), BDS(4, 1), BDS(4, 2), BDS(4, 3),
        BDS(4, 4), BDS(4, 5), BDS(4, 8), BDS(5, 0), BDS(5, 1), BDS(5, 2),
        BDS(5, 3), BDS(5, 4), BDS(5, 5), BDS(5, 6), BDS(5, 0xF), BDS(6, 0),
    ]

    /// MB bits 1–24, bit 1 most significant.
    public var capabilityBits: UInt32

    /// True when the reserved bits 25–56 are zero, 2,0 (aircraft identification, which every
    /// Comm-B capable transponder reports) is listed, and the extended squitter registers
    /// 0,5, 0,6, 0,8 and 0,9 (bits 1, 2, 4, 5: an ADS-B transponder loads all four) are listed
    /// all together or not at all.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.isZero(25, 56), mb.bit(7) else { return false }
        let squitter = mb.value & extendedSquitterMask
        return squitter == 0 || squitter == extendedSquitterMask
    }

    /// MB bits 1, 2, 4, 5 as a mask over `MessageField.value`.
    private static let extendedSquitterMask: UInt64 = [1, 2, 4, 5].reduce(0) { $0 | 1 << UInt64(56 - $1) }

    public init(_ mb: MessageField) {
        capabilityBits = UInt32(truncatingIfNeeded: mb.bits(1, 24))
    }

    /// Whether `register` is listed as supported.
    public func supports(_ register: BDS) -> Bool {
        guard let index = Self.registers.firstIndex(of: register) else { return false }
        return (capabilityBits >> UInt32(23 - index)) & 1 == 1
    }

    /// The supported registers, in bit order.
    public var supportedRegisters: [BDS] {
        Self.registers.indices.filter { (capabilityBits >> UInt32(23 - $0)) & 1 == 1 }.map { Self.registers[$0] }
    }

    /// Writes bds 1,7 (the report carries no aircraft.json field).
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
    }

    /// Inference evidence: the 24-bit map plus 32 reserved zeros form a fixed signature,
    /// scored like an identified register.
    static func score(_ mb: MessageField) -> Int {
        isValid(mb) ? 56 + CommB.identifierBonus : 0
    }
}
