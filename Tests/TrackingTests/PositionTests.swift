import ModeS
import Testing
@testable import Tracking

/// CPR pairing, local decoding and plausibility in the table, driven by published frames
/// (expected positions from "The 1090 Megahertz Riddle" and pyModeS, see
/// shared/vectors/published.jsonl) and by frames encoded from known flight paths.
@Suite("Aircraft table positions")
struct PositionTests {
    static let tolerance = 1e-5

    @Test("an even/odd pair decodes globally to the published position (even newer)")
    func globalPairEvenNewer() throws {
        var table = AircraftTable()
        try table.feed(hex: "8D40621D58C386435CC412692AD6", at: 0)
        try table.feed(hex: "8D40621D58C382D690C8AC2863A7", at: 2)
        let p = try #require(table.record(AircraftKey(address: 0x40621D))?.position)
        #expect((p.value.latitude - 52.257202).magnitude < Self.tolerance)
        #expect((p.value.longitude - 3.919373).magnitude < Self.tolerance)
        #expect(p.source == .adsb)
        #expect(table.counters.cpr.globalOK == 1)
        #expect(table.counters.cpr.airborne == 2)
    }

    @Test("an even/odd pair decodes globally to the published position (odd newer)")
    func globalPairOddNewer() throws {
        var table = AircraftTable()
        try table.feed(hex: "8D40058B58C901375147EFD09357", at: 0)
        try table.feed(hex: "8D40058B58C904A87F402D3B8C59", at: 2)
        let p = try #require(table.record(AircraftKey(address: 0x40058B))?.position?.value)
        #expect((p.latitude - 49.817551).magnitude < Self.tolerance)
        #expect((p.longitude - 6.084422).magnitude < Self.tolerance)
    }

    @Test("halves further apart than the 10 s airborne window are not paired")
    func pairWindow() throws {
        var table = AircraftTable()
        try table.feed(hex: "8D40058B58C901375147EFD09357", at: 0)
        try table.feed(hex: "8D40058B58C904A87F402D3B8C59", at: 10.5)
        #expect(table.record(AircraftKey(address: 0x40058B))?.position == nil)
        #expect(table.counters.cpr.globalOK == 0)
        #expect(table.counters.cpr.globalSkipped == 2)
        #expect(table.counters.cpr.localSkipped == 2)
    }

    @Test("the pair window shrinks for aircraft faster than 500 kt")
    func pairWindowScalesWithSpeed() {
        let decoder = PositionDecoder(configuration: TableConfiguration())
        #expect(decoder.pairWindow(surface: false, groundSpeed: 300) == 10)
        #expect(decoder.pairWindow(surface: false, groundSpeed: 1000) == 5)
        #expect(decoder.pairWindow(surface: true, groundSpeed: 10) == 50)
        #expect(decoder.pairWindow(surface: true, groundSpeed: 40) == 25)
    }

    @Test("a single message decodes relative to the receiver when the range allows it")
    func receiverRelative() throws {
        var config = TableConfiguration(receiver: Coordinate(latitude: 49.0, longitude: 6.0))
        config.maxRange = 180
        var table = AircraftTable(configuration: config)
        try table.feed(hex: "8D40058B58C901375147EFD09357", at: 0)
        let p = try #require(table.record(AircraftKey(address: 0x40058B))?.position?.value)
        #expect((p.latitude - 49.824097).magnitude < Self.tolerance)
        #expect((p.longitude - 6.06785).magnitude < Self.tolerance)
        #expect(table.counters.cpr.localReceiverRelative == 1)
        #expect(table.counters.cpr.localOK == 1)
    }

    @Test("airborne receiver-relative decoding is off when the range exceeds 180 NM")
    func receiverRelativeNeedsShortRange() throws {
        var table = AircraftTable(configuration: TableConfiguration(receiver: Coordinate(latitude: 49.0, longitude: 6.0)))
        try table.feed(hex: "8D40058B58C901375147EFD09357", at: 0)
        #expect(table.record(AircraftKey(address: 0x40058B))?.position == nil)
        #expect(table.counters.cpr.localSkipped == 1)
    }

    @Test("a position beyond the maximum range of the receiver is rejected")
    func rangeCheck() throws {
        var config = TableConfiguration(receiver: Coordinate(latitude: 40.0, longitude: -74.0))
        config.maxRange = 200
        var table = AircraftTable(configuration: config)
        try table.feed(hex: "8D40621D58C386435CC412692AD6", at: 0)
        try table.feed(hex: "8D40621D58C382D690C8AC2863A7", at: 2)
        #expect(table.record(AircraftKey(address: 0x40621D))?.position == nil)
        #expect(table.counters.cpr.globalRange == 1)
    }

