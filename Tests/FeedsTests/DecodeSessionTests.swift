import Testing
@testable import Feeds
import ModeS

struct DecodeSessionTests {
    @Test func correctedFramesReportTheBitsFixed() throws {
        var session = DecodeSession()
        let damaged = try Frame(hex: "8D4840D6202CC371C32CE0576098").flipping(bit: 50)
        let fields = try #require(try session.decode(line: Substring(damaged.hex)))
        #expect(fields.crc == .corrected(bits: 1))
        #expect(fields.flight == "KLM1023")
    }

    @Test func parityFailuresAreErrorsWithTheSyndrome() throws {
        var session = DecodeSession()
        let damaged = try Frame(hex: "8D4840D6202CC371C32CE0576098").flipping(bit: 40).flipping(bit: 80)
        #expect(throws: DecodeLineError.parity(syndrome: CRC24.syndrome(of: damaged))) {
            try session.decode(line: Substring(damaged.hex))
        }
    }

    @Test func pairsTooFarApartInTimeDoNotMakeAPosition() throws {
        var session = DecodeSession()
        _ = try session.decode(line: "8D40621D58C386435CC412692AD6", time: 0)
        let late = try #require(try session.decode(line: "8D40621D58C382D690C8AC2863A7", time: 60))
        #expect(late.lat == nil)
        let soon = try #require(try session.decode(line: "8D40621D58C386435CC412692AD6", time: 62))
        #expect(soon.lat != nil)
    }

    @Test func aircraftDoNotPairWithEachOther() throws {
        var session = DecodeSession()
        _ = try session.decode(line: "8D40621D58C386435CC412692AD6", time: 0)   // 40621D odd
        let other = try #require(try session.decode(line: "8D40058B58C901375147EFD09357", time: 1)) // 40058B even
        #expect(other.lat == nil)
    }

    @Test func garbageNeverStopsTheSession() throws {
        var session = DecodeSession()
        var generator = SystemRandomNumberGenerator()
        var errors = 0
        for _ in 0..<2000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do { _ = try session.decode(line: Substring(String(decoding: bytes, as: UTF8.self))) } catch { errors += 1 }
        }
        #expect(errors > 1900)
        // Still decodes a good frame afterwards.
        #expect(try session.decode(line: "8D4840D6202CC371C32CE0576098")?.flight == "KLM1023")
    }
}

struct DecodeSessionIntegrityTests {
    @Test func positionsGetANICOnceTheOperationalStatusIsKnown() throws {
        // Real frames of AB2760: an airborne position (TC11), then its version 2 operational
        // status (NIC-A 0), then the same position again: NIC 8 needs NIC-A = NIC-B = 0.
        var session = DecodeSession()
        let position = "8DAB27605835E28DDB09F5C3315D"
        #expect(try session.decode(line: Substring(position))?.nic == nil)
        let status = try #require(try session.decode(line: "8DAB2760F8230006004AB84A4446"))
        #expect(status.version == 2)
        #expect(try session.decode(line: Substring(position))?.nic == 8)
    }
}
