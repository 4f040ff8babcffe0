import ModeS
import Testing
@testable import Tracking

/// Per-field source priority and expiry, reliability, removal and keys.
@Suite("Aircraft table fields and lifetime")
struct FieldTests {
    static let address: UInt32 = 0x4840D6
    static let key = AircraftKey(address: address)

    /// ADS-B altitude from an airborne position message.
    static func adsbAltitude(_ altitude: Int) -> Frame {
        SyntheticFrames.airbornePosition(address: address, position: Coordinate(latitude: 52, longitude: 4), altitude: altitude, format: .even)
    }

    @Test("a Mode S altitude does not replace a fresh ADS-B one (counted as altitude_suppressed), and does once it is stale")
    func sourcePriority() throws {
        var table = AircraftTable()
        try table.feed(Self.adsbAltitude(35000), at: 0)
        try table.feed(SyntheticFrames.surveillanceAltitude(address: Self.address, altitude: 35100), at: 1)
        var alt = try #require(table.record(Self.key)?.altBaro)
        #expect(alt.value == 35000)
        #expect(alt.source == .adsb)
        #expect(table.counters.altitudeSuppressed == 1)
        // An identity reply carries no altitude: nothing suppressed.
        try table.feed(SyntheticFrames.surveillanceIdentity(address: Self.address, squawk: 0o7000), at: 2)
        #expect(table.counters.altitudeSuppressed == 1)
        // 15 s after the ADS-B value it is stale: the Mode S value wins.
        try table.feed(SyntheticFrames.surveillanceAltitude(address: Self.address, altitude: 35200), at: 15.5)
        alt = try #require(table.record(Self.key)?.altBaro)
        #expect(alt.value == 35200)
        #expect(alt.source == .modeS)
        #expect(table.counters.altitudeSuppressed == 1, "a value taken is not suppressed")
        // A better source replaces a worse one at once.
        try table.feed(Self.adsbAltitude(35300), at: 16)
        alt = try #require(table.record(Self.key)?.altBaro)
        #expect(alt.value == 35300)
        #expect(alt.source == .adsb)
    }

    @Test("a message older than the stored value does not replace it")
    func outOfOrder() throws {
        var table = AircraftTable()
        try table.feed(Self.adsbAltitude(35000), at: 10)
        try table.feed(Self.adsbAltitude(30000), at: 9)
        #expect(table.record(Self.key)?.altBaro?.value == 35000)
    }

    @Test("a Comm-B callsign gives way to the ADS-B identification")
    func commBCallsign() throws {
        var table = AircraftTable()
        try table.feed(SyntheticFrames.commB(address: Self.address, altitude: 12550, mb: SyntheticFrames.bds20("KLM1017")), at: 0)
        var flight = try #require(table.record(Self.key)?.flight)
        #expect(flight.value == "KLM1017")
        #expect(flight.source == .commB)
        // The altitude of the same reply is a Mode S value.
        #expect(table.record(Self.key)?.altBaro?.source == .modeS)
        try table.feed(hex: "8D4840D6202CC371C32CE0576098", at: 1)
        flight = try #require(table.record(Self.key)?.flight)
        #expect(flight.value == "KLM1023")
        #expect(flight.source == .adsb)
    }

    @Test("Comm-B 4,4 gives wind and temperature")
    func weather() throws {
        var mb: UInt64 = 0
        // FOM 2, wind 42 kt from 270° (384 × 180/256), SAT −40.25 °C (−161 × 0.25),
        // 250 hPa, light turbulence, humidity 50 % (32 × 100/64).
        SyntheticFrames.set(&mb, 1, 4, 2)
        SyntheticFrames.set(&mb, 5, 5, 1)
        SyntheticFrames.set(&mb, 6, 14, 42)
        SyntheticFrames.set(&mb, 15, 23, 384)
        SyntheticFrames.set(&mb, 24, 24, 1)
        SyntheticFrames.set(&mb, 25, 34, UInt64(1024 - 161))
        SyntheticFrames.set(&mb, 35, 35, 1)
        SyntheticFrames.set(&mb, 36, 46, 250)
        SyntheticFrames.set(&mb, 47, 47, 1)
        SyntheticFrames.set(&mb, 48, 49, 1)
        SyntheticFrames.set(&mb, 50, 50, 1)
        SyntheticFrames.set(&mb, 51, 56, 32)
        var table = AircraftTable()
        try table.feed(SyntheticFrames.commB(address: Self.address, altitude: 34000, mb: mb), at: 0)
        let a = try #require(table.record(Self.key))
        #expect(a.windSpeed?.value == 42)
        #expect(a.windDirection?.value == 270)
        #expect(a.oat?.value == -40.25)
        #expect(a.oat?.source == .commB)
    }

