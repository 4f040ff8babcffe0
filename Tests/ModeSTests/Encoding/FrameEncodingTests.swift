import Testing
@testable import ModeS

/// Whole frames built by the encoders: published frames are reproduced bit for bit, and random
/// frames decode back to their inputs with the parity the format requires.
struct FrameEncodingTests {
    @Test func allCallReplyReproducesThePublishedFrame() throws {
        // Published all-call reply 5D484FDEA248F5: CA 5, address 484FDE, a reply to an
        // interrogator whose code 0x16 is overlaid on the parity (the syndrome is 0x16).
        #expect(Frame.allCall(address: 0x484FDE, capability: 5, interrogator: 0x16).hex == "5D484FDEA248F5")
        #expect(ParityCheck.check(try Frame(hex: "5D484FDEA248F5"))?.interrogatorID == 0x16)
        // The spontaneous squitter (IC 0) differs only in the parity.
        #expect(Frame.allCall(address: 0x484FDE, capability: 5).hex == "5D484FDEA248E3")
    }

    @Test func allCallCarriesTheInterrogatorCodeInItsParity() throws {
        let frame = Frame.allCall(address: 0xABCDEF, capability: 4, interrogator: 13)
        let parity = try #require(ParityCheck.check(frame))
        #expect(parity.outcome == .ok)
        #expect(parity.interrogatorID == 13)
        #expect(parity.address == 0xABCDEF)
        let fields = try #require(ModeSMessage.decode(frame)).fields
        #expect(fields.ca == 4)
        #expect(fields.onGround == true)
    }

    @Test func surveillanceRepliesReproduceThePublishedFrames() {
        // DF4 2000171806A983: address 4CA7E8, 36000 ft, FS/DR/UM 0.
        #expect(Frame.surveillanceAltitude(address: 0x4CA7E8, altitude: 36000).hex == "2000171806A983")
    }

