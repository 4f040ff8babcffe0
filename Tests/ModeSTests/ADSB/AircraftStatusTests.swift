import Testing
@testable import ModeS


@Suite("AircraftStatus (TC 28, BDS 6,1)")
struct AircraftStatusTests {
    @Test("published vector 8DA2C1B6E112B600000000760759: no emergency, squawk 6513")
    func publishedVector() throws {
        // pyModeS: emergency_state 0, squawk "6513".
        let status = try #require(AircraftStatus(try me("8DA2C1B6E112B600000000760759")))
        #expect(status == .emergency(EmergencyStatus(emergency: .none, squawk: 0o6513)))
        var fields = FieldSet()
        status.contribute(to: &fields)
        #expect(fields.bds?.description == "6,1")
        #expect(fields.squawk == 0o6513)
        #expect(fields.squawk.map(Squawk.string) == "6513")
        #expect(fields.emergency == Emergency.none)
    }

    @Test("real frame 8DABB930E102BC00000000983D84: no emergency, squawk 6303")
    func realFrame() throws {
        // A CRC-valid frame from a dump1090 capture; pyModeS gives state 0, squawk "6303".
        let status = try #require(AircraftStatus(try me("8DABB930E102BC00000000983D84")))
        #expect(status == .emergency(EmergencyStatus(emergency: .none, squawk: 0o6303)))
    }

    @Test("every emergency state code maps to its Emergency case", arguments: Emergency.allCases)
    func emergencyStates(emergency: Emergency) throws {
        // ID13 for 7700 (C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4): A and B digits all ones,
        // C and D zero → 0 1 0 1 0 1 0 1 0 1 0 1 0.
        let status = try #require(AircraftStatus(field([(1, 5, 28), (6, 8, 1), (9, 11, UInt64(emergency.rawValue)),
                                                        (12, 24, 0b0_1010_1010_1010)])))
        #expect(status == .emergency(EmergencyStatus(emergency: emergency, squawk: 0o7700)))
        var fields = FieldSet()
        status.contribute(to: &fields)
        #expect(fields.emergency == emergency)
        #expect(fields.squawk == 0o7700)
    }

    @Test("an all-zero ID code means no squawk")
    func noSquawk() throws {
        let status = try #require(AircraftStatus(field([(1, 5, 28), (6, 8, 1), (9, 11, 1)])))
        #expect(status == .emergency(EmergencyStatus(emergency: .general, squawk: nil)))
        var fields = FieldSet()
        status.contribute(to: &fields)
        #expect(fields.squawk == nil)
        #expect(fields.emergency == .general)
    }

    @Test("subtype 2 carries the BDS 3,0 RA report in bits 9–56")
    func resolutionAdvisory() throws {
        // ARA bit 9 (RA generated), bit 10 (corrective), bit 15 (positive): a corrective climb;
        // RAC bit 23 (do not pass below); TTI 1 with threat address ABCDEF in bits 31–54.
        let payload: [(Int, Int, UInt64)] = [(9, 10, 0b11), (15, 15, 1), (23, 23, 1), (29, 30, 1),
                                            (31, 54, 0xABCDEF)]
        let status = try #require(AircraftStatus(field([(1, 5, 28), (6, 8, 2)] + payload)))
        guard case .resolutionAdvisory(let ra) = status else { Issue.record("expected an RA"); return }
        #expect(ra.advisory == .oneSense([.corrective, .positive]))
        #expect(ra.complement == .doNotPassBelow)
        #expect(!ra.terminated && !ra.multipleThreats)
        #expect(ra.threat == .address(0xABCDEF))
        // The same bits under the Comm-B 3,0 identifier give the same report.
        #expect(ra == ResolutionAdvisory(field([(1, 8, 0x30)] + payload)))

        var fields = FieldSet()
        status.contribute(to: &fields)
        var expected = FieldSet()
        expected.bds = BDS(6, 1)
        #expect(fields == expected)
    }

    @Test("subtype 0 (no information) and 3–7 (reserved) keep their subtype", arguments: [0, 3, 4, 5, 6, 7])
    func reservedSubtypes(subtype: Int) throws {
        let status = try #require(AircraftStatus(field([(1, 5, 28), (6, 8, UInt64(subtype)), (9, 24, 0xFFFF)])))
        #expect(status == .reserved(subtype: subtype))
        var fields = FieldSet()
        status.contribute(to: &fields)
        var expected = FieldSet()
        expected.bds = BDS(6, 1)
        #expect(fields == expected)
    }

    @Test("other type codes are not aircraft status", arguments: [0, 27, 29, 31])
    func otherTypeCodes(tc: Int) {
        #expect(AircraftStatus(field([(1, 5, UInt64(tc)), (6, 8, 1), (12, 24, 0x1FFF)])) == nil)
    }

    @Test("any TC 28 field decodes without trapping")
    func noTrapSweep() {
        var state: UInt64 = 28
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let raw = (state >> 8 & 0x0007_FFFF_FFFF_FFFF) | (28 << 51)
            guard let status = AircraftStatus(MessageField(raw)) else {
                Issue.record("a TC 28 field must always decode")
                return
            }
            var fields = FieldSet()
            status.contribute(to: &fields)
            if let squawk = fields.squawk { #expect(squawk <= 0o7777) }
        }
    }
}
