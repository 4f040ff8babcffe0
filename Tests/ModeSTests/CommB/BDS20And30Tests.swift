import Testing
@testable import ModeS

@Suite("Comm-B 2,0 identification and 3,0 / TC28 resolution advisory")
struct BDS20And30Tests {
    @Test("2,0 validator needs the 0x20 code")
    func bds20NeedsCode() throws {
        let mb = try mbField("A000083E202CC371C31DE0AA1CCF")
        #expect(BDS20.isValid(mb))
        #expect(!BDS20.isValid(MBFieldBuilder(mb).setting(1, 8, to: 0x21).field))
    }

    @Test("2,0 validator rejects a character outside the IA-5 subset in any position", arguments: 0..<8)
    func bds20BadCharacter(position: Int) throws {
        let mb = try mbField("A000083E202CC371C31DE0AA1CCF")
        let first = 9 + 6 * position
        // Code 0 and 33 are outside the subset (Annex 10 Vol IV Table 3-9).
        #expect(!BDS20.isValid(MBFieldBuilder(mb).setting(first, first + 5, to: 0).field))
        #expect(!BDS20.isValid(MBFieldBuilder(mb).setting(first, first + 5, to: 33).field))
    }

    @Test("2,0 with eight spaces is not a valid identification")
    func bds20AllSpaces() {
        var b = MBFieldBuilder().setting(1, 8, to: 0x20)
        for i in 0..<8 { b = b.setting(9 + 6 * i, 14 + 6 * i, to: 32) }
        #expect(!BDS20.isValid(b.field))
        #expect(BDS20(b.field).callsign == nil)
    }

    /// BDS 3,0 header with an RA: code 0x30, ARA bit 9.
    static let raHeader = MBFieldBuilder().setting(1, 8, to: 0x30).setting(9)

    @Test("3,0 with ARA bit 9: one-sense RA whose bits 10–15 are read as corrective, downward, …")
    func oneSenseAdvisory() {
        let mb = Self.raHeader.setting(10).setting(11).setting(15).field
        #expect(BDS30.isValid(mb))
        let ra = BDS30(mb).advisory
        #expect(ra.advisory == .oneSense([.corrective, .downwardSense, .positive]))
        #expect(ra.araBit(9))
        #expect(!ra.araBit(12))
        #expect(ra.threatTypeIndicator == 0)
        #expect(ra.threat == nil)
    }

    @Test("ARA bit 9 clear with MTE: multiple-threat RA with its own bit meanings")
    func multipleThreatAdvisory() {
        let mb = MBFieldBuilder().setting(1, 8, to: 0x30).setting(10).setting(11).setting(28).field
        let ra = ResolutionAdvisory(mb)
        #expect(ra.multipleThreats)
        #expect(ra.advisory == .multipleSenses([.upwardCorrection, .positiveClimb]))
    }

    @Test("ARA bit 9 and MTE clear: no vertical RA")
    func noAdvisory() {
        let mb = MBFieldBuilder().setting(1, 8, to: 0x30).setting(27).field
        let ra = ResolutionAdvisory(mb)
        #expect(ra.advisory == .none)
        #expect(ra.terminated)
    }

    @Test("RAC bits 23–26 map to pass below / above / turn left / right")
    func complement() {
        let ra = ResolutionAdvisory(Self.raHeader.setting(23).setting(26).field)
        #expect(ra.complement == [.doNotPassBelow, .doNotTurnRight])
        let ra2 = ResolutionAdvisory(Self.raHeader.setting(24).setting(25).field)
        #expect(ra2.complement == [.doNotPassAbove, .doNotTurnLeft])
    }

    @Test("TTI 1: the threat's 24-bit address from bits 31–54")
    func threatAddress() {
        let mb = Self.raHeader.setting(29, 30, to: 1).setting(31, 54, to: 0xABCDEF).field
        #expect(BDS30.isValid(mb))
        #expect(ResolutionAdvisory(mb).threat == .address(0xABCDEF))
        // Bits 55–56 after the address must be zero.
        #expect(!BDS30.isValid(MBFieldBuilder(mb).setting(56).field))
    }

    @Test("TTI 2: altitude code, range (n − 1)/10 NM and bearing sector 6(n − 1)…6n")
    func threatPosition() throws {
        // AC13 0x1010: Q = 1, N = 1024 → 24600 ft (Annex 10 25 ft coding).
        let mb = Self.raHeader.setting(29, 30, to: 2).setting(31, 43, to: 0x1010)
            .setting(44, 50, to: 10).setting(51, 56, to: 3).field
        #expect(BDS30.isValid(mb))
        guard case .position(let p) = try #require(ResolutionAdvisory(mb).threat) else {
            Issue.record("expected a threat position"); return
        }
        #expect(p.altitude == 24600)
        #expect(abs(try #require(p.range) - 0.9) < 1e-9)
        #expect(p.bearing == 15)   // sector 12…18°
    }

    @Test("TTI 2 range and bearing codes 0 mean not available; bearings 61–63 are rejected")
    func threatPositionUnavailable() {
        let base = Self.raHeader.setting(29, 30, to: 2)
        guard case .position(let p)? = ResolutionAdvisory(base.field).threat else {
            Issue.record("expected a threat position"); return
        }
        #expect(p.range == nil)
        #expect(p.bearing == nil)
        #expect(p.altitude == nil)
        #expect(BDS30.isValid(base.setting(51, 56, to: 60).field))
        #expect(!BDS30.isValid(base.setting(51, 56, to: 61).field))
    }

    @Test("3,0 validator: code, ACAS III bits 16–22 zero, TTI 3 reserved, TTI 0 with no TID")
    func bds30Validator() {
        let ok = Self.raHeader.field
        #expect(BDS30.isValid(ok))
        #expect(!BDS30.isValid(MBFieldBuilder(ok).setting(1, 8, to: 0x31).field))
        #expect(!BDS30.isValid(MBFieldBuilder(ok).setting(16).field))
        #expect(!BDS30.isValid(MBFieldBuilder(ok).setting(22).field))
        #expect(!BDS30.isValid(MBFieldBuilder(ok).setting(29, 30, to: 3).field))
        #expect(!BDS30.isValid(MBFieldBuilder(ok).setting(40).field))
    }

    @Test("ADS-B TC28 subtype 2 uses the same bits 9–56: ResolutionAdvisory ignores bits 1–8")
    func sharedWithExtendedSquitter() {
        let body = MBFieldBuilder().setting(9).setting(10).setting(24).setting(28)
            .setting(29, 30, to: 1).setting(31, 54, to: 0x4840D6)
        let commB = body.setting(1, 8, to: 0x30).field
        let squitter = body.setting(1, 5, to: 28).setting(6, 8, to: 2).field
        #expect(ResolutionAdvisory(commB) == ResolutionAdvisory(squitter))
        #expect(ResolutionAdvisory(squitter).threat == .address(0x4840D6))
    }

    @Test("3,0 is inferred from its code and contributes only bds")
    func bds30Inferred() throws {
        let register = try #require(CommB.infer(Self.raHeader.setting(10).field))
        #expect(register.bds == BDS(3, 0))
        var fields = FieldSet()
        register.contribute(to: &fields)
        #expect(fields == { var f = FieldSet(); f.bds = BDS(3, 0); return f }())
    }
}