    @Test func surveillanceIdentityDecodesLikeThePublishedFrame() throws {
        // DF5 2A00516D492B80: address 510AF9, squawk 0356, FS 2, UM 2. That frame also has the
        // X bit (bit 26) set, which carries nothing; the encoder sends X = 0, so the frames
        // differ in that bit and the parity but decode the same.
        let published = try #require(ModeSMessage.decode(try Frame(hex: "2A00516D492B80")))
        let encoded = try #require(ModeSMessage.decode(
            Frame.surveillanceIdentity(address: 0x510AF9, squawk: 0o0356, flightStatus: 2, utilityMessage: 2)))
        #expect(encoded.address == 0x510AF9 && encoded.address == published.address)
        #expect(encoded.fields == published.fields)
        #expect(encoded.frame.bits(1, 25) == published.frame.bits(1, 25))
        #expect(encoded.frame.bits(27, 32) == published.frame.bits(27, 32))
    }

    @Test(arguments: [
        ("A000083E202CC371C31DE0AA1CCF", UInt32(0x484163), 12550, "KLM1017"),
        ("A0001993202422F2E37CE038738E", UInt32(0x4CA532), 39875, "IBK2873"),
        ("A0001838201584F23468207CDFA5", UInt32(0x40655A), 38000, "EXS2MF"),
    ])
    func commBIdentificationReproducesThePublishedFrames(hex: String, address: UInt32, altitude: Int, callsign: String) throws {
        let mb = try #require(MessageField.bds20(callsign: callsign))
        #expect(Frame.commBAltitude(address: address, altitude: altitude, mb: mb).hex == hex)
    }

    @Test func commBHeadingAndSpeedReproducesThePublishedFrames() {
        // DF21 A80004AAA74A072BFDEFC1D5CB4F: 4CA53F, squawk 4720, BDS 6,0.
        let mb = MessageField.bds60(magneticHeading: 110.390625, indicatedAirspeed: 259, mach: 0.7,
                                    baroRate: -2144, inertialVerticalVelocity: -2016)
        #expect(Frame.commBIdentity(address: 0x4CA53F, squawk: 0o4720, mb: mb).hex == "A80004AAA74A072BFDEFC1D5CB4F")
        // DF20 A00004128F39F91A7E27C46ADC21: 48507F, 5450 ft.
        let mb2 = MessageField.bds60(magneticHeading: 42.714844, indicatedAirspeed: 252, mach: 0.42,
                                     baroRate: -1920, inertialVerticalVelocity: -1920)
        #expect(Frame.commBAltitude(address: 0x48507F, altitude: 5450, mb: mb2).hex == "A00004128F39F91A7E27C46ADC21")
    }

    @Test func commBTrackAndTurnReproducesThePublishedFrames() {
        // DF21 A80006ACF9363D3BBF9CE98F1E1D: 4008B4, squawk 6322, BDS 5,0.
        let mb = MessageField.bds50(roll: -9.667969, track: 140.273438, groundSpeed: 476, trackRate: -0.40625, trueAirspeed: 466)
        #expect(Frame.commBIdentity(address: 0x4008B4, squawk: 0o6322, mb: mb).hex == "A80006ACF9363D3BBF9CE98F1E1D")
        // DF20 A000139381951536E024D4CCF6B5: 3C4DD2, 30275 ft.
        let mb2 = MessageField.bds50(roll: 2.109375, track: 114.257812, groundSpeed: 438, trackRate: 0.125, trueAirspeed: 424)
        #expect(Frame.commBAltitude(address: 0x3C4DD2, altitude: 30275, mb: mb2).hex == "A000139381951536E024D4CCF6B5")
    }

    @Test func randomFramesDecodeBackToTheirInputs() throws {
        var rng = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<500 {
            let address = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            let altitude = Int(rng.next() % 2048) * 25 - 1000
            let squawk = UInt16(truncatingIfNeeded: rng.next()) & 0o7777
            let fs = Int(rng.next() % 6), dr = Int(rng.next() % 32), um = Int(rng.next() % 64)

            let df11 = try #require(ModeSMessage.decode(Frame.allCall(address: address, capability: 5)))
            #expect(df11.parity.outcome == .ok && df11.address == address && df11.parity.interrogatorID == 0)

            let df4 = try #require(ModeSMessage.decode(Frame.surveillanceAltitude(
                address: address, altitude: altitude, flightStatus: fs, downlinkRequest: dr, utilityMessage: um)))
            #expect(df4.address == address)
            let f4 = df4.fields
            #expect(f4.altBaro == altitude && f4.fs == fs && f4.dr == dr && f4.um == um)

            let df5 = try #require(ModeSMessage.decode(Frame.surveillanceIdentity(address: address, squawk: squawk, flightStatus: fs)))
            #expect(df5.address == address && df5.fields.squawk == squawk && df5.fields.fs == fs)

            let mb = MessageField(rng.next())
            let df20 = Frame.commBAltitude(address: address, altitude: altitude, mb: mb)
            #expect(ParityCheck.check(df20)?.address == address)
            #expect(df20.messageField == mb && SurveillanceReply(df20)?.altitude == altitude)
            let df21 = Frame.commBIdentity(address: address, squawk: squawk, mb: mb)
            #expect(ParityCheck.check(df21)?.address == address)
            #expect(df21.downlinkFormat == 21 && SurveillanceReply(df21)?.identity == squawk)

            let me = MessageField(rng.next())
            let df17 = Frame.extendedSquitter(address: address, capability: 6, me: me)
            let es = try #require(ParityCheck.check(df17))
            #expect(es.outcome == .ok && es.address == address && df17.messageField == me && df17.bits(6, 8) == 6)
        }
    }

    @Test func missingAltitudeIsSentAsZero() {
        #expect(Frame.surveillanceAltitude(address: 1, altitude: nil).bits(20, 32) == 0)
        #expect(Frame.surveillanceAltitude(address: 1, altitude: 500_000).bits(20, 32) == 0)
    }

    @Test func sealingComputesTheParityOfTheDataBits() throws {
        // The published DF17 with its parity field zeroed gets it back.
        let frame = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        let data = frame.raw & ~(UInt128(0xFF_FFFF) << 16)
        #expect(Frame.sealing(data, bitCount: 112, overlay: 0) == frame)
    }
}
