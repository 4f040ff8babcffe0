import Testing
@testable import ModeS


@Suite("TargetStateAndStatus (TC 29, BDS 6,2)")
struct TargetStateAndStatusTests {
    // MARK: Version 2 (subtype 1), real frames

    @Test("published vector 8DA05629EA21485CBF3F8CADAEEB decodes QNH 1012.8 and heading 66.796875")
    func publishedVector() throws {
        let m = try #require(TargetStateAndStatus(try me("8DA05629EA21485CBF3F8CADAEEB")))
        guard case .version2(let v2) = m else { Issue.record("expected version 2"); return }
        // Values from pyModeS 2.22 (selected_altitude, baro_pressure_setting, selected_heading,
        // autopilot…lnav_mode, tcas_operational) and the DO-260B table: altitude raw 532 →
        // 531 × 32 = 16992 ft MCP/FCU; QNH raw 267 → 800 + 266 × 0.8; heading raw 95 × 180/256.
        #expect(v2.selectedAltitudeType == .mcpFCU)
        #expect(v2.selectedAltitude == 16992)
        #expect(abs((v2.barometricPressureSetting ?? 0) - 1012.8) < 1e-9)
        #expect(v2.selectedHeading == 66.796875)
        #expect(v2.nacP == 9)
        #expect(v2.nicBaro == 1)
        #expect(v2.sil == 3)
        #expect(v2.silSupplement == .perhour)
        #expect(v2.navModes == [.autopilot, .vnav, .lnav, .tcas])
        #expect(v2.tcasOperational)

        var fields = FieldSet()
        m.contribute(to: &fields)
        #expect(fields.bds?.description == "6,2")
        #expect(abs((fields.navQNH ?? 0) - 1012.8) < 1e-9)
        #expect(fields.navHeading == 66.796875)
        #expect(fields.navAltitudeMCP == 16992)
        #expect(fields.navAltitudeFMS == nil)
        #expect(fields.navModes?.names == ["autopilot", "vnav", "lnav", "tcas"])
        #expect(fields.nacP == 9 && fields.nicBaro == 1 && fields.sil == 3)
        #expect(fields.silType == .perhour)
    }

    struct RealFrame: Sendable, CustomTestStringConvertible {
        let hex: String
        let altitude: Int
        let heading: Double?
        let modes: NavModes?
        var testDescription: String { hex }
    }

    /// Real DF17 TC 29 frames (CRC valid) captured by a dump1090 user, with the values
    /// pyModeS 2.22 gives: selected altitude (all MCP/FCU), QNH 1010.4 hPa (raw 264), selected
    /// heading, and the mode flags (None when the mode status bit 47 is 0). NACp 10, SIL 3,
    /// TCAS operational for all.
    static let realFrames: [RealFrame] = [
        RealFrame(hex: "8DA26093EA07E840015F08A2462E", altitude: 4000, heading: nil, modes: [.autopilot, .tcas]),
        RealFrame(hex: "8DABB930EA04C844035C08D3DBA8", altitude: 2400, heading: 0.703125, modes: nil),
        RealFrame(hex: "8DA8A0C1EA447840015F889F4770", altitude: 35008, heading: nil, modes: [.autopilot, .vnav, .tcas]),
        RealFrame(hex: "8DC07C7AEA07E845D15C086A2686", altitude: 4000, heading: 163.125, modes: nil),
    ]

    @Test("real version 2 frames agree with pyModeS", arguments: realFrames)
    func realVersion2Frames(frame: RealFrame) throws {
        let m = try #require(TargetStateAndStatus(try me(frame.hex)))
        guard case .version2(let v2) = m else { Issue.record("expected version 2"); return }
        #expect(v2.selectedAltitudeType == .mcpFCU)
        #expect(v2.selectedAltitude == frame.altitude)
        #expect(abs((v2.barometricPressureSetting ?? 0) - 1010.4) < 1e-9)
        #expect(v2.selectedHeading == frame.heading)
        #expect(v2.navModes == frame.modes)
        #expect(v2.nacP == 10 && v2.sil == 3 && v2.tcasOperational)
        var fields = FieldSet()
        m.contribute(to: &fields)
        #expect(fields.navModes == frame.modes)
        #expect(fields.navHeading == frame.heading)
    }