    @Test("a surface pair decodes with the receiver as reference to the published position")
    func surfaceGlobal() throws {
        var table = AircraftTable(configuration: TableConfiguration(receiver: Coordinate(latitude: 51.99, longitude: 4.375)))
        try table.feed(hex: "8C4841753AAB238733C8CD4020B1", at: 0)
        try table.feed(hex: "8C4841753A8A35323FAEBDAC702D", at: 2)
        let a = try #require(table.record(AircraftKey(address: 0x484175)))
        let p = try #require(a.position?.value)
        #expect((p.latitude - 52.320607).magnitude < Self.tolerance)
        #expect((p.longitude - 4.734735).magnitude < Self.tolerance)
        #expect(a.positionOnSurface)
        #expect(a.onGround?.value == true)
        #expect(table.counters.cpr.surface == 2)
        #expect(table.counters.cpr.globalOK == 1)
    }

    @Test("a single surface message decodes relative to the receiver to the published position")
    func surfaceLocal() throws {
        var table = AircraftTable(configuration: TableConfiguration(receiver: Coordinate(latitude: 51.99, longitude: 4.375)))
        try table.feed(hex: "8C4841753A9A153237AEF0F275BE", at: 0)
        let p = try #require(table.record(AircraftKey(address: 0x484175))?.position?.value)
        #expect((p.latitude - 52.320561).magnitude < Self.tolerance)
        #expect((p.longitude - 4.735735).magnitude < Self.tolerance)
        #expect(table.counters.cpr.localReceiverRelative == 1)
    }

    @Test("a surface pair with no reference at all is skipped")
    func surfaceWithoutReference() throws {
        var table = AircraftTable()
        try table.feed(hex: "8C4841753AAB238733C8CD4020B1", at: 0)
        try table.feed(hex: "8C4841753A8A35323FAEBDAC702D", at: 2)
        #expect(table.record(AircraftKey(address: 0x484175))?.position == nil)
        #expect(table.counters.cpr.globalSkipped == 2)
    }

    @Test("a surface pair uses the estimated receiver when none is configured")
    func surfaceWithEstimatedReceiver() throws {
        var table = AircraftTable()
        // Two aircraft over the Netherlands give the estimate.
        let script = FlightScript(address: 0x484001)
        let other = FlightScript(address: 0x484002)
        for (frame, t) in script.frames(path: script.straight(from: Coordinate(latitude: 52.0, longitude: 4.0), track: 90, speed: 300, steps: 12))
            + other.frames(path: other.straight(from: Coordinate(latitude: 52.6, longitude: 5.0), track: 270, speed: 300, steps: 12))
        {
            try table.feed(frame, at: t)
        }
        let estimate = try #require(table.receiverEstimator.estimate)
        #expect(nm(estimate, Coordinate(latitude: 52.3, longitude: 4.5)) < 30)
        try table.feed(hex: "8C4841753AAB238733C8CD4020B1", at: 10)
        try table.feed(hex: "8C4841753A8A35323FAEBDAC702D", at: 12)
        let p = try #require(table.record(AircraftKey(address: 0x484175))?.position?.value)
        #expect((p.latitude - 52.320607).magnitude < Self.tolerance)
        #expect((p.longitude - 4.734735).magnitude < Self.tolerance)
    }

