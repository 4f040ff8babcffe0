import Foundation
import Testing
@testable import ModeS

/// ADS-B ME encoders: published squitters are reproduced bit for bit, and encoded positions,
/// velocities and statuses decode back to their inputs.
struct ADSBEncodingTests {
    @Test(arguments: [
        ("8D4840D6202CC371C32CE0576098", UInt32(0x4840D6), "KLM1023"),
        ("8D406B902015A678D4D220AA4BDA", UInt32(0x406B90), "EZY85MH"),
    ])
    func identificationReproducesThePublishedFrames(hex: String, address: UInt32, callsign: String) throws {
        let category = try #require(EmitterCategory(typeCode: 4, category: 0))
        let me = try #require(MessageField.identification(category: category, callsign: callsign))
        #expect(Frame.extendedSquitter(address: address, me: me).hex == hex)
    }

    @Test func identificationRoundTripsCategoryAndCallsign() throws {
        let category = try #require(EmitterCategory(typeCode: 3, category: 2))   // B2
        let me = try #require(MessageField.identification(category: category, callsign: "GLIDER1"))
        let message = try #require(ModeSMessage.decode(Frame.extendedSquitter(address: 0x3C6541, me: me)))
        #expect(message.fields.flight == "GLIDER1")
        #expect(message.fields.category?.description == "B2")
        #expect(MessageField.identification(category: category, callsign: "TOO-LONG") == nil)
    }

