import Testing
@testable import ModeS

struct AddressFilterTests {
    @Test func recordedAddressIsKnownUntilItExpires() {
        var filter = AddressFilter(capacity: 64, ttl: 60)
        filter.record(0x4840D6, at: 100)
        #expect(filter.contains(0x4840D6, at: 100))
        #expect(filter.contains(0x4840D6, at: 160))
        #expect(!filter.contains(0x4840D6, at: 160.5))
        #expect(!filter.contains(0x123456, at: 100))
        filter.record(0x4840D6, at: 150)
        #expect(filter.contains(0x4840D6, at: 200))
    }

    @Test func snapshotServesAsKnownAddressesForTwoBitCorrection() throws {
        var filter = AddressFilter()
        let clean = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        let damaged = clean.flipping(bit: 33).flipping(bit: 99)
        #expect(ParityCheck.check(damaged, known: filter.at(10)) == nil)
        filter.record(0x4840D6, at: 5)
        #expect(ParityCheck.check(damaged, known: filter.at(10))?.frame == clean)
    }

    @Test func aFullTableForgetsOldestButNeverInventsAddresses() {
        var filter = AddressFilter(capacity: 16, ttl: 1000)
        for a in UInt32(1)...200 { filter.record(a, at: Double(a)) }
        // The most recent addresses survive; addresses never recorded are never known.
        #expect(filter.contains(200, at: 201))
        #expect(!filter.contains(0xABCDEF, at: 201))
        #expect(filter.count(at: 201) <= 16)
    }
}
