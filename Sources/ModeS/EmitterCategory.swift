/// The ADS-B emitter category (DO-260B §2.2.3.2.5.2): category set A–D from the type code
/// (TC4 = A, TC3 = B, TC2 = C, TC1 = D) and a category number 0–7 from the CA subfield.
public struct EmitterCategory: Hashable, Sendable, CustomStringConvertible {
    /// The identification type code, 1–4 (stored instead of the letter: a plain value).
    public let typeCode: UInt8
    /// 0–7 within the set (0 = no information).
    public let number: Int

    /// Set letter: A, B, C or D.
    public var set: Character { Character(Unicode.Scalar(UInt8(ascii: "E") - typeCode)) }

    /// From an identification type code (1–4) and the 3-bit category subfield.
    public init?(typeCode: Int, category: Int) {
        guard (1...4).contains(typeCode), (0...7).contains(category) else { return nil }
        self.typeCode = UInt8(typeCode)
        number = category
    }

    /// Such as "A3".
    public var description: String { "\(set)\(number)" }
}
