import Testing
@testable import ModeS

@Suite("Registration from ICAO address")
struct RegistrationTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        let address: UInt32, registration: String
        init(_ address: UInt32, _ registration: String) { self.address = address; self.registration = registration }
        var testDescription: String { "\(String(address, radix: 16)) \(registration)" }
    }

    /// FORMATS.md checks of the N-number algorithm.
    @Test("US N-number checks from FORMATS.md", arguments: [
        Pair(0xA00001, "N1"), Pair(0xA00002, "N1A"), Pair(0xA061D9, "N12345"), Pair(0xADF7C7, "N99999"),
    ])
    func formatsChecks(_ p: Pair) {
        #expect(Registration.fromAddress(p.address) == p.registration)
    }

    /// Real address/registration pairs seen in readsb aircraft.json captures (database
    /// registrations, not computed ones).
    @Test("US pairs observed in real traffic", arguments: [
        Pair(0xAB6162, "N832SK"), Pair(0xA89D22, "N654RW"), Pair(0xAC5756, "N89456"), Pair(0xA17C12, "N195PQ"),
        Pair(0xA5E02D, "N478PX"), Pair(0xA35DAE, "N316FX"), Pair(0xA44588, "N37437"), Pair(0xA51633, "N427FX"),
        Pair(0xA3A152, "N333DU"), Pair(0xA48A8F, "N392DN"), Pair(0xA6D3F2, "N539XJ"), Pair(0xAC486A, "N8905Q"),
        Pair(0xADCDCC, "N989NN"), Pair(0xA45915, "N38BL"), Pair(0xA06F71, "N127TW"), Pair(0xA12756, "N17347"),
        Pair(0xAA0CF4, "N747EE"), Pair(0xADBDEE, "N985CE"), Pair(0xAB87AB, "N842E"), Pair(0xA7E58D, "N608G"),
        Pair(0xAA3FC2, "N76FX"), Pair(0xA9B732, "N725M"), Pair(0xAB56B1, "N83HA"),
    ])
    func usPairs(_ p: Pair) {
        #expect(Registration.fromAddress(p.address) == p.registration)
    }

    @Test("Canadian C-F/C-G pairs observed in real traffic", arguments: [
        Pair(0xC00158, "C-FANF"), Pair(0xC00668, "C-FCLB"), Pair(0xC07534, "C-GSJZ"), Pair(0xC02E8F, "C-FRQK"),
        Pair(0xC02FB4, "C-FSBR"), Pair(0xC07778, "C-GTGH"), Pair(0xC06FBD, "C-GQIE"), Pair(0xC051DA, "C-GEZX"),
        Pair(0xC04AF3, "C-GCJY"), Pair(0xC0636C, "C-GLQX"), Pair(0xC00DCE, "C-FFFX"), Pair(0xC03064, "C-FSIL"),
        Pair(0xC08537, "C-GYLQ"), Pair(0xC05CB6, "C-GJCV"), Pair(0xC010CD, "C-FGJK"), Pair(0xC047CF, "C-GBFA"),
        Pair(0xC00DA8, "C-FFEL"), Pair(0xC08418, "C-GYAP"), Pair(0xC0101C, "C-FGCP"), Pair(0xC06362, "C-GLQN"),
        Pair(0xC078B2, "C-GTSJ"), Pair(0xC0253F, "C-FOCS"), Pair(0xC07718, "C-GTCP"), Pair(0xC0061A, "C-FCIB"),
        Pair(0xC07993, "C-GUBA"), Pair(0xC03997, "C-FVVA"), Pair(0xC0554E, "C-GGHX"), Pair(0xC06722, "C-GNBL"),
        Pair(0xC05C2A, "C-GIXL"), Pair(0xC060C1, "C-GKQQ"), Pair(0xC060C4, "C-GKQT"), Pair(0xC062CC, "C-GLKT"),
        Pair(0xC07A08, "C-GUFN"), Pair(0xC080DB, "C-GWUS"), Pair(0xC07A14, "C-GUFZ"), Pair(0xC05514, "C-GGFR"),
        Pair(0xC00CAB, "C-FEUS"),
    ])
    func canadaPairs(_ p: Pair) {
        #expect(Registration.fromAddress(p.address) == p.registration)
    }

    @Test("European, Australian and Japanese pairs observed in real traffic", arguments: [
        // Germany D-A (FORMATS.md example first).
        Pair(0x3C66B0, "D-AIUP"), Pair(0x3C6663, "D-AISC"), Pair(0x3C5430, "D-AEAP"), Pair(0x3C4594, "D-AALT"),
        Pair(0x3C65A1, "D-AIMA"), Pair(0x3C65DA, "D-AINZ"), Pair(0x3C65D5, "D-AINU"), Pair(0x3C65D8, "D-AINX"),
        Pair(0x3C65C9, "D-AINI"), Pair(0x3C65E1, "D-AIOA"), Pair(0x3C65E2, "D-AIOB"),
        // France F-G / F-H.
        Pair(0x3949EC, "F-GSPM"), Pair(0x398E40, "F-HDSA"), Pair(0x39E406, "F-HZAG"), Pair(0x39C495, "F-HREV"),
        Pair(0x39802B, "F-HABL"),
        // Finland, Greece, Turkey.
        Pair(0x461E18, "OH-LKI"), Pair(0x46B826, "SX-NAF"), Pair(0x4BB146, "TC-LJF"),
        // Australia (digits allowed in the last two places).
        Pair(0x7C013C, "VH-AI2"), Pair(0x7C013E, "VH-AI4"), Pair(0x7C769B, "VH-XPP"),
        // Japan.
        Pair(0x84B3EB, "JA202P"), Pair(0x868041, "JA737X"),
    ])
    func otherPairs(_ p: Pair) {
        #expect(Registration.fromAddress(p.address) == p.registration)
    }

    @Test("addresses outside the verified allocations, and gaps inside them, give nil")
    func notComputable() {
        #expect(Registration.fromAddress(0xA00000) == nil)          // just below N1
        #expect(Registration.fromAddress(0xADF7C8) == nil)          // just above N99999
        #expect(Registration.fromAddress(0x406B90) == nil)          // United Kingdom: not algorithmic
        #expect(Registration.fromAddress(0x000000) == nil)
        #expect(Registration.fromAddress(0xFFFFFF) == nil)
        #expect(Registration.fromAddress(0x390000 + 26 * 32) == nil) // F-G: second index 26 is a gap
        #expect(Registration.fromAddress(0x390000 + 26) == nil)      // F-G: third index 26 is a gap
        #expect(Registration.fromAddress(0x3C4421 + 15 * 1024) == nil) // D-APAA is not in the D-A (AAA–OZZ) range
        #expect(Registration.fromAddress(0x840000 + 229_840) == nil) // past the Japanese range
    }

    @Test("range edges decode to the first and last marks")
    func edges() {
        #expect(Registration.fromAddress(0xC00001) == "C-FAAA")
        #expect(Registration.fromAddress(0xC044A8) == "C-FZZZ")
        #expect(Registration.fromAddress(0xC044A9) == "C-GAAA")
        #expect(Registration.fromAddress(0x3C4421) == "D-AAAA")
        #expect(Registration.fromAddress(0x3C4421 + 14 * 1024 + 25 * 32 + 25) == "D-AOZZ")
        #expect(Registration.fromAddress(0x840000) == "JA0000")
        #expect(Registration.fromAddress(0x840000 + 9 * 22_984 + 9 * 916 + 915) == "JA99ZZ")
        // The second digit has buckets of 916 but the first digit strides 22984: the rest of
        // each first-digit block is unused.
        #expect(Registration.fromAddress(0x840000 + 10 * 916) == nil)
        #expect(Registration.fromAddress(0x7C0000) == "VH-AAA")
    }
}