    @Test(arguments: [
        ("8D40621D58C382D690C8AC2863A7", UInt32(0x40621D), 38000, CPRFormat.even, UInt32(93000), UInt32(51372)),
        ("8D40621D58C386435CC412692AD6", UInt32(0x40621D), 38000, .odd, 74158, 50194),
        ("8D40058B58C901375147EFD09357", UInt32(0x40058B), 39000, .even, 39848, 83951),
        ("8D484FDE5803B647ECEC4FCDD74F", UInt32(0x484FDE), -325, .odd, 74742, 60495),
        ("8D4401E458058645A8EA90496290", UInt32(0x4401E4), 0, .odd, 74452, 60048),
        ("8D343386581F06318AD4FECAB734", UInt32(0x343386), 5000, .odd, 71877, 54526),
    ])
    func airbornePositionReproducesThePublishedFrames(
        hex: String, address: UInt32, altitude: Int, format: CPRFormat, lat: UInt32, lon: UInt32
    ) throws {
        let me = try #require(MessageField.airbornePosition(
            altitude: altitude, cpr: CPRPosition(format: format, lat: lat, lon: lon)))
        #expect(Frame.extendedSquitter(address: address, me: me).hex == hex)
    }

    @Test func airbornePositionOfThePublishedDecodedCoordinateReproducesTheFrame() throws {
        // Published local decode of 8D40621D58C382D690C8AC2863A7: 52.257202, 3.919373.
        let me = try #require(MessageField.airbornePosition(
            altitude: 38000, position: Coordinate(latitude: 52.257202, longitude: 3.919373), format: .even))
        #expect(Frame.extendedSquitter(address: 0x40621D, me: me).hex == "8D40621D58C382D690C8AC2863A7")
    }

    @Test func encodedEvenOddPairsDecodeToThePosition() throws {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<300 {
            let position = Coordinate(latitude: rng.unit() * 170 - 85, longitude: rng.unit() * 360 - 180)
            let altitude = Int(rng.next() % 1800) * 25
            let even = try #require(MessageField.airbornePosition(altitude: altitude, position: position, format: .even))
            let odd = try #require(MessageField.airbornePosition(altitude: altitude, position: position, format: .odd))
            let e = try #require(AirbornePosition(even)), o = try #require(AirbornePosition(odd))
            #expect(e.baroAltitude == altitude && o.baroAltitude == altitude)
            #expect(e.cprFormat == .even && o.cprFormat == .odd)
            let decoded = try #require(CPR.globalAirborne(even: e.cpr, odd: o.cpr, latest: .odd))
            // Within the CPR resolution (about 5 m, longitude zones grow towards the poles).
            let north = (decoded.latitude - position.latitude) * 111_320
            let east = Coordinate.normalizeLongitude(decoded.longitude - position.longitude) * 111_320
                * cos(position.latitude * .pi / 180)
            #expect((north * north + east * east).squareRoot() < 15, "\(position)")
        }
    }

    @Test func airbornePositionRejectsBadInput() {
        let cpr = CPRPosition(format: .even, lat: 0, lon: 0)
        #expect(MessageField.airbornePosition(typeCode: 19, altitude: 1000, cpr: cpr) == nil)
        #expect(MessageField.airbornePosition(altitude: 1000, position: Coordinate(latitude: .nan, longitude: 0), format: .odd) == nil)
        // GNSS height type codes carry the altitude as GNSS height.
        let gnss = MessageField.airbornePosition(typeCode: 20, altitude: 1025, cpr: cpr).flatMap(AirbornePosition.init)
        #expect(gnss?.gnssAltitude == 1025 && gnss?.baroAltitude == nil)
        // No altitude: field 0.
        #expect(MessageField.airbornePosition(altitude: nil, cpr: cpr)?.bits(9, 20) == 0)
    }

    @Test(arguments: [
        ("8C4841753A9A153237AEF0F275BE", UInt32(0x484175), 4, 17.0, 92.8125, CPRFormat.odd, UInt32(39195), UInt32(110320)),
        ("8C394C0F389B1667E947DB7BB8BC", UInt32(0x394C0F), 4, 1.0, 137.8125, .odd, 78836, 83931),
        ("8C3461CF398D60597B4EA434C4D7", UInt32(0x3461CF), 4, 7.5, 241.875, .even, 11453, 85668),
        ("8C3461CF3A7F3059C94E5BF4E169", UInt32(0x3461CF), 4, 15, 323.4375, .even, 11492, 85595),
        ("8C3950CF3DEDE47BAC304D3B5122", UInt32(0x3950CF), 4, 70, 264.375, .odd, 15830, 12365),
        ("8C3933203EDDE47B9E2FFA5E77B8", UInt32(0x393320), 4, 100, 264.375, .odd, 15823, 12282),
        ("8D3933203FCDE2A84E39E1C6C5BC", UInt32(0x393320), 5, 175, 264.375, .even, 87079, 14817),
    ])
    func surfacePositionReproducesThePublishedFrames(
        hex: String, address: UInt32, ca: Int, speed: Double, track: Double, format: CPRFormat, lat: UInt32, lon: UInt32
    ) throws {
        let me = try #require(MessageField.surfacePosition(
            groundSpeed: speed, track: track, cpr: CPRPosition(format: format, lat: lat, lon: lon)))
        #expect(Frame.extendedSquitter(address: address, capability: ca, me: me).hex == hex)
    }

    @Test func movementCodeInvertsTheSpeedTable() {
        #expect(SurfacePosition.movementCode(groundSpeed: nil) == 0)
        #expect(SurfacePosition.movementCode(groundSpeed: 0) == 1)
        #expect(SurfacePosition.movementCode(groundSpeed: 500) == 124)
        for code in 1...124 {
            let speed = SurfacePosition.speed(movement: code)!
            #expect(SurfacePosition.movementCode(groundSpeed: speed) == code, "code \(code)")
            // Just below the next step's lower bound still gives this code.
            if let next = SurfacePosition.speed(movement: code + 1) {
                #expect(SurfacePosition.movementCode(groundSpeed: next - 1e-6) == code, "code \(code)")
            }
        }
    }

    @Test func surfacePositionPairsDecodeNearTheAirport() throws {
        let airport = Coordinate(latitude: 52.3105, longitude: 4.7683)
        let position = Coordinate(latitude: 52.3086, longitude: 4.7639)
        let even = try #require(MessageField.surfacePosition(groundSpeed: 12, track: 45, position: position, format: .even))
        let odd = try #require(MessageField.surfacePosition(groundSpeed: 12, track: 45, position: position, format: .odd))
        let e = try #require(SurfacePosition(even)), o = try #require(SurfacePosition(odd))
        #expect(e.groundSpeed == 12 && e.track == 45)
        let decoded = try #require(CPR.globalSurface(even: e.cpr, odd: o.cpr, latest: .even, reference: airport))
        #expect(abs(decoded.latitude - position.latitude) < 3e-5)
        #expect(abs(decoded.longitude - position.longitude) < 5e-5)
        // No track: status bit 0.
        #expect(MessageField.surfacePosition(groundSpeed: 0, track: nil, position: position, format: .odd)?.bit(13) == false)
    }

    @Test(arguments: [
        // Published velocity squitters: E, N (kt), vertical rate, its source, GNSS−baro, IFR, NACv.
        ("8D485020994409940838175B284F", UInt32(0x485020), -8.0, -159.0, -832, AirborneVelocity.VerticalRateSource.gnss, 550, true, 0),
        ("8D3461CF9908388930080F948EA1", UInt32(0x3461CF), 55, -72, 64, .barometric, 350, false, 1),
        ("8D3461CF9908558E100C1071EB67", UInt32(0x3461CF), 84, -111, 128, .barometric, 375, false, 1),
        ("8D394C0F990C4932780838866883", UInt32(0x394C0F), -72, 402, -64, .barometric, 1375, false, 1),
    ])
    func velocityReproducesThePublishedFrames(
        hex: String, address: UInt32, east: Double, north: Double, rate: Int,
        source: AirborneVelocity.VerticalRateSource, delta: Int, ifr: Bool, nacV: Int
    ) {
        let me = MessageField.airborneVelocity(
            velocityEast: east, velocityNorth: north, verticalRate: rate, verticalRateSource: source,
            geomDelta: delta, nacV: nacV, ifrCapability: ifr)
        #expect(Frame.extendedSquitter(address: address, me: me).hex == hex)
    }

    @Test func velocityRoundsAndClampsToTheFieldRanges() throws {
        let me = MessageField.airborneVelocity(velocityEast: 1500, velocityNorth: -0.4, verticalRate: -40_000,
                                               verticalRateSource: .gnss, geomDelta: -5000)
        let v = try #require(AirborneVelocity(me))
        #expect(v.velocityEast == 1022)          // code 1023: more than 1021.5 kt
        #expect(v.velocityNorth == 0)            // rounds to 0, sent without a sign
        #expect(me.bit(25) == false)
        #expect(v.geomRate == -32_640)           // code 511
        #expect(v.baroRate == nil)
        #expect(v.geomDelta == -3150)            // code 127
        let none = MessageField.airborneVelocity(velocityEast: .nan, velocityNorth: 1, verticalRate: nil)
        #expect(AirborneVelocity(none)?.velocityEast == nil)
        #expect(AirborneVelocity(none)?.baroRate == nil)
    }

    @Test func velocityRoundTripsGroundSpeedAndTrack() throws {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<300 {
            let east = Double(Int(rng.next() % 1000)) - 500, north = Double(Int(rng.next() % 1000)) - 500
            let rate = (Int(rng.next() % 200) - 100) * 64
            let me = MessageField.airborneVelocity(velocityEast: east, velocityNorth: north, verticalRate: rate)
            let fields = try #require(ModeSMessage.decode(Frame.extendedSquitter(address: 0xA1B2C3, me: me))).fields
            #expect(fields.baroRate == rate)
            #expect(fields.gs == (east * east + north * north).squareRoot().rounded(.towardZero))
            if east != 0 || north != 0 {
                var track = atan2(east, north) * 180 / .pi
                if track < 0 { track += 360 }
                #expect(abs((fields.track ?? -1) - track) < 1e-9)
            }
        }
    }

    @Test(arguments: [
        "8DAB2760F8230006004AB84A4446", "8DA43F51F8330002004AB8070E10", "8DA5AA20F8130006005AB8633619",
        "8DACF4E8F8210002004AB8E3616C", "8DAC5920F82100020049B82D2248",
    ])
    func operationalStatusReproducesRealFrames(hex: String) throws {
        // Real version 2 airborne statuses (Samples/realworld-frames.txt): decode, re-encode the
        // decoded values, get the same frame.
        let frame = try Frame(hex: hex)
        let status = try #require(OperationalStatus(frame.messageField))
        guard case .airborne(let capabilities)? = status.capabilities else { Issue.record("no capabilities"); return }
        var mode = try #require(status.operationalMode)
        // The decoder reads ME 33–40 only for surface messages; these transponders fill them airborne too.
        mode.gpsAntennaOffset = OperationalStatus.GPSAntennaOffset(
            lateralCode: frame.messageField.int(33, 35), longitudinalCode: frame.messageField.int(36, 40))
        guard let nicSupplementA = status.nicSupplementA else { Issue.record("no NIC supplement"); return }
        let me = MessageField.operationalStatusAirborne(
            capabilities: capabilities, mode: mode, nicSupplementA: nicSupplementA,
            nacP: try #require(status.nacP), gva: try #require(status.gva), sil: try #require(status.sil),
            nicBaro: try #require(status.nicBaro), horizontalReference: try #require(status.horizontalReference),
            silSupplement: try #require(status.silSupplement))
        #expect(Frame.extendedSquitter(address: UInt32(frame.bits(9, 32)), me: me).hex == hex)
    }

    @Test func operationalStatusRoundTripsItsValues() throws {
        let capabilities = OperationalStatus.Capabilities.Airborne(
            tcasOperational: true, cockpitDisplay: nil, es1090In: true, airReferencedVelocity: false,
            targetStateReport: true, trajectoryChangeReport: 1, uatIn: false)
        let mode = OperationalStatus.OperationalMode(
            tcasResolutionAdvisoryActive: false, identSwitchActive: true, receivingATCServices: false,
            singleAntenna: false, systemDesignAssurance: 2, gpsAntennaOffset: nil)
        let me = MessageField.operationalStatusAirborne(
            capabilities: capabilities, mode: mode, nicSupplementA: true, nacP: 9, gva: 2, sil: 3, nicBaro: 1,
            horizontalReference: .magneticNorth, silSupplement: .persample)
        let status = try #require(OperationalStatus(me))
        #expect(status.subtype == .airborne && status.version == 2)
        #expect(status.capabilities == .airborne(capabilities))
        #expect(status.operationalMode == mode)
        #expect(status.nicSupplementA == true && status.nacP == 9 && status.gva == 2 && status.sil == 3)
        #expect(status.nicBaro == 1 && status.horizontalReference == .magneticNorth && status.silSupplement == .persample)
        let fields = try #require(ModeSMessage.decode(Frame.extendedSquitter(address: 0x400001, me: me))).fields
        #expect(fields.version == 2 && fields.nacP == 9 && fields.sda == 2)
    }
}
