/// Registration marks and countries computed from an ICAO 24-bit aircraft address, for
/// aircraft the database does not know.
///
/// Some States assign addresses algorithmically from the registration, so the mark can be
/// computed back: the United States (N-numbers, FAA), Japan, and the "stride" allocations
/// of `StrideMapping` (Canada, Germany D-A, France, Finland, Greece, Turkey, Australia).
/// Each was checked against real address/registration pairs (see the tests); allocations
/// that could not be checked are deliberately absent, so nil means "not computable", not
/// "not registered".
public enum Registration {
    /// The registration the address decodes to, or nil when the address lies outside every
    /// verified algorithmic allocation (or inside one, on a value the scheme leaves unused).
    public static func fromAddress(_ address: UInt32) -> String? {
        if let n = nNumber(address) { return n }
        if let ja = japan(address) { return ja }
        return StrideMapping.registration(address)
    }

    /// The State the address block is allocated to (ICAO Annex 10 Vol III Chapter 9).
    public static func country(of address: UInt32) -> Country? {
        guard let block = CountryAllocation.block(containing: address) else { return nil }
        return Country(name: block.name, iso2: block.iso2)
    }

    /// Letters used in N-number and Japanese suffixes: no I and no O.
    static let limitedAlphabet: [Character] = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")

    // MARK: United States

    /// First US address (N1) and the number of N-numbers (N1 … N99999).
    static let usFirst: UInt32 = 0xA0_0001
    static let usCount: UInt32 = 915_399

    /// US N-number (FAA order): addresses A00001 … ADF7C7 map to N1 … N99999.
    ///
    /// `off = addr − A00001`. The first digit is `off / 101711 + 1`; within it, offsets
    /// 0 … 600 are a letter suffix (`letters`), the rest hold a second digit in buckets of
    /// 10111; then likewise a third digit (buckets of 951), a fourth digit (buckets of 35,
    /// where 0 … 24 are no letter or one letter) and last a fifth digit.
    static func nNumber(_ address: UInt32) -> String? {
        guard address >= usFirst, address - usFirst < usCount else { return nil }
        var offset = Int(address - usFirst)
        var result = "N"
        result += String(offset / 101_711 + 1)
        offset %= 101_711
        for bucket in [10_111, 951] {
            if offset <= 600 { return result + letters(offset) }
            offset -= 601
            result += String(offset / bucket)
            offset %= bucket
        }
        if offset <= 600 { return result + letters(offset) }
        offset -= 601
        result += String(offset / 35)
        offset %= 35
        if offset <= 24 { return result + letter(offset) }
        return result + String(offset - 25)
    }

    /// Suffix of up to two letters: 0 is none, then A, AA … AZ, B, BA … ZZ.
    static func letters(_ rank: Int) -> String {
        guard rank > 0 else { return "" }
        let r = rank - 1
        return String(limitedAlphabet[r / 25]) + letter(r % 25)
    }

    /// Single optional letter: 0 is none, 1 … 24 are A … Z.
    static func letter(_ rank: Int) -> String {
        guard rank > 0 else { return "" }
        return String(limitedAlphabet[rank - 1])
    }

    // MARK: Japan

    /// Japanese registrations JA0000 … JA99ZZ from 840000: two digits (buckets of 22984 and
    /// 916; only second digits 0 … 9 are used), then either a digit and a digit or letter (offsets 0 … 339, buckets of 34) or two
    /// letters (offsets 340 … 915, buckets of 24).
    static func japan(_ address: UInt32) -> String? {
        guard address >= 0x84_0000, address - 0x84_0000 < 229_840 else { return nil }
        var offset = Int(address - 0x84_0000)
        var result = "JA"
        result += String(offset / 22_984)
        offset %= 22_984
        // Only ten second digits are used; the rest of each 22984 block is empty.
        guard offset / 916 <= 9 else { return nil }
        result += String(offset / 916)
        offset %= 916
        if offset < 340 {
            result += String(offset / 34)
            offset %= 34
            return result + (offset < 10 ? String(offset) : String(limitedAlphabet[offset - 10]))
        }
        offset -= 340
        return result + String(limitedAlphabet[offset / 24]) + String(limitedAlphabet[offset % 24])
    }
}
