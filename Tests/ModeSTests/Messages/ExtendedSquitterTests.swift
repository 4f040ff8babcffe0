import Testing
@testable import ModeS

/// Builds a valid long frame from DF, the 3-bit field after it, the address and an ME field.
func longFrame(df: Int, field: Int, address: UInt32, me: UInt64) -> Frame {
    var raw = UInt128(df) << 123 | UInt128(field) << 120 | UInt128(address) << 96 | UInt128(me & 0xFF_FFFF_FFFF_FFFF) << 40
    raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 112)) << 16
    return Frame(raw: raw, bitCount: 112)!
}

struct ExtendedSquitterTests {
    @Test func identificationCarriesCategoryAndCallsign() throws {
        let m = try #require(ModeSMessage.decode(try Frame(hex: "8D406B902015A678D4D220AA4BDA")))
        guard case .extendedSquitter(let es) = m.content, case .identification(let id)? = es.message else {
            Issue.record("not an identification: \(m.content)"); return
        }
        #expect(id.callsign == "EZY85MH")
        #expect(id.category?.description == "A0")
        #expect(es.addressType == .adsbICAO)
    }

    @Test func invalidCallsignCharactersGiveNoCallsign() {
        // TC4, category 3, first character code 0 (not in the character set).
        let me: UInt64 = (4 << 51) | (3 << 48)
        let id = Identification(MessageField(me))
        #expect(id?.callsign == nil)
        #expect(id?.category?.description == "A3")
    }

    @Test func airbornePositionFieldsAreWhereTheSpecPutsThem() throws {
        let f = try Frame(hex: "8D40621D58C382D690C8AC2863A7")
        let p = try #require(AirbornePosition(f.messageField))
        #expect(p.typeCode == 11)
        #expect(p.baroAltitude == 38000)
        #expect(p.gnssAltitude == nil)
        #expect(p.cprFormat == .even)
        #expect(p.cprLat == 93000)
        #expect(p.cprLon == 51372)
        #expect(p.surveillanceStatus == 0)
    }

    @Test func gnssHeightPositionsReportGeometricAltitude() {
        // TC20 with the 12-bit 25 ft code for 5000 ft: N = 240 → bits with Q.
        let n = (5000 + 1000) / 25
        let ac12 = UInt64(((n >> 4) << 5) | 0x10 | (n & 0xF))
        let me: UInt64 = (20 << 51) | (ac12 << 36)
        let p = AirbornePosition(MessageField(me))
        #expect(p?.gnssAltitude == 5000)
        #expect(p?.baroAltitude == nil)
    }

    @Test func velocityGroundSpeedTrackAndRates() throws {
        let v = try #require(AirborneVelocity(try Frame(hex: "8D485020994409940838175B284F").messageField))
        #expect(v.subtype == 1)
        #expect(v.velocityEast == -8)
        #expect(v.velocityNorth == -159)
        #expect(v.groundSpeed == 159)
        #expect(abs(v.track! - 182.880378) < 1e-5)
        #expect(v.geomRate == -832)
        #expect(v.baroRate == nil)
    }

    @Test func supersonicVelocityIsScaledByFour() {
        // Subtype 2, east 100+1, north 0+1 → 400 kt east.
        let me: UInt64 = (19 << 51) | (2 << 48) | (101 << 32) | (1 << 21)
        let v = AirborneVelocity(MessageField(me))
        #expect(v?.velocityEast == 400)
        #expect(v?.velocityNorth == 0)
        #expect(v?.groundSpeed == 400)
        #expect(v?.track == 90)
    }

    @Test func airspeedSubtypeGivesHeadingAndTrueAirspeed() throws {
        let v = try #require(AirborneVelocity(try Frame(hex: "8DA05F219B06B6AF189400CBC33F").messageField))
        #expect(v.subtype == 3)
        #expect(v.heading == 243.984375)
        #expect(v.trueAirspeed == 375)
        #expect(v.baroRate == -2304)
    }

    @Test func unavailableVelocityComponentsGiveNoSpeed() {
        let me: UInt64 = (19 << 51) | (1 << 48)
        let v = AirborneVelocity(MessageField(me))
        #expect(v?.groundSpeed == nil)
        #expect(v?.track == nil)
        #expect(v?.geomRate == nil)
    }

    @Test func surfaceMovementQuantisation() {
        #expect(SurfacePosition.speed(movement: 0) == nil)
        #expect(SurfacePosition.speed(movement: 1) == 0)
        #expect(SurfacePosition.speed(movement: 2) == 0.125)
        #expect(SurfacePosition.speed(movement: 9) == 1)
        #expect(SurfacePosition.speed(movement: 13) == 2)
        #expect(SurfacePosition.speed(movement: 39) == 15)
        #expect(SurfacePosition.speed(movement: 94) == 70)
        #expect(SurfacePosition.speed(movement: 109) == 100)
        #expect(SurfacePosition.speed(movement: 124) == 175)
        #expect(SurfacePosition.speed(movement: 125) == nil)
    }

    @Test("DF18 control fields map to address types", arguments: [
        (0, false, AddressType.adsbICAONonTransponder), (1, false, .adsbOther),
        (2, false, .tisbICAO), (2, true, .tisbOther), (5, false, .tisbOther),
        (6, false, .adsrICAO), (6, true, .adsbOther),
    ])
    func controlFieldAddressTypes(cf: Int, imf: Bool, expected: AddressType) throws {
        // Airborne position TC11 with the IMF bit (ME bit 8) as given.
        let me: UInt64 = (11 << 51) | (imf ? 1 << 48 : 0) | (0xC38 << 36) | (1234 << 17) | 5678
        let frame = longFrame(df: 18, field: cf, address: 0xABCDEF, me: me)
        let m = try #require(ModeSMessage.decode(frame))
        guard case .extendedSquitter(let es) = m.content else { Issue.record("not ES"); return }
        #expect(es.controlField == cf)
        #expect(es.addressType == expected)
        #expect(m.fields.altBaro == 38000)
        #expect(m.fields.addressType == expected)
    }

    @Test func coarseTISBIsKeptRaw() throws {
        let frame = longFrame(df: 18, field: 3, address: 0x123456, me: 0x0123_4567_89AB_CD)
        let m = try #require(ModeSMessage.decode(frame))
        guard case .extendedSquitter(let es) = m.content else { Issue.record("not ES"); return }
        #expect(es.message == nil)
        #expect(es.coarseTISB == MessageField(0x0123_4567_89AB_CD))
    }

    @Test func unknownTypeCodesKeepTheirPayload() throws {
        let frame = longFrame(df: 17, field: 5, address: 0x123456, me: (24 << 51) | 0x42)
        let m = try #require(ModeSMessage.decode(frame))
        guard case .extendedSquitter(let es) = m.content, case .other(let tc, let me)? = es.message else {
            Issue.record("expected .other"); return
        }
        #expect(tc == 24)
        #expect(me.value & 0xFF == 0x42)
    }
}
