import Testing
@testable import ModeS

struct FrameTests {
    @Test func parsesHexInEitherCaseAndFormatsUppercase() throws {
        let lower = try Frame(hex: "8d4840d6202cc371c32ce0576098")
        let upper = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        #expect(lower == upper)
        #expect(lower.hex == "8D4840D6202CC371C32CE0576098")
        #expect(lower.bitCount == 112)
        #expect(lower.downlinkFormat == 17)
    }

    @Test func bitsAreNumberedFromOneAtTheFirstTransmittedBit() throws {
        let f = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        #expect(f.bits(1, 5) == 17)
        #expect(f.bits(6, 8) == 5)
        #expect(f.bits(9, 32) == 0x4840D6)
        #expect(f.bit(1) == true)
        #expect(f.bit(2) == false)
        #expect(f.parityField == 0x576098)
        #expect(f.messageField.value == 0x202CC371C32CE0)
        #expect(f.byte(13) == 0x98)
    }

    @Test func rejectsWrongLengthsAndCharacters() {
        #expect(throws: FrameParseError.invalidLength(digits: 13)) { try Frame(hex: "8D4840D6202CC") }
        #expect(throws: FrameParseError.invalidCharacter(offset: 3)) { try Frame(hex: "8D4X40D6202CC371C32CE0576098") }
        #expect(throws: FrameParseError.lengthMismatch(downlinkFormat: 17, digits: 14)) { try Frame(hex: "8D4840D6202CC3") }
        #expect(throws: FrameParseError.lengthMismatch(downlinkFormat: 11, digits: 28)) { try Frame(hex: "5D484FDEA248F55D484FDEA248F5") }
        #expect(throws: FrameParseError.invalidLength(digits: 0)) { try Frame(hex: "") }
    }

    @Test func everyFrameWithTopBitsElevenIsDF24() throws {
        let f = Frame(raw: UInt128(0b11111) << 123, bitCount: 112)!
        #expect(f.downlinkFormat == 24)
    }

    @Test func bytesRoundTrip() throws {
        let bytes: [UInt8] = [0x5D, 0x48, 0x4F, 0xDE, 0xA2, 0x48, 0xF5]
        let f = try #require(Frame(bytes: bytes))
        #expect((0..<7).map(f.byte) == bytes)
        #expect(Frame(bytes: [UInt8](repeating: 0, count: 8)) == nil)
    }

    @Test func messageFieldBitsAndSignedValues() {
        let field = MessageField(0x80_0000_0000_0001)
        #expect(field.bit(1))
        #expect(field.bit(56))
        #expect(field.bits(1, 4) == 0b1000)
        #expect(field.typeCode == 16)
        // Sign bit 1 with magnitude 0b11 over 2 bits: 3 − 4 = −1.
        let signed = MessageField(0b111 << 53)
        #expect(signed.signed(sign: 1, 2, 3) == -1)
    }
}
