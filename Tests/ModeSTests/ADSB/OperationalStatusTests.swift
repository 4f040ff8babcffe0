import Testing
@testable import ModeS


@Suite("OperationalStatus (TC 31, BDS 6,5)")
struct OperationalStatusTests {
    // MARK: Real frames

    /// Real DF17 frames (CRC valid) with ME F8230002004AB8 / F8230006004AB8. pyModeS 2.22 gives
    /// version 2, NACp 10, SIL 3 per hour, NIC-A 0; the rest is read from Doc 9871 Tables
    /// C-23/C-25: CC byte 0x23 = TCAS operational (11), ARV (15), TS (16); OM byte 0x02 =
    /// SDA 2 (31–32), 0x06 adds single antenna (30); last byte 0xB8 = GVA 2, SIL 3,
    /// NICbaro 1, HRD true, SIL per hour.
    @Test("real airborne version 2 frames", arguments: [
        ("8DA8A0C1F8230002004AB8C110DB", false), ("8DA26093F8230002004AB8E6AF28", false),
        ("8DABB930F8230006004AB81F4B53", true), ("8DADC5FFF8230006004AB8532DF6", true),
    ])
    func realAirborneVersion2(hex: String, singleAntenna: Bool) throws {
        let s = try #require(OperationalStatus(try me(hex)))
        #expect(s.subtype == .airborne)
        #expect(s.version == 2)
        #expect(s.capabilities == .airborne(.init(
            tcasOperational: true, cockpitDisplay: nil, es1090In: false, airReferencedVelocity: true,
            targetStateReport: true, trajectoryChangeReport: 0, uatIn: false)))
        #expect(s.operationalMode == .init(
            tcasResolutionAdvisoryActive: false, identSwitchActive: false, receivingATCServices: false,
            singleAntenna: singleAntenna, systemDesignAssurance: 2, gpsAntennaOffset: nil))
        #expect(s.nicSupplementA == false)
        #expect(s.nacP == 10)
        #expect(s.gva == 2)
        #expect(s.sil == 3)
        #expect(s.nicBaro == 1)
        #expect(s.horizontalReference == .trueNorth)
        #expect(s.silSupplement == .perhour)
        #expect(s.barometricAltitudeQuality == nil && s.lengthWidthCode == nil && s.surfaceAngle == nil)

        var fields = FieldSet()
        s.contribute(to: &fields)
        #expect(fields.bds?.description == "6,5")
        #expect(fields.version == 2)
        #expect(fields.nacP == 10 && fields.sil == 3 && fields.silType == .perhour)
        #expect(fields.gva == 2 && fields.sda == 2 && fields.nicBaro == 1)
        #expect(fields.nacV == nil)
    }

    /// More real airborne frames: NACp from pyModeS (nac_p), capability byte per Table C-23.
    @Test("real airborne frames: NACp and capability bits", arguments: [
        ("8D4B17E5F8210002004BB8B1F1AC", 11, false),   // CC 0x21: TCAS + TS, no ARV
        ("8D495146F82300020049B835F646", 9, true),     // CC 0x23: TCAS + ARV + TS
        ("8D47873AF8200002004AB82AB1E9", 10, false),   // CC 0x20: TCAS only
    ])
    func realAirborneNACp(hex: String, nacP: Int, arv: Bool) throws {
        let s = try #require(OperationalStatus(try me(hex)))
        #expect(s.version == 2 && s.nacP == nacP)
        guard case .airborne(let cc)? = s.capabilities else { Issue.record("expected airborne CC"); return }
        #expect(cc.tcasOperational && cc.airReferencedVelocity == arv)
    }

    @Test("real surface version 2 frame 903A33FFF90200040049001EA8E2")
    func realSurfaceVersion2() throws {
        // DF18 surface status from jet1090's tests (version 2, NIC-A 0, NACp 9, SIL 0, TAH 0,
        // HRD 0, SIL supplement 0; pyModeS agrees on version, NACp, SIL). CC byte 0x02 sets
        // B2 low (bit 15); OM byte 0x04 sets single antenna (bit 30); antenna offset 0 = no data.
        let s = try #require(OperationalStatus(try me("903A33FFF90200040049001EA8E2")))
        #expect(s.subtype == .surface)
        #expect(s.version == 2)
        #expect(s.capabilityClassBits == 0x020)
        #expect(s.capabilities == .surface(.init(
            positionOffsetApplied: false, cockpitDisplay: nil, es1090In: false, b2Low: true,
            uatIn: false, nacV: 0, nicSupplementC: false)))
        let om = try #require(s.operationalMode)
        #expect(om.singleAntenna == true && om.systemDesignAssurance == 0)
        let offset = try #require(om.gpsAntennaOffset)
        #expect(offset.lateralMeters == nil && offset.longitudinalMeters == nil && !offset.offsetAppliedBySensor)
        #expect(s.lengthWidthCode == 0)
        #expect(s.nicSupplementA == false && s.nacP == 9 && s.sil == 0)
        #expect(s.surfaceAngle == .track)
        #expect(s.horizontalReference == .trueNorth)
        #expect(s.silSupplement == .perhour)
        #expect(s.nicBaro == nil && s.gva == nil)

        var fields = FieldSet()
        s.contribute(to: &fields)
        #expect(fields.version == 2 && fields.nacP == 9 && fields.sil == 0 && fields.silType == .perhour)
        #expect(fields.nacV == 0 && fields.sda == 0)
        #expect(fields.nicBaro == nil && fields.gva == nil)
    }

    // MARK: Version 2, synthetic fields built from Doc 9871 Tables C-23 to C-26 and C-33

    /// pyModeS 2.22 agrees on this field (as 8D406B90F9315F3BA75BEE000000): version 2, NACp 11,
    /// NIC-A 1 and NIC-C 1, SIL 2 per sample.
    @Test("version 2 surface: capability classes, L/W, GPS antenna offset, heading flag")
    func surfaceVersion2() throws {
        let me = field([(1, 5, 31), (6, 8, 1), (11, 12, 0b11), (16, 16, 1), (17, 19, 2), (20, 20, 1),
                        (21, 24, 15), (27, 29, 0b111), (31, 32, 3), (33, 35, 0b101), (36, 40, 7),
                        (41, 43, 2), (44, 44, 1), (45, 48, 11), (49, 50, 3), (51, 52, 2), (53, 55, 0b111)])
        let s = try #require(OperationalStatus(me))
        #expect(s.capabilities == .surface(.init(
            positionOffsetApplied: true, cockpitDisplay: nil, es1090In: true, b2Low: false,
            uatIn: true, nacV: 2, nicSupplementC: true)))
        let om = try #require(s.operationalMode)
        #expect(om.tcasResolutionAdvisoryActive && om.identSwitchActive && om.receivingATCServices)
        #expect(om.singleAntenna == false && om.systemDesignAssurance == 3)
        #expect(om.gpsAntennaOffset?.lateralMeters == 2)        // 101: right 2 m
        #expect(om.gpsAntennaOffset?.longitudinalMeters == 12)  // 00111: (7 − 1) × 2 m
        #expect(s.lengthWidthCode == 15)
        #expect(s.nicSupplementA == true && s.nacP == 11 && s.sil == 2)
        #expect(s.gva == nil)                                   // bits 49–50 reserved on the surface
        #expect(s.surfaceAngle == .heading)
        #expect(s.horizontalReference == .magneticNorth)
        #expect(s.silSupplement == .persample)
        var fields = FieldSet()
        s.contribute(to: &fields)
        #expect(fields.nacV == 2 && fields.sda == 3 && fields.silType == .persample)
    }

    @Test("GPS antenna offset codes (Table C-33 and the longitudinal table)", arguments: [
        (0b000, 0, Int?.none, Int?.none, false), (0b100, 2, 0, 2, false), (0b001, 1, -2, nil, true),
        (0b011, 31, -6, 60, false), (0b111, 3, 6, 4, false), (0b010, 0, -4, nil, false),
    ])
    func antennaOffset(lateral: Int, longitudinal: Int, lateralMeters: Int?, longitudinalMeters: Int?, applied: Bool) {
        let offset = OperationalStatus.GPSAntennaOffset(lateralCode: lateral, longitudinalCode: longitudinal)
        #expect(offset.lateralMeters == lateralMeters)
        #expect(offset.longitudinalMeters == longitudinalMeters)
        #expect(offset.offsetAppliedBySensor == applied)
    }

    @Test("airborne version 2 has no antenna offset; UAT IN and TC decode")
    func airborneVersion2Extras() throws {
        let me = field([(1, 5, 31), (6, 8, 0), (17, 18, 2), (19, 19, 1), (33, 40, 0xFF), (41, 43, 2)])
        let s = try #require(OperationalStatus(me))
        guard case .airborne(let cc)? = s.capabilities else { Issue.record("expected airborne CC"); return }
        #expect(cc.trajectoryChangeReport == 2 && cc.uatIn == true && !cc.tcasOperational)
        #expect(s.operationalMode?.gpsAntennaOffset == nil)
    }

    // MARK: Version 1, synthetic fields built from Doc 9871 §B.2.3.10

    /// pyModeS 2.22 agrees on this field (as 8D406B90F812402F00386E000000): version 1, NACp 8,
    /// NIC supplement 1, SIL 2 with an unknown base.
    @Test("version 1 airborne: NOT-ACAS, CDTI, BAQ, no SIL supplement")
    func airborneVersion1() throws {
        let me = field([(1, 5, 31), (6, 8, 0), (12, 12, 1), (15, 15, 1), (17, 18, 1), (27, 27, 1), (29, 29, 1),
                        (30, 32, 0b111), (41, 43, 1), (44, 44, 1), (45, 48, 8), (49, 50, 1), (51, 52, 2),
                        (53, 55, 0b111)])
        let s = try #require(OperationalStatus(me))
        #expect(s.version == 1)
        #expect(s.capabilities == .airborne(.init(
            tcasOperational: true, cockpitDisplay: true, es1090In: nil, airReferencedVelocity: true,
            targetStateReport: false, trajectoryChangeReport: 1, uatIn: nil)))
        // Bits 30–32 have no meaning in version 1: no single-antenna flag, no SDA.
        #expect(s.operationalMode == .init(
            tcasResolutionAdvisoryActive: true, identSwitchActive: false, receivingATCServices: true,
            singleAntenna: nil, systemDesignAssurance: nil, gpsAntennaOffset: nil))
        #expect(s.nicSupplementA == true && s.nacP == 8 && s.sil == 2 && s.nicBaro == 1)
        #expect(s.barometricAltitudeQuality == 1 && s.gva == nil)
        #expect(s.horizontalReference == .magneticNorth)
        #expect(s.silSupplement == nil)                      // bit 55 is reserved in version 1

        var fields = FieldSet()
        s.contribute(to: &fields)
        #expect(fields.version == 1 && fields.nacP == 8 && fields.sil == 2 && fields.nicBaro == 1)
        #expect(fields.silType == .unknown)
        #expect(fields.gva == nil && fields.sda == nil)
    }

    @Test("version 1 NOT-ACAS bit set means TCAS not operational")
    func notACAS() throws {
        let s = try #require(OperationalStatus(field([(1, 5, 31), (11, 11, 1), (41, 43, 1)])))
        guard case .airborne(let cc)? = s.capabilities else { Issue.record("expected airborne CC"); return }
        #expect(!cc.tcasOperational)
    }

    @Test("version 1 surface: POA, CDTI, B2 low, L/W, track/heading flag")
    func surfaceVersion1() throws {
        let me = field([(1, 5, 31), (6, 8, 1), (11, 11, 1), (15, 15, 1), (16, 20, 0b11111), (21, 24, 10),
                        (41, 43, 1), (45, 48, 7), (49, 50, 3), (53, 53, 1)])
        let s = try #require(OperationalStatus(me))
        #expect(s.capabilities == .surface(.init(
            positionOffsetApplied: true, cockpitDisplay: false, es1090In: nil, b2Low: true,
            uatIn: nil, nacV: nil, nicSupplementC: nil)))
        #expect(s.lengthWidthCode == 10)
        #expect(s.surfaceAngle == .heading && s.nacP == 7)
        #expect(s.nicBaro == nil && s.gva == nil && s.barometricAltitudeQuality == nil)
        #expect(s.operationalMode?.gpsAntennaOffset == nil)
    }

    @Test("CC with non-zero service-level bits is not decoded", arguments: [
        (1, 9, 9), (1, 10, 10), (1, 13, 13), (1, 14, 14), (2, 9, 9), (2, 10, 10),
    ])
    func serviceLevelBits(version: Int, first: Int, last: Int) throws {
        let me = field([(1, 5, 31), (first, last, 1), (41, 43, UInt64(version)), (45, 48, 5)])
        let s = try #require(OperationalStatus(me))
        #expect(s.capabilities == nil)
        #expect(s.nacP == 5)
    }

    @Test("version 2 ignores bits 13–14 (reserved, not service level)")
    func version2ReservedCCBits() throws {
        let s = try #require(OperationalStatus(field([(1, 5, 31), (13, 14, 3), (41, 43, 2)])))
        #expect(s.capabilities != nil)
    }

    @Test("OM format other than 0 leaves the operational modes and SDA undecoded", arguments: [1, 2, 3])
    func operationalModeFormat(format: Int) throws {
        let me = field([(1, 5, 31), (25, 26, UInt64(format)), (31, 32, 3), (41, 43, 2)])
        let s = try #require(OperationalStatus(me))
        #expect(s.operationalMode == nil)
        var fields = FieldSet()
        s.contribute(to: &fields)
        #expect(fields.sda == nil && fields.version == 2)
    }

    // MARK: Version 0 and reserved versions

    @Test("version 0 and versions 3–7 keep only subtype, version and raw CC/OM bits", arguments: [0, 3, 4, 5, 6, 7])
    func versionWithoutLayout(version: Int) throws {
        let me = field([(1, 5, 31), (9, 24, 0x1234), (25, 40, 0x00F0), (41, 43, UInt64(version)),
                        (44, 56, 0x1FFF)])
        let s = try #require(OperationalStatus(me))
        #expect(s.version == version)
        #expect(s.capabilityClassBits == 0x1234 && s.operationalModeBits == 0x00F0)
        #expect(s.capabilities == nil && s.operationalMode == nil)
        #expect(s.nicSupplementA == nil && s.nacP == nil && s.sil == nil && s.gva == nil)
        #expect(s.nicBaro == nil && s.horizontalReference == nil && s.silSupplement == nil)
        var fields = FieldSet()
        s.contribute(to: &fields)
        var expected = FieldSet()
        expected.bds = BDS(6, 5)
        expected.version = version
        #expect(fields == expected)
    }

    // MARK: Invalid input

    @Test("reserved subtypes 2–7 and other type codes decode to nil", arguments: [2, 3, 4, 5, 6, 7])
    func reservedSubtype(subtype: Int) {
        #expect(OperationalStatus(field([(1, 5, 31), (6, 8, UInt64(subtype)), (41, 43, 2)])) == nil)
    }

    @Test("another type code is not an operational status")
    func otherTypeCode() {
        #expect(OperationalStatus(field([(1, 5, 29), (41, 43, 2)])) == nil)
        #expect(OperationalStatus(MessageField(0)) == nil)
    }

    @Test("any TC 31 field decodes or returns nil without trapping")
    func noTrapSweep() {
        var state: UInt64 = 31
        var decoded = 0
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let raw = (state >> 8 & 0x0007_FFFF_FFFF_FFFF) | (31 << 51)
            if let s = OperationalStatus(MessageField(raw)) {
                decoded += 1
                var fields = FieldSet()
                s.contribute(to: &fields)
                #expect((0...7).contains(fields.version ?? -1))
                if let offset = s.operationalMode?.gpsAntennaOffset {
                    #expect((-6...6).contains(offset.lateralMeters ?? 0))
                    #expect((2...60).contains(offset.longitudinalMeters ?? 2))
                }
            }
        }
        // Subtypes 0 and 1 decode: about a quarter of random fields.
        #expect(decoded > 4_000 && decoded < 6_000)
    }
}
