import Testing
@testable import ModeS

/// Comm-B MB encoders: registers decode back to their values and are inferred as the register
/// they are.
struct CommBEncodingTests {
    @Test func identificationRegisterIsInferredAndDecoded() throws {
        let mb = try #require(MessageField.bds20(callsign: "DLH4AB"))
        #expect(BDS20.isValid(mb))
        #expect(BDS20(mb).callsign == "DLH4AB")
        let message = try #require(ModeSMessage.decode(Frame.commBIdentity(address: 0x3C4B2A, squawk: 0o1000, mb: mb)))
        #expect(message.address == 0x3C4B2A)
        #expect(message.fields.flight == "DLH4AB")
        #expect(message.fields.bds == BDS(2, 0))
        #expect(MessageField.bds20(callsign: "a.b") == nil)
    }

    @Test func headingAndSpeedRoundTrips() throws {
        let mb = MessageField.bds60(magneticHeading: 271.3, indicatedAirspeed: 280, mach: 0.78,
                                    baroRate: -1000, inertialVerticalVelocity: -1024)
        #expect(BDS60.isValid(mb))
        let v = BDS60(mb)
        #expect(abs((v.magneticHeading ?? 0) - 271.3) <= 90.0 / 1024)
        #expect(v.indicatedAirspeed == 280)
        #expect(abs((v.mach ?? 0) - 0.78) <= 0.002)
        #expect(v.baroRate == -992)                      // nearest 32 ft/min
        #expect(v.inertialVerticalVelocity == -1024)
    }

    @Test func headingWrapsAndValuesClamp() {
        // 180° is sent as −180 (the field is −180 ..< 180) and reads back as 180.
        #expect(BDS60(MessageField.bds60(magneticHeading: 180, indicatedAirspeed: nil, mach: nil, baroRate: nil,
                                         inertialVerticalVelocity: nil)).magneticHeading == 180)
        #expect(BDS60(MessageField.bds60(magneticHeading: -90, indicatedAirspeed: 5000, mach: 9, baroRate: 20_000,
                                         inertialVerticalVelocity: -20_000)) == BDS60(MessageField.bds60(
            magneticHeading: 270, indicatedAirspeed: 1023, mach: 4.092, baroRate: 16352, inertialVerticalVelocity: -16384)))
        // Missing values: status bit 0.
        let empty = MessageField.bds60(magneticHeading: nil, indicatedAirspeed: nil, mach: .nan, baroRate: nil,
                                       inertialVerticalVelocity: nil)
        #expect(empty.value == 0)
    }

    @Test func trackAndTurnRoundTrips() {
        let mb = MessageField.bds50(roll: -12.5, track: 359.95, groundSpeed: 451, trackRate: 1.2, trueAirspeed: 440)
        #expect(BDS50.isValid(mb))
        let v = BDS50(mb)
        #expect(abs((v.roll ?? 0) + 12.5) <= 45.0 / 512)
        // 359.95° is within half a step (0.088°) of 360 = 0.
        #expect(v.track == 0)
        #expect(v.groundSpeed == 452 || v.groundSpeed == 450)
        #expect(abs((v.trackRate ?? 0) - 1.2) <= 1.0 / 64)
        #expect(v.trueAirspeed == 440)
    }
}