    @Test("each field expires on its own")
    func fieldExpiry() throws {
        var table = AircraftTable()
        try table.feed(hex: "8D4840D6202CC371C32CE0576098", at: 0)   // callsign (identity: 120 s)
        try table.feed(Self.adsbAltitude(35000), at: 0.5)           // altitude (state: 60 s)
        try table.feed(SyntheticFrames.allCall(address: Self.address), at: 100)   // keeps it alive
        var a = try #require(table.snapshot(at: 60).aircraft(address: Self.address))
        #expect(a.altBaro?.value == 35000)
        #expect(a.flight?.value == "KLM1023")
        a = try #require(table.snapshot(at: 61).aircraft(address: Self.address))
        #expect(a.altBaro == nil)
        #expect(a.flight?.value == "KLM1023")
        a = try #require(table.snapshot(at: 121).aircraft(address: Self.address))
        #expect(a.flight == nil)
        // The stored record still has the values (for references and later updates).
        #expect(table.record(Self.key)?.altBaro?.value == 35000)
    }

    @Test("the position expires after 60 s")
    func positionExpiry() throws {
        var table = AircraftTable()
        try table.feed(hex: "8D40621D58C386435CC412692AD6", at: 0)
        try table.feed(hex: "8D40621D58C382D690C8AC2863A7", at: 2)
        try table.feed(SyntheticFrames.allCall(address: 0x40621D), at: 70)
        #expect(table.snapshot(at: 62).aircraft(address: 0x40621D)?.position != nil)
        let later = try #require(table.snapshot(at: 62.5).aircraft(address: 0x40621D))
        #expect(later.position == nil)
        #expect(later.nic == nil)
    }

    @Test("a single message never makes an aircraft; two within the window do")
    func reliability() throws {
        var table = AircraftTable()
        try table.feed(SyntheticFrames.allCall(address: 0x123456), at: 0)
        #expect(table.count == 1)
        #expect(table.snapshot(at: 0).count == 0)
        // A second message 40 s later is outside the 30 s window: still not reliable.
        try table.feed(SyntheticFrames.allCall(address: 0x123456), at: 20)
        #expect(table.snapshot(at: 20).count == 1)
        try table.feed(SyntheticFrames.allCall(address: 0x654321), at: 21)
        try table.feed(SyntheticFrames.allCall(address: 0x654321), at: 61)
        #expect(table.snapshot(at: 61).aircraft(address: 0x654321) == nil)
    }

    @Test("aircraft are removed after the configured silence; single-message and unreliable tracks are counted")
    func removal() throws {
        var config = TableConfiguration()
        config.removeAfter = 100
        var table = AircraftTable(configuration: config)
        try table.feed(SyntheticFrames.allCall(address: 0x111111), at: 0)
        try table.feed(SyntheticFrames.allCall(address: 0x111111), at: 1)
        try table.feed(SyntheticFrames.allCall(address: 0x222222), at: 1)   // a ghost
        table.housekeep(at: 31.5)
        #expect(table.count == 1)
        #expect(table.counters.singleMessageTracks == 1)
        #expect(table.snapshot(at: 100).count == 1)
        table.housekeep(at: 101.5)
        #expect(table.count == 0)
        #expect(table.snapshot(at: 101.5).count == 0)
        #expect(table.counters.tracks == 2)
        #expect(table.counters.singleMessageTracks == 1)
        #expect(table.counters.unreliableTracks == 1, "the ghost never became reliable; the other did")
    }

