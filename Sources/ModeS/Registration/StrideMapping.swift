/// A regular allocation of addresses to three-character registration suffixes:
/// `address = start + i1·s1 + i2·s2 + i3 − offset(first)`, where i1, i2, i3 index the
/// suffix characters in the mapping's alphabet. Index combinations beyond the alphabet
/// (s1 and s2 larger than the alphabet leave gaps) are unused addresses.
///
/// Only mappings checked against real address/registration pairs are listed (pairs in
/// `RegistrationTests`). Published tables for ZS-, D-A (PAA–ZZZ), D-B … D-I, OO-, OY-, CS-,
/// YR-, JY-, AP-, 9V-, YK-, LV-, RA- and CU-T as well as HL (Korea) could not be checked
/// and are left out.
struct StrideMapping: Sendable {
    let start: UInt32
    let s1: UInt32
    let s2: UInt32
    let prefix: String
    let alphabet: [Character]
    /// Alphabet size allowed for the first character (Australia: letters only).
    let firstCount: UInt32
    /// Index offset of the first suffix in the range (0 for AAA).
    let offset: UInt32
    /// Last address of the range.
    let end: UInt32

    static let fullAlphabet: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    static let alphanumeric: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    init(start: UInt32, s1: UInt32, s2: UInt32, prefix: String,
         alphabet: [Character] = StrideMapping.fullAlphabet, firstLetters: Int = 26,
         first: String = "AAA", last: String? = nil) {
        self.start = start
        self.s1 = s1
        self.s2 = s2
        self.prefix = prefix
        self.alphabet = alphabet
        self.firstCount = UInt32(firstLetters)
        func index(_ suffix: String) -> UInt32 {
            let characters = Array(suffix)
            func position(_ c: Character) -> UInt32 { UInt32(alphabet.firstIndex(of: c) ?? 0) }
            return position(characters[0]) * s1 + position(characters[1]) * s2 + position(characters[2])
        }
        self.offset = index(first)
        let top = UInt32(alphabet.count - 1)
        let lastIndex = last.map(index) ?? ((UInt32(firstLetters) - 1) * s1 + top * s2 + top)
        self.end = start - offset + lastIndex
    }

    /// The registration for an address in this range, or nil (outside it, or a gap).
    func registration(_ address: UInt32) -> String? {
        guard address >= start, address <= end else { return nil }
        var rest = address - start + offset
        let i1 = rest / s1
        rest %= s1
        let i2 = rest / s2
        let i3 = rest % s2
        let count = UInt32(alphabet.count)
        guard i1 < firstCount, i2 < count, i3 < count else { return nil }
        return prefix + String(alphabet[Int(i1)]) + String(alphabet[Int(i2)]) + String(alphabet[Int(i3)])
    }

    /// The verified mappings.
    static let all: [StrideMapping] = [
        // Canada: C-FAAA from C00001, C-GAAA from C044A9.
        StrideMapping(start: 0xC0_0001, s1: 26 * 26, s2: 26, prefix: "C-F"),
        StrideMapping(start: 0xC0_44A9, s1: 26 * 26, s2: 26, prefix: "C-G"),
        // Germany: D-AAAA … D-AOZZ (heavy aircraft).
        StrideMapping(start: 0x3C_4421, s1: 1024, s2: 32, prefix: "D-A", last: "OZZ"),
        // France.
        StrideMapping(start: 0x39_0000, s1: 1024, s2: 32, prefix: "F-G"),
        StrideMapping(start: 0x39_8000, s1: 1024, s2: 32, prefix: "F-H"),
        // Finland.
        StrideMapping(start: 0x46_0000, s1: 26 * 26, s2: 26, prefix: "OH-"),
        // Greece.
        StrideMapping(start: 0x46_8421, s1: 1024, s2: 32, prefix: "SX-"),
        // Turkey.
        StrideMapping(start: 0x4B_8421, s1: 1024, s2: 32, prefix: "TC-"),
        // Australia: letters then digits in the second and third places.
        StrideMapping(start: 0x7C_0000, s1: 36 * 36, s2: 36, prefix: "VH-",
                      alphabet: StrideMapping.alphanumeric),
    ]

    /// The first mapping that decodes the address.
    static func registration(_ address: UInt32) -> String? {
        for mapping in all {
            if let registration = mapping.registration(address) { return registration }
        }
        return nil
    }
}