    @Test("selected heading sign bit adds 180 degrees")
    func headingSignBit() throws {
        // The published ME with bit 31 (sign) set, as pyModeS's regression test
        // (8DA05629EA21485EBF3F8CADAEEB, CRC not recomputed): 180 + 95 × 180/256.
        let m = try #require(TargetStateAndStatus.Version2(try me("8DA05629EA21485EBF3F8CADAEEB")))
        #expect(m.selectedHeading == 246.796875)
    }

    // MARK: Version 2, synthetic fields built from DO-260B Figure C-9

    @Test("FMS selected altitude goes to navAltitudeFMS, per-sample SIL supplement")
    func fmsAltitude() throws {
        let me = field([(1, 5, 29), (6, 7, 1), (8, 8, 1), (9, 9, 1), (10, 20, 1095),
                        (21, 29, 1), (30, 30, 1), (31, 39, 511), (40, 43, 11), (45, 46, 2)])
        let v2 = try #require(TargetStateAndStatus.Version2(me))
        #expect(v2.selectedAltitudeType == .fms)
        #expect(v2.selectedAltitude == 35008)          // (1095 − 1) × 32
        #expect(v2.barometricPressureSetting == 800)   // raw 1 = 800 hPa
        #expect(v2.selectedHeading == 359.296875)      // 511 × 180/256
        #expect(v2.silSupplement == .persample)
        var fields = FieldSet()
        TargetStateAndStatus.version2(v2).contribute(to: &fields)
        #expect(fields.navAltitudeFMS == 35008)
        #expect(fields.navAltitudeMCP == nil)
        #expect(fields.silType == .persample)
        #expect(fields.nacP == 11 && fields.sil == 2 && fields.nicBaro == 0)
    }

    @Test("zero altitude, QNH and heading status mean no data; mode status 0 means no modes")
    func version2NoData() throws {
        // Mode bits 48–54 all set but status bit 47 clear: only tcasOperational survives.
        let me = field([(1, 5, 29), (6, 7, 1), (31, 39, 100), (48, 54, 0b111_1111)])
        let v2 = try #require(TargetStateAndStatus.Version2(me))
        #expect(v2.selectedAltitude == nil)
        #expect(v2.barometricPressureSetting == nil)
        #expect(v2.selectedHeading == nil)
        #expect(v2.navModes == nil)
        #expect(v2.tcasOperational)
        var fields = FieldSet()
        TargetStateAndStatus.version2(v2).contribute(to: &fields)
        #expect(fields.navQNH == nil && fields.navHeading == nil && fields.navModes == nil)
        #expect(fields.navAltitudeMCP == nil && fields.navAltitudeFMS == nil)
    }

    @Test("mode status 1 with every mode bit but the ADS-R bit 51")
    func allModes() throws {
        let me = field([(1, 5, 29), (6, 7, 1), (47, 50, 0b1111), (52, 54, 0b111)])
        let v2 = try #require(TargetStateAndStatus.Version2(me))
        #expect(v2.navModes == [.autopilot, .vnav, .altitudeHold, .approach, .tcas, .lnav])
        let onlyReservedBit = field([(1, 5, 29), (6, 7, 1), (47, 47, 1), (51, 51, 1)])
        #expect(TargetStateAndStatus.Version2(onlyReservedBit)?.navModes == [])
    }

    @Test("highest QNH code is 800 + 510 × 0.8 = 1208 hPa")
    func maximumQNH() throws {
        let v2 = try #require(TargetStateAndStatus.Version2(field([(1, 5, 29), (6, 7, 1), (21, 29, 511)])))
        #expect(v2.barometricPressureSetting == 1208)
        #expect(TargetStateAndStatus.Version2(field([(1, 5, 29), (6, 7, 1), (10, 20, 2047)]))?.selectedAltitude == 65472)
    }

    // MARK: Version 1 (subtype 0), synthetic fields built from Doc 9871 Table B-2-98

    static func version1(source: UInt64 = 1, altitude: UInt64 = 360, horizontal: UInt64 = 1,
                         angle: UInt64 = 275, track: UInt64 = 0, extra: [(Int, Int, UInt64)] = []) -> MessageField {
        field([(1, 5, 29), (6, 7, 0), (8, 9, source), (10, 10, 1), (12, 13, 2), (14, 15, 2),
               (16, 25, altitude), (26, 27, horizontal), (28, 36, angle), (37, 37, track),
               (38, 39, 1), (40, 43, 9), (44, 44, 1), (45, 46, 2), (53, 53, 1), (54, 56, 3)] + extra)
    }

