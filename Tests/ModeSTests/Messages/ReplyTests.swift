import Testing
@testable import ModeS

/// Builds a short frame with the given DF and bits 6–32, and the parity overlaid with `address`.
func shortFrame(df: Int, body: UInt32, address: UInt32) -> Frame {
    var raw = UInt128(df) << 123 | UInt128(body & 0x7FF_FFFF) << 96
    raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 56) ^ address) << 72
    return Frame(raw: raw, bitCount: 56)!
}

struct ReplyTests {
    @Test func surveillanceAltitudeReply() throws {
        let m = try #require(ModeSMessage.decode(try Frame(hex: "2000171806A983")))
        #expect(m.parity.outcome == .parity)
        #expect(m.address == 0x4CA7E8)
        let f = m.fields
        #expect(f.altBaro == 36000)
        #expect(f.fs == 0)
        #expect(f.onGround == false)
    }

    @Test func identityReplyWithEmergencyCode() throws {
        // DF5, FS 0, ID code for 7700: A=7 (ID bits 2,4,6) and B=7 (ID bits 8,10,12).
        let id: UInt32 = 0b0_1010_1010_1010
        let frame = shortFrame(df: 5, body: id, address: 0x3C6586)
        let f = try #require(ModeSMessage.decode(frame)).fields
        #expect(f.squawk == 0o7700)
        #expect(f.emergency == .general)
        #expect(f.address == 0x3C6586)
    }

    @Test("flight status gives ground state, alert and SPI", arguments: [
        (0, false as Bool?, false, false), (1, true, false, false), (2, false, true, false),
        (3, true, true, false), (4, nil, true, true), (5, nil, false, true),
    ])
    func flightStatus(fs: Int, ground: Bool?, alert: Bool, spi: Bool) throws {
        let frame = shortFrame(df: 4, body: UInt32(fs) << 24, address: 0x111111)
        let f = try #require(ModeSMessage.decode(frame)).fields
        #expect(f.onGround == ground)
        #expect(f.alert == alert)
        #expect(f.spi == spi)
    }

    @Test func airAirReplyVerticalStatus() throws {
        let onGround = shortFrame(df: 0, body: 1 << 26, address: 0x222222)
        #expect(try #require(ModeSMessage.decode(onGround)).fields.onGround == true)
        #expect(try #require(ModeSMessage.decode(onGround)).fields.vs == 1)
    }

    @Test func allCallReplyCapabilityAndAddress() throws {
        let m = try #require(ModeSMessage.decode(try Frame(hex: "5D484FDEA248F5")))
        guard case .allCall(let reply) = m.content else { Issue.record("not DF11"); return }
        #expect(reply.address == 0x484FDE)
        #expect(reply.capability == 5)
        #expect(m.fields.onGround == false)
    }

    @Test func commBInferenceIsSkippedForCorrectedFrames() throws {
        // A DF20 can never be corrected (AP format), so build the check directly.
        let frame = try Frame(hex: "A000083E202CC371C31DE0AA1CCF")
        let exact = ModeSMessage(ParityResult(frame: frame, outcome: .parity, address: 0x484163, interrogatorID: nil))
        #expect(exact.fields.flight == "KLM1017")
        let corrected = ModeSMessage(ParityResult(frame: frame, outcome: .corrected(bits: 1), address: 0x484163, interrogatorID: nil))
        #expect(corrected.fields.flight == nil)
        #expect(corrected.fields.bds == nil)
        #expect(corrected.fields.altBaro == 12550)
    }

    @Test func militarySquitterAndCommDAreKeptRaw() throws {
        var raw = UInt128(19) << 123 | UInt128(3) << 120
        raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 112)) << 16
        let df19 = try #require(ModeSMessage.decode(Frame(raw: raw, bitCount: 112)!))
        #expect(df19.content == .militaryExtendedSquitter(application: 3))
        let df24 = try #require(ModeSMessage.decode(Frame(raw: UInt128(0b11) << 126, bitCount: 112)!))
        #expect(df24.content == .commD)
    }
}
