import Testing
@testable import ModeS

@Suite("Comm-B 1,0 and 1,7 capability reports")
struct BDS10And17Tests {
    static let bds10 = "A800178D10010080F50000D5893C"
    static let bds17 = "A0000638FA81C10000000081A92F"

    @Test("1,0 validator needs the 0x10 code in bits 1–8")
    func bds10NeedsCode() throws {
        let mb = try mbField(Self.bds10)
        #expect(BDS10.isValid(mb))
        #expect(!BDS10.isValid(MBFieldBuilder(mb).setting(1, 8, to: 0x11).field))
        #expect(!BDS10.isValid(MBFieldBuilder(mb).setting(1, 8, to: 0x20).field))
    }

    @Test("1,0 validator rejects each reserved bit 10–14", arguments: 10...14)
    func bds10ReservedBits(bit: Int) throws {
        let mb = try mbField(Self.bds10)
        #expect(!BDS10.isValid(MBFieldBuilder(mb).setting(bit).field))
    }

    @Test("1,0 multi-bit fields are read from their bit positions")
    func bds10Fields() {
        let mb = MBFieldBuilder().setting(1, 8, to: 0x10).setting(9).setting(17, 23, to: 5)
            .setting(26, 28, to: 0b101).setting(29, 32, to: 0b1001).setting(39, 40, to: 2)
            .setting(41, 56, to: 0x8001).field
        let r = BDS10(mb)
        #expect(r.continuation)
        #expect(r.subnetworkVersion == 5)
        #expect(r.uplinkELMThroughput == 5)
        #expect(r.downlinkELMThroughput == 9)
        #expect(r.acasVersion == 2)
        #expect(r.dteStatus == 0x8001)
    }

    @Test("1,7 validator rejects a set bit anywhere in the reserved bits 25–56", arguments: [25, 29, 40, 56])
    func bds17Reserved(bit: Int) throws {
        let mb = try mbField(Self.bds17)
        #expect(BDS17.isValid(mb))
        #expect(!BDS17.isValid(MBFieldBuilder(mb).setting(bit).field))
    }

    @Test("1,7 validator needs 2,0 (bit 7) listed")
    func bds17NeedsIdentification() throws {
        let mb = try mbField(Self.bds17)
        #expect(!BDS17.isValid(MBFieldBuilder(mb).setting(7, false).field))
    }

    @Test("1,7 validator needs the extended squitter registers 0,5 0,6 0,8 0,9 all or none")
    func bds17SquitterGroup() throws {
        let mb = try mbField(Self.bds17)
        #expect(!BDS17.isValid(MBFieldBuilder(mb).setting(2, false).field))
        // No extended squitter at all: a Comm-B-only transponder listing 2,0 4,0 5,0 6,0.
        let commBOnly = MBFieldBuilder().setting(7).setting(9).setting(16).setting(24).field
        #expect(BDS17.isValid(commBOnly))
        #expect(BDS17(commBOnly).supportedRegisters == [BDS(2, 0), BDS(4, 0), BDS(5, 0), BDS(6, 0)])
    }

    @Test("1,7 supports(_:) answers per register, false for registers outside the map")
    func bds17Supports() throws {
        let r = BDS17(try mbField(Self.bds17))
        #expect(r.supports(BDS(6, 0)))
        #expect(r.supports(BDS(5, 2)))
        #expect(!r.supports(BDS(5, 3)))
        #expect(!r.supports(BDS(0, 0xA)))
        #expect(!r.supports(BDS(1, 0)))
    }
}
