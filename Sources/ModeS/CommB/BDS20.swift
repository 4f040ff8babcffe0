/// BDS 2,0 — aircraft identification (ICAO Doc 9871 Table A-2-32; Annex 10 Vol IV
/// §3.1.2.9.1).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1–8 | BDS code | 0010 0000 |
/// | 9–56 | 8 characters, 6 bits each | `Callsign` (IA-5 subset) |
public struct BDS20: Hashable, Sendable {
    public static let bds = BDS(2, 0)

    /// The callsign packed as ASCII bytes (`Callsign.pack`), nil when a character is outside
    /// the set: a plain value, so decoding never touches the heap.
    public var packedCallsign: UInt64?

    /// The callsign with trailing spaces trimmed; nil when a character is outside the set.
    public var callsign: String? { packedCallsign.map(Callsign.unpack) }

    /// True when the first byte is the 2,0 code and all eight characters are valid and not all
    /// spaces.
    public static func isValid(_ mb: MessageField) -> Bool {
        guard mb.bits(1, 8) == 0x20 else { return false }
        var trailingSpaces = true
        for i in stride(from: 7, through: 0, by: -1) {
            let code = mb.int(9 + 6 * i, 14 + 6 * i)
            guard Callsign.character(code) != nil else { return false }
            if code != 32 { trailingSpaces = false }
        }
        return !trailingSpaces
    }

    public init(_ mb: MessageField) {
        packedCallsign = Callsign.decodePacked(mb, from: 9)
    }

    /// Writes bds 2,0 and `flight`.
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
        if let packedCallsign { fields.setFlight(packed: packedCallsign) }
    }

    /// Inference evidence: all 56 bits are meaningful, plus the identifier bonus.
    static func score(_ mb: MessageField) -> Int {
        isValid(mb) ? 56 + CommB.identifierBonus : 0
    }
}
