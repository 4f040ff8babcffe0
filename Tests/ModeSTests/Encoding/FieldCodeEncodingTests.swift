import Testing
@testable import ModeS

/// Altitude, identity and callsign codes: the encoders are the inverses of the decoders and
/// reproduce the codes of published frames.
struct FieldCodeEncodingTests {
    @Test func altitudeCodesOfPublishedFramesAreReproduced() throws {
        // DF4 published vector 2000171806A983: AC (bits 20–32) codes 36000 ft.
        let df4 = try Frame(hex: "2000171806A983")
        #expect(Altitude.ac13(feet: 36000) == UInt32(df4.bits(20, 32)))
        // Airborne position 8D40621D58C382D690C8AC2863A7: ME 9–20 codes 38000 ft.
        let position = try Frame(hex: "8D40621D58C382D690C8AC2863A7")
        #expect(Altitude.ac12(feet: 38000) == UInt32(position.messageField.bits(9, 20)))
        // Published −325 ft (8D484FDE5803B647ECEC4FCDD74F).
        let low = try Frame(hex: "8D484FDE5803B647ECEC4FCDD74F")
        #expect(Altitude.ac12(feet: -325) == UInt32(low.messageField.bits(9, 20)))
    }

    @Test func twentyFiveFootCodeRoundsToTheNearestStep() {
        #expect(Altitude.ac13(feet: 36012).flatMap(Altitude.fromAC13) == 36000)
        #expect(Altitude.ac13(feet: 36013).flatMap(Altitude.fromAC13) == 36025)
        // Lowest code: N = 0 is −1000 ft, only the Q bit set.
        #expect(Altitude.ac13(feet: -1000) == 0b0_0000_0001_0000)
        #expect(Altitude.ac12(feet: -1000) == 0b0000_0001_0000)
        // Highest: N = 2047.
        #expect(Altitude.ac13(feet: 50175).flatMap(Altitude.fromAC13) == 50175)
    }

    @Test func everyTwentyFiveFootAltitudeRoundTrips() {
        for feet in stride(from: -1000, through: 50175, by: 25) {
            #expect(Altitude.ac13(feet: feet).flatMap(Altitude.fromAC13) == feet, "\(feet) ft")
            #expect(Altitude.ac12(feet: feet).flatMap(Altitude.fromAC12) == feet, "\(feet) ft")
        }
    }

    @Test func altitudesAboveTheQBitRangeUseGillhamCode() throws {
        let code = try #require(Altitude.ac13(feet: 60_000))
        #expect(code & 0b1_0000 == 0)   // Q = 0
        #expect(code & 0b100_0000 == 0) // M = 0
        #expect(Altitude.fromAC13(code) == 60_000)
        #expect(Altitude.ac13(feet: 50_190).flatMap(Altitude.fromAC13) == 50_200)
        #expect(Altitude.ac12(feet: 126_700).flatMap(Altitude.fromAC12) == 126_700)
    }

    @Test func gillhamCodeRoundTripsAcrossTheWholeRange() {
        for feet in stride(from: -1200, through: 126_700, by: 100) {
            let code = Altitude.gillhamAC13(feet: feet)
            #expect(code.flatMap { Altitude.gillham(ac13: $0) } == feet, "\(feet) ft")
        }
        // Nearest 100 ft.
        #expect(Altitude.gillhamAC13(feet: 1049).flatMap { Altitude.gillham(ac13: $0) } == 1000)
        #expect(Altitude.gillhamAC13(feet: 1050).flatMap { Altitude.gillham(ac13: $0) } == 1100)
    }

    @Test(arguments: [-1251, 126_750, -5000, 200_000, Int.max, Int.min])
    func altitudesOutsideEveryCodeAreNil(feet: Int) {
        #expect(Altitude.ac13(feet: feet) == nil)
        #expect(Altitude.ac12(feet: feet) == nil)
        #expect(Altitude.gillhamAC13(feet: feet) == nil)
    }

    @Test func identityCodeOfThePublishedDF5IsReproduced() throws {
        // 2A00516D492B80: squawk 0356.
        let frame = try Frame(hex: "2A00516D492B80")
        // That frame has the X bit (ID bit 7, carrying nothing) set; the encoder sends X = 0.
        #expect(Squawk.id13(0o0356) == UInt32(frame.bits(20, 32)) & ~0b100_0000)
        // A1 A2 A4 are ID bits 2, 4, 6; C1 C2 C4 bits 1, 3, 5; D1 D2 D4 bits 9, 11, 13.
        #expect(Squawk.id13(0o7000) == 0b0_1010_1000_0000)
        #expect(Squawk.id13(0o0070) == 0b1_0101_0000_0000)
        #expect(Squawk.id13(0o0007) == 0b0_0000_0001_0101)
    }

    @Test func everySquawkRoundTrips() {
        for code in UInt16(0)...0o7777 {
            let id = Squawk.id13(code)
            #expect(id & 0b100_0000 == 0)   // X bit
            #expect(Squawk.fromID13(id) == code)
        }
    }

    @Test func squawkTextParses() {
        #expect(Squawk.code("7700") == 0o7700)
        #expect(Squawk.code("0356") == 0o0356)
        #expect(Squawk.code("7800") == nil)
        #expect(Squawk.code("770") == nil)
        #expect(Squawk.code("77000") == nil)
        #expect(Squawk.code("77a0") == nil)
    }

    @Test func callsignCharactersOfThePublishedIdentificationAreReproduced() throws {
        // 8D4840D6202CC371C32CE0576098: KLM1023 (ME 9–56).
        let frame = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        #expect(Callsign.encode("KLM1023") == frame.messageField.bits(9, 56))
        #expect(Callsign.encode("klm1023") == frame.messageField.bits(9, 56))
        #expect(Callsign.encode("KLM1023 ") == frame.messageField.bits(9, 56))
    }

    @Test func callsignsThatDoNotFitAreNil() {
        #expect(Callsign.encode("KLM10234X") == nil)
        #expect(Callsign.encode("AB-12") == nil)
        #expect(Callsign.encode("É") == nil)
        // Empty: eight spaces.
        #expect(Callsign.encode("") == 0x8208_2082_0820)
    }

    @Test func callsignsRoundTripThroughTheDecoder() throws {
        for text in ["A", "N12345", "EZY85MH", "12345678", "X Y"] {
            let bits = try #require(Callsign.encode(text))
            let field = MessageField(0).setting(9, 56, to: bits)
            #expect(Callsign.decode(field, from: 9) == text)
        }
    }

    @Test func settingWritesOnlyTheNamedBits() {
        let field = MessageField(0).setting(1, 5, to: 0xFF).setting(56, true)
        #expect(field.value == 0xF8_0000_0000_0001)
        #expect(field.setting(0, 3, to: 7) == field)        // out of range: unchanged
        #expect(field.setting(50, 57, to: 7) == field)
        let signed = MessageField(0).settingSigned(sign: 2, 3, 12, to: -1)
        #expect(signed.signed(sign: 2, 3, 12) == -1)
        // Clamped to the field's range.
        #expect(MessageField(0).settingSigned(sign: 2, 3, 12, to: 5000).signed(sign: 2, 3, 12) == 1023)
        #expect(MessageField(0).settingSigned(sign: 2, 3, 12, to: -5000).signed(sign: 2, 3, 12) == -1024)
    }
}
