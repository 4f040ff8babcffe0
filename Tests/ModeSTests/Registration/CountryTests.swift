import Testing
@testable import ModeS

@Suite("Country from ICAO address (Annex 10 Vol III Chapter 9)")
struct CountryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let address: UInt32, iso2: String, name: String
        var testDescription: String { "\(String(address, radix: 16)) \(iso2)" }
    }

    @Test("known addresses map to their State", arguments: [
        Case(address: 0xA00001, iso2: "US", name: "United States"),
        Case(address: 0x3C66B0, iso2: "DE", name: "Germany"),
        Case(address: 0x4840D6, iso2: "NL", name: "Netherlands"),
        Case(address: 0x406B90, iso2: "GB", name: "United Kingdom"),
        Case(address: 0x4CA7E8, iso2: "IE", name: "Ireland"),
        Case(address: 0x3461CF, iso2: "ES", name: "Spain"),
        Case(address: 0x06A153, iso2: "QA", name: "Qatar"),
        Case(address: 0xC07534, iso2: "CA", name: "Canada"),
        Case(address: 0x7C769B, iso2: "AU", name: "Australia"),
        Case(address: 0x84B3EB, iso2: "JP", name: "Japan"),
        Case(address: 0x71C716, iso2: "KR", name: "South Korea"),
        Case(address: 0x780DA2, iso2: "CN", name: "China"),
        Case(address: 0x4D02A1, iso2: "LU", name: "Luxembourg"),
        Case(address: 0x4402CD, iso2: "AT", name: "Austria"),
        Case(address: 0x49D302, iso2: "CZ", name: "Czechia"),
        Case(address: 0x8A02FF, iso2: "ID", name: "Indonesia"),
        Case(address: 0x040102, iso2: "ET", name: "Ethiopia"),
        Case(address: 0x8963EA, iso2: "AE", name: "United Arab Emirates"),
        Case(address: 0xE8046F, iso2: "CL", name: "Chile"),
        Case(address: 0x471EFB, iso2: "HU", name: "Hungary"),
        Case(address: 0x3452C9, iso2: "ES", name: "Spain"),
    ])
    func known(_ c: Case) throws {
        let country = try #require(Registration.country(of: c.address))
        #expect(country == Country(name: c.name, iso2: c.iso2))
    }

    @Test("block edges: first and last address inside, neighbours outside")
    func edges() {
        #expect(Registration.country(of: 0x06A000)?.iso2 == "QA")
        #expect(Registration.country(of: 0x06A3FF)?.iso2 == "QA")
        #expect(Registration.country(of: 0x06A400) == nil)
        #expect(Registration.country(of: 0x069FFF) == nil)
        #expect(Registration.country(of: 0xAFFFFF)?.iso2 == "US")
        #expect(Registration.country(of: 0xB00000) == nil)
        #expect(Registration.country(of: 0x000000) == nil)
        #expect(Registration.country(of: 0xFFFFFF) == nil)
        #expect(Registration.country(of: 0x004000)?.iso2 == "ZW")
        #expect(Registration.country(of: 0xC903FF)?.iso2 == "VU")
    }

    @Test("the table is sorted and its blocks do not overlap")
    func tableShape() {
        let blocks = CountryAllocation.blocks
        #expect(blocks.count >= 180)
        for (a, b) in zip(blocks, blocks.dropFirst()) {
            #expect(a.start <= a.end && a.end < b.start, "\(a.name) / \(b.name)")
        }
        #expect(Set(blocks.map(\.iso2)).count == blocks.count)
    }

    @Test("binary search agrees with a linear scan across the whole address space")
    func searchAgreesWithScan() {
        var address: UInt32 = 0
        while address <= 0xFFFFFF {
            let linear = CountryAllocation.blocks.first { $0.start <= address && address <= $0.end }
            #expect(Registration.country(of: address)?.iso2 == linear?.iso2)
            address += 0x1FF
        }
    }
}
