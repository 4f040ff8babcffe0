/// Aircraft identification and category, TC 1–4 (BDS 0,8; DO-260B §2.2.3.2.5).
///
/// | ME bits | field |
/// |---|---|
/// | 1–5 | type code 1–4 (category set D, C, B, A) |
/// | 6–8 | emitter category within the set |
/// | 9–56 | 8 characters × 6 bits (Annex 10 Table 3-9 subset) |
public struct Identification: Hashable, Sendable {
    /// Emitter category, such as A3 (large aircraft).
    public var category: EmitterCategory?
    /// Callsign packed as ASCII bytes (`Callsign.pack`); nil when a character is invalid.
    public var packedCallsign: UInt64?

    /// Callsign without trailing spaces; nil when a character is invalid.
    public var callsign: String? { packedCallsign.map(Callsign.unpack) }

    public init?(_ me: MessageField) {
        let tc = me.typeCode
        guard (1...4).contains(tc) else { return nil }
        category = EmitterCategory(typeCode: tc, category: me.int(6, 8))
        packedCallsign = Callsign.decodePacked(me, from: 9)
    }

    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(0, 8)
        fields.category = category
        if let packedCallsign { fields.setFlight(packed: packedCallsign) }
    }
}
