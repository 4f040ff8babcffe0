import Testing
@testable import ModeS

/// Published Comm-B frames (pyModeS test suite / TU Delft "Mode-S and ADS-B" book examples)
/// with their published decoded values.
@Suite("Comm-B published vectors")
struct CommBPublishedVectorTests {
    static let tolerance = 1e-3

    @Test("1,7 capability report: inferred, and lists exactly the published registers")
    func capabilityReport() throws {
        let register = try #require(CommB.infer(try mbField("A0000638FA81C10000000081A92F")))
        guard case .capabilities(let r) = register else {
            Issue.record("expected 1,7, got \(register.bds)"); return
        }
        #expect(register.bds == BDS(1, 7))
        #expect(r.supportedRegisters == [
            BDS(0, 5), BDS(0, 6), BDS(0, 7), BDS(0, 8), BDS(0, 9), BDS(2, 0),
            BDS(4, 0), BDS(5, 0), BDS(5, 1), BDS(5, 2), BDS(6, 0),
        ])
    }

    @Test("2,0 identification: inferred with the published callsign",
          arguments: [
              ("A000083E202CC371C31DE0AA1CCF", "KLM1017"),
              ("A0001993202422F2E37CE038738E", "IBK2873"),
              ("A0001838201584F23468207CDFA5", "EXS2MF"),
          ])
    func identification(hex: String, callsign: String) throws {
        let register = try #require(CommB.infer(try mbField(hex)))
        guard case .identification(let r) = register else {
            Issue.record("expected 2,0, got \(register.bds)"); return
        }
        #expect(r.callsign == callsign)
        var fields = FieldSet()
        register.contribute(to: &fields)
        #expect(fields.flight == callsign)
        #expect(fields.bds == BDS(2, 0))
    }

    @Test("4,0 selected vertical intention: inferred with published MCP/FMS altitude and QNH",
          arguments: [
              ("A8001EBCAEE57730A80106DE1344", 24000, 24000, 1013.2),
              ("A000029C85E42F313000007047D3", 3008, 3008, 1020.0),
          ])
    func selectedVerticalIntention(hex: String, mcp: Int, fms: Int, qnh: Double) throws {
        let register = try #require(CommB.infer(try mbField(hex)))
        guard case .selectedVerticalIntention(let r) = register else {
            Issue.record("expected 4,0, got \(register.bds)"); return
        }
        #expect(r.selectedAltitudeMCP == mcp)
        #expect(r.selectedAltitudeFMS == fms)
        let setting = try #require(r.baroSetting)
        #expect(abs(setting - qnh) < Self.tolerance)
        var fields = FieldSet()
        register.contribute(to: &fields)
        #expect(fields.bds == BDS(4, 0))
        #expect(fields.navAltitudeMCP == mcp)
        #expect(fields.navAltitudeFMS == fms)
        #expect(abs((fields.navQNH ?? 0) - qnh) < Self.tolerance)
    }

    struct TrackAndTurnVector: Sendable, CustomTestStringConvertible {
        let hex: String, roll: Double, track: Double, gs: Int, trackRate: Double, tas: Int
        var testDescription: String { hex }
    }

    @Test("5,0 track and turn: inferred with the published values", arguments: [
        TrackAndTurnVector(hex: "A80006ACF9363D3BBF9CE98F1E1D", roll: -9.667969, track: 140.273438,
                           gs: 476, trackRate: -0.40625, tas: 466),
        TrackAndTurnVector(hex: "A000139381951536E024D4CCF6B5", roll: 2.109375, track: 114.257812,
                           gs: 438, trackRate: 0.125, tas: 424),
    ])
    func trackAndTurn(v: TrackAndTurnVector) throws {
        let register = try #require(CommB.infer(try mbField(v.hex)))
        guard case .trackAndTurn(let r) = register else {
            Issue.record("expected 5,0, got \(register.bds)"); return
        }
        #expect(abs(try #require(r.roll) - v.roll) < Self.tolerance)
        #expect(abs(try #require(r.track) - v.track) < Self.tolerance)
        #expect(r.groundSpeed == v.gs)
        #expect(abs(try #require(r.trackRate) - v.trackRate) < Self.tolerance)
        #expect(r.trueAirspeed == v.tas)
        var fields = FieldSet()
        register.contribute(to: &fields)
        #expect(fields.bds == BDS(5, 0))
        #expect(abs((fields.roll ?? .nan) - v.roll) < Self.tolerance)
        #expect(abs((fields.track ?? .nan) - v.track) < Self.tolerance)
        #expect(fields.gs == Double(v.gs))
        #expect(abs((fields.trackRate ?? .nan) - v.trackRate) < Self.tolerance)
        #expect(fields.tas == v.tas)
    }

    struct HeadingAndSpeedVector: Sendable, CustomTestStringConvertible {
        let hex: String, heading: Double, ias: Int, mach: Double, baroRate: Int, geomRate: Int
        var testDescription: String { hex }
    }

    @Test("6,0 heading and speed: inferred with the published values", arguments: [
        HeadingAndSpeedVector(hex: "A80004AAA74A072BFDEFC1D5CB4F", heading: 110.390625, ias: 259,
                              mach: 0.7, baroRate: -2144, geomRate: -2016),
        HeadingAndSpeedVector(hex: "A00004128F39F91A7E27C46ADC21", heading: 42.714844, ias: 252,
                              mach: 0.42, baroRate: -1920, geomRate: -1920),
    ])
    func headingAndSpeed(v: HeadingAndSpeedVector) throws {
        let register = try #require(CommB.infer(try mbField(v.hex)))
        guard case .headingAndSpeed(let r) = register else {
            Issue.record("expected 6,0, got \(register.bds)"); return
        }
        #expect(abs(try #require(r.magneticHeading) - v.heading) < Self.tolerance)
        #expect(r.indicatedAirspeed == v.ias)
        #expect(abs(try #require(r.mach) - v.mach) < Self.tolerance)
        #expect(r.baroRate == v.baroRate)
        #expect(r.inertialVerticalVelocity == v.geomRate)
        var fields = FieldSet()
        register.contribute(to: &fields)
        #expect(fields.bds == BDS(6, 0))
        #expect(abs((fields.magHeading ?? .nan) - v.heading) < Self.tolerance)
        #expect(fields.ias == v.ias)
        #expect(abs((fields.mach ?? .nan) - v.mach) < Self.tolerance)
        #expect(fields.baroRate == v.baroRate)
        #expect(fields.geomRate == v.geomRate)
    }

    @Test("1,0 data link capability: inferred with the published capability bits")
    func dataLinkCapability() throws {
        let register = try #require(CommB.infer(try mbField("A800178D10010080F50000D5893C")))
        guard case .dataLinkCapability(let r) = register else {
            Issue.record("expected 1,0, got \(register.bds)"); return
        }
        // Published decode (pyModeS test_bds_commb): ACAS operational, subnetwork version 0,
        // specific services, identification + squitter + SIC + GICB bits, RA capable, ACAS
        // version 1, no DTE.
        #expect(!r.continuation)
        #expect(!r.overlayCommandCapability)
        #expect(r.acasOperational)
        #expect(r.subnetworkVersion == 0)
        #expect(!r.enhancedProtocol)
        #expect(r.specificServices)
        #expect(r.uplinkELMThroughput == 0)
        #expect(r.downlinkELMThroughput == 0)
        #expect(r.aircraftIdentificationCapability)
        #expect(r.squitterCapability)
        #expect(r.surveillanceIdentifierCapability)
        #expect(r.commonUsageGICBChanged)
        #expect(!r.acasHybridSurveillance)
        #expect(r.acasResolutionAdvisories)
        #expect(r.acasVersion == 1)
        #expect(r.dteStatus == 0)
        var fields = FieldSet()
        register.contribute(to: &fields)
        #expect(fields.bds == BDS(1, 0))
    }
}
