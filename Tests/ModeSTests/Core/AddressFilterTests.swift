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

struct AddressFilterAcceptanceTests {
    static let squitter = try! Frame(hex: "8D4840D6202CC371C32CE0576098")

    @Test func addressParityRepliesAreAcceptedOnlyAfterTheAddressWasSeenInTheClear() throws {
        var filter = AddressFilter()
        // DF20 from 484163 before anything of that aircraft: rejected as possible noise.
        let commB = try Frame(hex: "A000083E202CC371C31DE0AA1CCF")
        #expect(filter.accept(commB, at: 0) == nil)
        // Its all-call reply (address in the clear) teaches the filter the address.
        let allCall = shortFrameWithParity(df: 11, ca: 5, address: 0x484163)
        #expect(filter.accept(allCall, at: 1)?.address == 0x484163)
        #expect(filter.accept(commB, at: 2)?.address == 0x484163)
        // Sixty seconds after the last confirmation it is forgotten again.
        #expect(filter.accept(commB, at: 62) == nil)
    }

    @Test func correctedSquittersAreAcceptedOnlyFromKnownAddresses() {
        var filter = AddressFilter()
        // Unknown address: neither a 1-bit nor a 2-bit repair is believed.
        #expect(filter.accept(Self.squitter.flipping(bit: 40), at: 0) == nil)
        #expect(filter.accept(Self.squitter.flipping(bit: 40).flipping(bit: 90), at: 0) == nil)
        #expect(!filter.contains(0x4840D6, at: 0))
        // Heard in the clear once, the same repairs are accepted.
        #expect(filter.accept(Self.squitter, at: 1)?.correctedBits == 0)
        #expect(filter.accept(Self.squitter.flipping(bit: 40), at: 2)?.correctedBits == 1)
        #expect(filter.accept(Self.squitter.flipping(bit: 40).flipping(bit: 90), at: 3)?.correctedBits == 2)
    }

    @Test func anAllCallWithAnInterrogatorCodeIntroducesNoAddress() {
        var filter = AddressFilter()
        // 128 of the 2^24 syndromes read as some interrogator code: noise passes one time in
        // 131 072, so a reply to interrogator 5 is believed only from an address already heard.
        let toInterrogator5 = Frame.allCall(address: 0x484163, interrogator: 5)
        #expect(filter.accept(toInterrogator5, at: 0) == nil)
        #expect(!filter.contains(0x484163, at: 0))
        #expect(filter.accept(Frame.allCall(address: 0x484163), at: 1)?.interrogatorID == 0)
        #expect(filter.accept(toInterrogator5, at: 2)?.interrogatorID == 5)
    }

    /// A DF11 with valid parity (interrogator code 0).
    func shortFrameWithParity(df: Int, ca: Int, address: UInt32) -> Frame {
        var raw = UInt128(df) << 123 | UInt128(ca) << 120 | UInt128(address) << 96
        raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 56)) << 72
        return Frame(raw: raw, bitCount: 56)!
    }
}
