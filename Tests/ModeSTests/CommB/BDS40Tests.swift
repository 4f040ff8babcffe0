import Testing
@testable import ModeS

@Suite("Comm-B 4,0 selected vertical intention")
struct BDS40Tests {
    static let vector = "A8001EBCAEE57730A80106DE1344"

    @Test("Published 4,0 reports MCP mode bits valid with no mode engaged and the MCP altitude as target")
    func modesAndTarget() throws {
        let r = BDS40(try mbField(Self.vector))
        #expect(r.modes == [])
        #expect(r.targetAltitudeSource == .mcp)
        var fields = FieldSet()
        r.contribute(to: &fields)
        #expect(fields.navModes == [])
    }

    @Test("Mode bits 49–51 are VNAV, altitude hold, approach; absent when bit 48 is clear")
    func modeBits() {
        let base = MBFieldBuilder().setting(1).setting(2, 13, to: 2187)
        let m = BDS40(base.setting(48).setting(49).setting(51).field)
        #expect(m.modes == [.vnav, .approach])
        #expect(BDS40(base.setting(48).setting(50).field).modes == [.altitudeHold])
        #expect(BDS40(base.field).modes == nil)
        var fields = FieldSet()
        BDS40(base.field).contribute(to: &fields)
        #expect(fields.navModes == nil)
    }

    @Test("Scales: altitude 16 ft per count, pressure 800 + 0.1 hPa per count")
    func scales() throws {
        let mb = MBFieldBuilder().setting(1).setting(2, 13, to: 4095).setting(14).setting(15, 26, to: 1)
            .setting(27).setting(28, 39, to: 2132).field
        let r = BDS40(mb)
        #expect(r.selectedAltitudeMCP == 65520)
        #expect(r.selectedAltitudeFMS == 16)
        #expect(abs(try #require(r.baroSetting) - 1013.2) < 1e-9)
    }

    @Test("Validator rejects a clear status bit with a non-zero value", arguments: [1, 14, 27, 48, 54])
    func statusMismatch(statusBit: Int) throws {
        // Start from the published vector with every field present, then clear one status bit.
        let full = MBFieldBuilder(try mbField(Self.vector)).setting(49).field
        #expect(BDS40.isValid(full))
        #expect(!BDS40.isValid(MBFieldBuilder(full).setting(statusBit, false).field))
    }

    @Test("Validator rejects each reserved bit (40–47, 52–53)", arguments: [40, 43, 47, 52, 53])
    func reserved(bit: Int) throws {
        #expect(!BDS40.isValid(MBFieldBuilder(try mbField(Self.vector)).setting(bit).field))
    }

    @Test("Validator rejects implausible values: selected altitude above 52000 ft, QNH outside 870–1090 hPa")
    func implausible() {
        let base = MBFieldBuilder().setting(1).setting(2, 13, to: 2187)   // 34992 ft
        #expect(BDS40.isValid(base.field))
        #expect(!BDS40.isValid(base.setting(2, 13, to: 3300).field))   // 52800 ft
        #expect(!BDS40.isValid(base.setting(27).setting(28, 39, to: 0).field))   // 800 hPa
        #expect(!BDS40.isValid(base.setting(27).setting(28, 39, to: 3000).field))   // 1100 hPa
        #expect(BDS40.isValid(base.setting(27).setting(28, 39, to: 2000).field))   // 1000 hPa
    }

    @Test("All-zero MB is not a 4,0 (no field present)")
    func empty() {
        #expect(!BDS40.isValid(MessageField(0)))
    }
}