    /// Cross-check: pyModeS 2.22 decodes this field (as 8D406B90E8D4B43133380B000000) to target
    /// altitude 35000 ft MCP/FCU MSL, vertical mode 2, horizontal mode 1, angle 275, TCAS
    /// operational, RA active, emergency 3, NACp 9, SIL 2. It labels bit 37 = 0 "Track"; Doc
    /// 9871 §B.2.3.9.10 says 0 is the target heading (readsb agrees), which is what we follow.
    @Test("version 1 fields decode as Table B-2-98 codes them")
    func version1Fields() throws {
        let m = try #require(TargetStateAndStatus(Self.version1()))
        guard case .version1(let v1) = m else { Issue.record("expected version 1"); return }
        #expect(v1.verticalDataSource == .mcpFCU)
        #expect(v1.targetAltitudeType == .meanSeaLevel)
        #expect(v1.targetAltitudeCapability == .holdingMCPOrFMS)
        #expect(v1.verticalMode == .capturingOrMaintaining)
        #expect(v1.targetAltitude == 35000)            // 360 × 100 − 1000
        #expect(v1.horizontalDataSource == .mcpFCU)
        #expect(v1.targetAngle == 275)
        #expect(v1.targetAngleType == .heading)        // bit 37 = 0 is heading (§B.2.3.9.10)
        #expect(v1.horizontalMode == .acquiring)
        #expect(v1.nacP == 9 && v1.nicBaro == 1 && v1.sil == 2)
        #expect(v1.acasOperational)                    // bit 52 = 0: operational or unknown
        #expect(v1.acasResolutionAdvisoryActive)
        #expect(v1.emergency == .minfuel)

        var fields = FieldSet()
        m.contribute(to: &fields)
        #expect(fields.bds?.description == "6,2")
        #expect(fields.navAltitudeMCP == 35000 && fields.navAltitudeFMS == nil)
        #expect(fields.navHeading == 275)
        #expect(fields.emergency == .minfuel)
        #expect(fields.nacP == 9 && fields.nicBaro == 1 && fields.sil == 2)
        #expect(fields.silType == .unknown)
        #expect(fields.navQNH == nil && fields.navModes == nil)
    }

    /// §B.2.3.9.7 codes 0, 1, 2 as −1000, −900, −800 ft and 1010 as 100 000 ft: 100 ft steps
    /// from −1000 ft. (Its middle rows, 11 as 0 ft and 12 as 100 ft, contradict both ends; the
    /// linear coding, which pyModeS and readsb use too, puts 0 ft at code 10.)
    @Test("version 1 target altitude range: code 0 is −1000 ft, 1010 is 100000 ft, 1011 is invalid")
    func version1AltitudeRange() {
        #expect(TargetStateAndStatus.Version1(Self.version1(altitude: 0))?.targetAltitude == -1000)
        #expect(TargetStateAndStatus.Version1(Self.version1(altitude: 2))?.targetAltitude == -800)
        #expect(TargetStateAndStatus.Version1(Self.version1(altitude: 10))?.targetAltitude == 0)
        #expect(TargetStateAndStatus.Version1(Self.version1(altitude: 1010))?.targetAltitude == 100_000)
        #expect(TargetStateAndStatus.Version1(Self.version1(altitude: 1011))?.targetAltitude == nil)
        #expect(TargetStateAndStatus.Version1(Self.version1(altitude: 1023))?.targetAltitude == nil)
    }

    @Test("version 1 target angle 359 is valid, 360…511 invalid")
    func version1AngleRange() {
        #expect(TargetStateAndStatus.Version1(Self.version1(angle: 359))?.targetAngle == 359)
        #expect(TargetStateAndStatus.Version1(Self.version1(angle: 360))?.targetAngle == nil)
        #expect(TargetStateAndStatus.Version1(Self.version1(angle: 511))?.targetAngle == nil)
    }