    @Test("housekeeping inside apply keeps memory bounded as aircraft come and go")
    func boundedMemory() throws {
        var table = AircraftTable()
        var peak = 0
        // 5000 aircraft, 40 at a time, each heard for 20 s with one message a second.
        for second in 0..<2500 {
            for slot in 0..<40 {
                let generation = (second + slot) / 20
                let address = UInt32(0x100000 + generation * 40 + slot)
                try table.feed(SyntheticFrames.allCall(address: address), at: Double(second) + Double(slot) / 40)
            }
            peak = max(peak, table.count)
        }
        #expect(table.counters.tracks > 4900)
        // Silent aircraft go after 300 s: at most about 300/20 generations of 40 remain.
        #expect(peak < 16 * 40 + 40)
    }

    @Test("the table keeps at most its capacity, evicting unreliable aircraft first")
    func capacity() throws {
        var config = TableConfiguration()
        config.capacity = 10
        var table = AircraftTable(configuration: config)
        try table.feed(SyntheticFrames.allCall(address: 0xABCDEF), at: 0)
        try table.feed(SyntheticFrames.allCall(address: 0xABCDEF), at: 0.1)
        for i in 0..<50 { try table.feed(SyntheticFrames.allCall(address: UInt32(0x200000 + i)), at: 1 + Double(i) * 0.01) }
        #expect(table.count == 10)
        #expect(table.record(AircraftKey(address: 0xABCDEF)) != nil)
    }

    @Test("a non-ICAO address is kept apart from the ICAO address with the same digits")
    func nonICAO() throws {
        var table = AircraftTable()
        let p = Coordinate(latitude: 52, longitude: 4)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: p, altitude: 1000, format: .even), at: 0)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: p, altitude: 2000, format: .even, df: 18, cf: 1), at: 0)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: p, altitude: 2000, format: .odd, df: 18, cf: 1), at: 1)
        #expect(table.count == 2)
        let other = try #require(table.record(AircraftKey(address: 0x40621D, isICAO: false)))
        #expect(other.key.hex == "~40621d")
        #expect(other.addressType.value == .adsbOther)
        #expect(other.altBaro?.value == 2000)
        #expect(table.record(AircraftKey(address: 0x40621D))?.altBaro?.value == 1000)
        // Non-ICAO addresses get no registration from the address.
        #expect(table.snapshot(at: 1).aircraft(AircraftKey(address: 0x40621D, isICAO: false))?.registration == nil)
    }

    @Test("TIS-B management messages (DF18 CF4) make no aircraft but are counted")
    func managementMessages() throws {
        var table = AircraftTable()
        try table.feed(SyntheticFrames.squitter(address: 0x123456, me: 0xF000_0000_0000_00, df: 18, ca: 4), at: 0)
        try table.feed(SyntheticFrames.squitter(address: 0x123456, me: 0xF000_0000_0000_00, df: 18, ca: 4), at: 1)
        #expect(table.count == 0)
        #expect(table.counters.messagesByDF[18] == 2)
    }

    @Test("the address type shown is the best recent source's")
    func addressType() throws {
        var table = AircraftTable()
        try table.feed(SyntheticFrames.allCall(address: Self.address), at: 0)
        #expect(table.record(Self.key)?.addressType.value == .modeS)
        try table.feed(Self.adsbAltitude(1000), at: 1)
        #expect(table.record(Self.key)?.addressType.value == .adsbICAO)
        try table.feed(SyntheticFrames.allCall(address: Self.address), at: 2)
        #expect(table.record(Self.key)?.addressType.value == .adsbICAO)
    }

    @Test("signal levels average over the last 8 messages in power")
    func rssi() throws {
        var table = AircraftTable()
        try table.feed(SyntheticFrames.allCall(address: Self.address), at: 0, signal: -10)
        try table.feed(SyntheticFrames.allCall(address: Self.address), at: 1, signal: -20)
        let rssi = try #require(table.record(Self.key)?.rssi)
        // mean of 0.1 and 0.01 = 0.055 → −12.6 dBFS
        #expect((rssi - -12.596).magnitude < 0.01)
        #expect(table.counters.messages == 2)
        #expect(table.counters.messagesByDF[11] == 2)
    }
}