    @Test("without a partner, a message decodes locally relative to the aircraft's last position")
    func aircraftRelative() throws {
        var table = AircraftTable()
        let start = Coordinate(latitude: 47.3, longitude: 8.5)
        let script = FlightScript(address: 0x4B1234)
        let path = script.straight(from: start, track: 45, speed: 420, steps: 3)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x4B1234, position: path[0].position, altitude: 35000, format: .even), at: 0)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x4B1234, position: path[1].position, altitude: 35000, format: .odd), at: 0.5)
        #expect(table.counters.cpr.globalOK == 1)
        // 30 s later the partner is outside the window: local decoding around the last position.
        let later = Geodesy.destination(from: path[1].position, bearing: 45, distance: 420 * 30 / 3600)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x4B1234, position: later, altitude: 35000, format: .even), at: 30.5)
        let p = try #require(table.record(AircraftKey(address: 0x4B1234))?.position)
        #expect(p.time == 30.5)
        #expect(nm(p.value, later) < 0.01)
        #expect(table.counters.cpr.localAircraftRelative == 1)
    }

    @Test("a single corrupted position far away is rejected and the track goes on")
    func corruptedPositionRejected() throws {
        var table = AircraftTable()
        let address: UInt32 = 0x3C6586
        let script = FlightScript(address: address)
        let path = script.straight(from: Coordinate(latitude: 50.1, longitude: 8.6), track: 120, speed: 450, steps: 40)
        var frames = script.frames(path: path)
        // Position 21 (odd) arrives with a damaged latitude (parity recomputed, as a wrong
        // 1-bit correction would leave it): 2^13 of 2^17 of a zone, about 22 NM off.
        let n = 21
        let good = try #require(CPR.encode(path[n].position, format: .odd, surface: false))
        let bad = CPRPosition(format: .odd, lat: good.lat ^ 0x2000, lon: good.lon)
        frames[2 * n].0 = SyntheticFrames.airbornePosition(address: address, cpr: bad, altitude: 35000)
        var worst = 0.0
        for (i, (frame, t)) in frames.enumerated() {
            try table.feed(frame, at: t)
            guard let p = table.record(AircraftKey(address: address))?.position else { continue }
            // The truth at the time of the latest accepted position.
            let truth = path[min(i / 2, path.count - 1)]
            if p.time == truth.time { worst = max(worst, nm(p.value, truth.position)) }
        }
        #expect(worst < 0.01)
        let cpr = table.counters.cpr
        #expect(cpr.globalSpeed + cpr.localSpeed >= 1)
        #expect(cpr.globalOK + cpr.localOK >= 37)
        let last = try #require(table.record(AircraftKey(address: address))?.position)
        #expect(nm(last.value, path[39].position) < 0.01)
    }

    @Test("a real turn at high speed is not rejected")
    func highSpeedTurn() throws {
        // 550 kt in a 3°/s turn through 270° (a 3 NM radius), positions every 0.5 s, with the
        // ground speed and track of each moment.
        var table = AircraftTable()
        let address: UInt32 = 0xAE1234
        var position = Coordinate(latitude: 36.0, longitude: -115.0)
        var track = 0.0
        var path: [(time: Double, position: Coordinate, groundSpeed: Double, track: Double)] = []
        for i in 0..<180 {
            path.append((Double(i) * 0.5, position, 550, track))
            position = Geodesy.destination(from: position, bearing: track + 0.75, distance: 550 * 0.5 / 3600)
            track = (track + 1.5).truncatingRemainder(dividingBy: 360)
        }
        for (frame, t) in FlightScript(address: address).frames(path: path) { try table.feed(frame, at: t) }
        let cpr = table.counters.cpr
        #expect(cpr.globalSpeed == 0 && cpr.localSpeed == 0 && cpr.globalBad == 0)
        #expect(cpr.globalOK == 179)
        let last = try #require(table.record(AircraftKey(address: address))?.position)
        #expect(nm(last.value, path[179].position) < 0.01)
    }

    @Test("a wrong first position is replaced once two independent pairs agree")
    func recoveryFromWrongTrack() throws {
        var config = TableConfiguration(receiver: Coordinate(latitude: 50.0, longitude: 8.0))
        config.maxRange = 180
        var table = AircraftTable(configuration: config)
        let address: UInt32 = 0x3C1111
        let script = FlightScript(address: address)
        let path = script.straight(from: Coordinate(latitude: 50.3, longitude: 8.4), track: 300, speed: 400, steps: 12, startTime: 1)
        // First a damaged single message, decoded against the receiver: a wrong position.
        let good = try #require(CPR.encode(Coordinate(latitude: 50.3, longitude: 8.4), format: .even, surface: false))
        try table.feed(SyntheticFrames.airbornePosition(address: address, cpr: CPRPosition(format: .even, lat: good.lat ^ 0x4000, lon: good.lon), altitude: 35000), at: 0)
        let wrong = try #require(table.record(AircraftKey(address: address))?.position?.value)
        #expect(nm(wrong, path[0].position) > 20)
        for (frame, t) in script.frames(path: path) { try table.feed(frame, at: t) }
        let last = try #require(table.record(AircraftKey(address: address))?.position)
        #expect(nm(last.value, path[11].position) < 0.01)
    }

    @Test("a TIS-B position does not replace a fresh ADS-B one")
    func positionSourcePriority() throws {
        var table = AircraftTable()
        try table.feed(hex: "8D40621D58C386435CC412692AD6", at: 0)
        try table.feed(hex: "8D40621D58C382D690C8AC2863A7", at: 2)
        // The same aircraft as fine TIS-B (DF18 CF2) 1 NM further north.
        let north = Coordinate(latitude: 52.274, longitude: 3.919)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: north, altitude: 38000, format: .even, df: 18, cf: 2), at: 3)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: north, altitude: 38000, format: .odd, df: 18, cf: 2), at: 3.5)
        let p = try #require(table.record(AircraftKey(address: 0x40621D))?.position)
        #expect(p.source == .adsb)
        #expect(table.counters.cpr.filtered == 2)
        // Once the ADS-B position is stale (15 s), TIS-B may update it.
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: north, altitude: 38000, format: .even, df: 18, cf: 2), at: 20)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x40621D, position: north, altitude: 38000, format: .odd, df: 18, cf: 2), at: 20.5)
        let q = try #require(table.record(AircraftKey(address: 0x40621D))?.position)
        #expect(q.source == .tisb)
        #expect(nm(q.value, north) < 0.01)
    }
}
