import Feeds
import Foundation
import Hummingbird
import HummingbirdTesting
import ModeS
import Testing
import Tracking
@testable import Web

/// A small sky and the web sources over it.
enum Sky {
    static let receiver = Coordinate(latitude: 52.3, longitude: 4.76)
    static let now = 1_700_000_000.0
    static let klmStart = Geodesy.destination(from: receiver, bearing: 45, distance: 30)
    static let klmLater = Geodesy.destination(from: receiver, bearing: 45, distance: 30.3)

    static func feed(_ table: inout AircraftTable, _ frame: Frame, at time: Double, signal: Double? = -12) throws {
        let message = try #require(ModeSMessage.decode(frame))
        table.apply(message, received: ReceivedFrame(frame: frame, signal: signal), at: time)
    }

    /// KLM1023 (4840d6, PH-BXA, B738, squawk 1000, FL350, 30 NM north-east), D-AIUP (3c66b0,
    /// A320, on the ground at the receiver), a TIS-B target (~00abcd, 2500 ft, 10 NM SSW),
    /// a Mode S-only aircraft (a061d9, 12000 ft, squawk 7700, no position).
    /// Snapshot 1 at t = 2; snapshot 2 at t = 4 after KLM moved on to 30.3 NM (432 kt).
    static func snapshots() throws -> (TableSnapshot, TableSnapshot) {
        let database = DictionaryAircraftDatabase([
            0x4840D6: AircraftInfo(address: 0x4840D6, registration: "PH-BXA", typeCode: "B738", typeDescription: "BOEING 737-800",
                                   ownerOperator: "KLM", year: 1999),
            0x3C66B0: AircraftInfo(address: 0x3C66B0, registration: "D-AIUP", typeCode: "A320", typeDescription: "AIRBUS A-320"),
        ])
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver), database: database)
        try feed(&table, SyntheticFrames.identification(address: 0x4840D6, callsign: "KLM1023"), at: 0)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x4840D6, position: klmStart, altitude: 35000, format: .even), at: 0.5)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x4840D6, position: klmStart, altitude: 35000, format: .odd), at: 1)
        try feed(&table, SyntheticFrames.velocity(address: 0x4840D6, groundSpeed: 450, track: 45), at: 1.2)
        try feed(&table, SyntheticFrames.surveillanceIdentity(address: 0x4840D6, squawk: 0o1000), at: 1.4)
        try feed(&table, SyntheticFrames.surfacePosition(address: 0x3C66B0, position: receiver, format: .even, movement: 1), at: 0.5)
        try feed(&table, SyntheticFrames.surfacePosition(address: 0x3C66B0, position: receiver, format: .odd, movement: 1), at: 1)
        let tisb = Geodesy.destination(from: receiver, bearing: 200, distance: 10)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x00ABCD, position: tisb, altitude: 2500, format: .even, df: 18, cf: 5), at: 0.5)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x00ABCD, position: tisb, altitude: 2500, format: .odd, df: 18, cf: 5), at: 1)
        try feed(&table, SyntheticFrames.surveillanceAltitude(address: 0xA061D9, altitude: 12000), at: 0.5, signal: nil)
        try feed(&table, SyntheticFrames.surveillanceIdentity(address: 0xA061D9, squawk: 0o7700), at: 1, signal: nil)
        let first = table.snapshot(at: 2)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x4840D6, position: klmLater, altitude: 35000, format: .even), at: 3)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x4840D6, position: klmLater, altitude: 35000, format: .odd), at: 3.5)
        return (first, table.snapshot(at: 4))
    }

    static let stats: String = {
        var history = StatsHistory(start: now - 120)
        history.advance(to: now)
        return history.document(at: now)
    }()

    /// Sources with both snapshots recorded (trails) and the second one live.
    static func sources() throws -> WebSources {
        let (first, second) = try snapshots()
        let publisher = SnapshotPublisher(first)
        let sources = WebSources.recording(publisher, stats: FixedStatsSource(stats),
                                           receiver: ReceiverInfo(version: "FlyTracker test"), clock: { now })
        _ = sources.live.currentSnapshot
        publisher.publish(second)
        _ = sources.live.currentSnapshot
        return sources
    }

    static func app(_ sources: WebSources? = nil, host: String = "127.0.0.1", port: Int = 0) throws -> some ApplicationProtocol {
        try buildApplication(configuration: WebConfiguration(host: host, port: port), sources: try sources ?? Self.sources())
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// The hex keys of `aircraft` in a list response.
    func hexes() throws -> [String] {
        let list = try #require(try json()["aircraft"] as? [[String: Any]])
        return list.compactMap { $0["hex"] as? String }
    }
}
