import Testing
import ModeS
@testable import Tracking

/// The table fed by several receivers of a network (an aggregator): hearings, the hearing
/// receiver as the position reference, coverage.
@Suite struct ReceiverNetworkTableTests {
    let west = Hearing(receiver: ReceiverID(rawValue: "west")!, position: Coordinate(latitude: 52.0, longitude: 3.5))
    let east = Hearing(receiver: ReceiverID(rawValue: "east")!, position: Coordinate(latitude: 52.0, longitude: 6.5))
    let address: UInt32 = 0x4840D6
    let spot = Coordinate(latitude: 52.25, longitude: 4.0)

    func apply(_ table: inout AircraftTable, _ frame: Frame, at time: Double, via hearing: Hearing?, signal: Double? = -20) throws {
        table.apply(try decoded(frame), received: ReceivedFrame(frame: frame, signal: signal), at: time, via: hearing)
    }

    @Test func eachReceiverIsRecordedWithItsFramesAndLevelAndMergedCopiesOnlyAddHearings() throws {
        var table = AircraftTable()
        let id = SyntheticFrames.identification(address: address, callsign: "KLM1023")
        try apply(&table, id, at: 10, via: west, signal: -10)
        try apply(&table, id, at: 10.5, via: west, signal: -12)
        table.hear(try decoded(id), received: ReceivedFrame(frame: id, signal: -30), at: 10.52, via: east)
        let a = try #require(table.record(AircraftKey(address: address)))
        #expect(a.messages == 2, "the merged copy is not applied again")
        #expect(a.heardBy[west.receiver]?.messages == 2)
        #expect(a.heardBy[west.receiver]?.signal == -12)
        #expect(abs((a.heardBy[west.receiver]?.meanSignal ?? 0) - (-10.9)) < 0.1, "mean power of -10 and -12 dBFS")
        #expect(a.heardBy[east.receiver]?.messages == 1)
        #expect(a.heardBy[east.receiver]?.lastSeen == 10.52)
        // A copy of an aircraft the table does not hold creates nothing.
        let other = SyntheticFrames.identification(address: 0xABCDEF, callsign: "TEST")
        table.hear(try decoded(other), received: ReceivedFrame(frame: other), at: 11, via: east)
        #expect(table.record(AircraftKey(address: 0xABCDEF)) == nil)
    }

    @Test func aLoneSurfacePositionDecodesAgainstTheHearingReceiver() throws {
        // No receiver configured and no pair: only the hearing receiver's position can
        // resolve the surface message's ambiguity (it must be within about 45 NM: surface
        // CPR zones are a quarter of airborne ones).
        var table = AircraftTable()
        let airport = Hearing(receiver: ReceiverID(rawValue: "schiphol-roof")!, position: Coordinate(latitude: 52.35, longitude: 4.6))
        let ground = Coordinate(latitude: 52.31, longitude: 4.76)
        let frame = SyntheticFrames.surfacePosition(address: address, position: ground, format: .even)
        try apply(&table, frame, at: 5, via: nil)
        #expect(table.record(AircraftKey(address: address))?.position == nil, "without a reference nothing is decoded")
        try apply(&table, SyntheticFrames.surfacePosition(address: address, position: ground, format: .even), at: 6, via: airport)
        let p = try #require(table.record(AircraftKey(address: address))?.position?.value)
        #expect(nm(p, ground) < 0.05)
    }

    @Test func theRangeCheckIsMeasuredFromTheHearingReceiver() throws {
        var configuration = TableConfiguration()
        configuration.maxRange = 100
        let far = Hearing(receiver: ReceiverID(rawValue: "boston")!, position: Coordinate(latitude: 42.36, longitude: -71.06))
        for (hearing, accepted) in [(west, true), (far, false)] {
            var table = AircraftTable(configuration: configuration)
            try apply(&table, SyntheticFrames.airbornePosition(address: address, position: spot, altitude: 30000, format: .even), at: 1, via: hearing)
            try apply(&table, SyntheticFrames.airbornePosition(address: address, position: spot, altitude: 30000, format: .odd), at: 2, via: hearing)
            let p = table.record(AircraftKey(address: address))?.position?.value
            #expect((p != nil) == accepted, "heard by \(hearing.receiver)")
        }
    }

    @Test func coverageCountsAircraftPerReceiverAndKeepsTheFarthestPerSector() throws {
        var table = AircraftTable()
        // One aircraft near west (north-east of it), heard by both; one heard by east only.
        let near = Coordinate(latitude: 52.2, longitude: 3.8)
        for (t, f) in [(1.0, CPRFormat.even), (1.5, .odd), (2.0, .even)] {
            let frame = SyntheticFrames.airbornePosition(address: address, position: near, altitude: 30000, format: f)
            try apply(&table, frame, at: t, via: west)
            table.hear(try decoded(frame), received: ReceivedFrame(frame: frame), at: t + 0.01, via: east)
        }
        let idOnly = SyntheticFrames.identification(address: 0x3C6444, callsign: "DLH1")
        try apply(&table, idOnly, at: 2.1, via: east)
        try apply(&table, idOnly, at: 2.2, via: east)
        let snapshot = table.snapshot(at: 3)
        var map = CoverageMap()
        map.update(snapshot, stations: [west.receiver: west.position!, east.receiver: east.position!])
        let w = try #require(map.receivers[west.receiver])
        let e = try #require(map.receivers[east.receiver])
        #expect(w.aircraft == 1 && w.withPosition == 1)
        #expect(e.aircraft == 2 && e.withPosition == 1)
        let fromWest = nm(west.position!, near)
        #expect(abs((w.rangeNow ?? 0) - fromWest) < 0.1)
        let bearing = Geodesy.bearing(from: west.position!, to: near)
        #expect(abs(w.sectors[Int(bearing / 30)] - fromWest) < 0.1, "the farthest in its 30° sector")
        #expect(w.sectors.filter { $0 > 0 }.count == 1)
        // The aircraft gone: counts drop, the outline stays.
        map.update(TableSnapshot(time: 400, aircraft: []), stations: [:])
        #expect(map.receivers[west.receiver]?.aircraft == 0)
        #expect(map.receivers[west.receiver]?.maxRange == w.maxRange)
        #expect(snapshot.filter(AircraftQuery(receiver: west.receiver)).map(\.address) == [address])
        #expect(snapshot.filter(AircraftQuery(receiver: east.receiver)).count == 2)
    }
}
