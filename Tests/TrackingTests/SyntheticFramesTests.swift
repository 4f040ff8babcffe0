import ModeS
import Testing
@testable import Tracking

/// The benchmark and the tests build frames with `SyntheticFrames`; the core's decoders
/// (tested against published vectors) must read back the values put in.
@Suite("Synthetic frames decode to the values they were built from")
struct SyntheticFramesTests {
    @Test("identification carries the callsign", arguments: ["KLM1023", "EZY85MH", "N12345", "AB"])
    func identification(callsign: String) throws {
        let m = try decoded(SyntheticFrames.identification(address: 0x4840D6, callsign: callsign))
        #expect(m.fields.flight == callsign)
        #expect(m.fields.address == 0x4840D6)
    }

    @Test("airborne position carries altitude and CPR fields", arguments: [-1000, 0, 325, 38000, 45000])
    func airborne(altitude: Int) throws {
        let position = Coordinate(latitude: 52.2572, longitude: 3.9194)
        let frame = SyntheticFrames.airbornePosition(address: 0x40621D, position: position, altitude: altitude, format: .odd)
        let f = try decoded(frame).fields
        let cpr = try #require(CPR.encode(position, format: .odd, surface: false))
        #expect(f.altBaro == altitude)
        #expect(f.cprFormat == .odd)
        #expect(f.cprLat == Int(cpr.lat))
        #expect(f.cprLon == Int(cpr.lon))
    }

    @Test("velocity carries ground speed, track and vertical rate")
    func velocity() throws {
        let f = try decoded(SyntheticFrames.velocity(address: 0x485020, groundSpeed: 450, track: 250, verticalRate: -1024)).fields
        let gs = try #require(f.gs)
        let track = try #require(f.track)
        #expect((gs - 450).magnitude < 1)
        #expect((track - 250).magnitude < 0.2)
        #expect(f.baroRate == -1024)
    }

    @Test("surveillance replies carry altitude and squawk under the address parity")
    func surveillance() throws {
        let alt = try decoded(SyntheticFrames.surveillanceAltitude(address: 0x4CA7E8, altitude: 36000))
        #expect(alt.address == 0x4CA7E8)
        #expect(alt.fields.altBaro == 36000)
        let id = try decoded(SyntheticFrames.surveillanceIdentity(address: 0x510AF9, squawk: 0o0356))
        #expect(id.address == 0x510AF9)
        #expect(id.fields.squawk == 0o0356)
        let all = try decoded(SyntheticFrames.allCall(address: 0x484FDE))
        #expect(all.address == 0x484FDE)
        #expect(all.parity.outcome == .ok)
    }

    @Test("DF20 Comm-B with a BDS 2,0 field infers the callsign")
    func commB() throws {
        let m = try decoded(SyntheticFrames.commB(address: 0x484163, altitude: 12550, mb: SyntheticFrames.bds20("KLM1017")))
        #expect(m.address == 0x484163)
        #expect(m.fields.flight == "KLM1017")
        #expect(m.fields.altBaro == 12550)
    }
}