    @Test("version 1 sources: none hides the target, holding and FMS route the altitude")
    func version1Sources() throws {
        let none = try #require(TargetStateAndStatus.Version1(Self.version1(source: 0, horizontal: 0)))
        #expect(none.verticalDataSource == nil && none.targetAltitude == nil)
        #expect(none.horizontalDataSource == nil && none.targetAngle == nil)
        var fields = FieldSet()
        none.contribute(to: &fields)
        #expect(fields.navAltitudeMCP == nil && fields.navAltitudeFMS == nil && fields.navHeading == nil)

        let holding = try #require(TargetStateAndStatus.Version1(Self.version1(source: 2)))
        #expect(holding.verticalDataSource == .holdingAltitude && holding.targetAltitude == 35000)
        fields = FieldSet()
        holding.contribute(to: &fields)
        #expect(fields.navAltitudeMCP == nil && fields.navAltitudeFMS == nil)

        let fms = try #require(TargetStateAndStatus.Version1(Self.version1(source: 3, horizontal: 3)))
        #expect(fms.verticalDataSource == .fmsRNAV && fms.horizontalDataSource == .fmsRNAV)
        fields = FieldSet()
        fms.contribute(to: &fields)
        #expect(fields.navAltitudeFMS == 35000 && fields.navAltitudeMCP == nil)
        #expect(TargetStateAndStatus.Version1(Self.version1(horizontal: 2))?.horizontalDataSource == .maintainingCurrent)
    }

    @Test("version 1 track angle is kept but not written as navHeading")
    func version1Track() throws {
        let v1 = try #require(TargetStateAndStatus.Version1(Self.version1(track: 1)))
        #expect(v1.targetAngleType == .track && v1.targetAngle == 275)
        var fields = FieldSet()
        v1.contribute(to: &fields)
        #expect(fields.navHeading == nil)
    }

    @Test("version 1 reserved codes and ACAS bits")
    func version1Reserved() throws {
        let v1 = try #require(TargetStateAndStatus.Version1(
            Self.version1(extra: [(12, 13, 3), (14, 15, 3), (38, 39, 3), (52, 52, 1), (53, 53, 0), (54, 56, 7)])))
        #expect(v1.targetAltitudeCapability == nil)
        #expect(v1.verticalMode == nil && v1.horizontalMode == nil)
        #expect(!v1.acasOperational && !v1.acasResolutionAdvisoryActive)
        #expect(v1.emergency == .reserved)
        let unknownModes = try #require(TargetStateAndStatus.Version1(Self.version1(extra: [(14, 15, 0), (38, 39, 0)])))
        #expect(unknownModes.verticalMode == nil && unknownModes.horizontalMode == nil)
    }

    @Test("version 1 with the backward compatibility flag set is not decoded")
    func version1CompatibilityFlag() {
        #expect(TargetStateAndStatus(Self.version1(extra: [(11, 11, 1)])) == nil)
    }

    // MARK: Invalid input

    @Test("reserved subtypes 2 and 3 and other type codes decode to nil", arguments: [
        [(1, 5, UInt64(29)), (6, 7, UInt64(2))], [(1, 5, 29), (6, 7, 3)], [(1, 5, 28), (6, 7, 1)],
        [(1, 5, 31), (6, 7, 0)], [(1, 5, 0)],
    ] as [[(Int, Int, UInt64)]])
    func invalid(parts: [(Int, Int, UInt64)]) {
        let me = field(parts)
        #expect(TargetStateAndStatus(me) == nil)
    }

    @Test("the subtype initialisers refuse the other subtype")
    func crossSubtype() {
        #expect(TargetStateAndStatus.Version1(field([(1, 5, 29), (6, 7, 1)])) == nil)
        #expect(TargetStateAndStatus.Version2(field([(1, 5, 29), (6, 7, 0)])) == nil)
    }

    @Test("any TC 29 field decodes or returns nil without trapping")
    func noTrapSweep() {
        var rng = SplitMix64(seed: 29)
        var decoded = 0
        for _ in 0..<20_000 {
            let raw = (rng.next() & 0x0007_FFFF_FFFF_FFFF) | (29 << 51)
            if let m = TargetStateAndStatus(MessageField(raw)) {
                decoded += 1
                var fields = FieldSet()
                m.contribute(to: &fields)
                if let heading = fields.navHeading { #expect(heading >= 0 && heading < 360) }
                if let qnh = fields.navQNH { #expect(qnh >= 800 && qnh <= 1208) }
            }
        }
        // Subtypes 0 (bit 11 clear) and 1 decode: about 3/8 of random fields.
        #expect(decoded > 5_000 && decoded < 10_000)
    }
}
