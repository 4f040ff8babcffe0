import Foundation
import ModeS
import Testing
@testable import Tracking

/// One minute of real ADS-B near Atlanta (rs1090's short_flights, the first 486 lines of
/// Samples/realworld-frames.txt: 9 aircraft), at their reception times (`RealWorldTimes`).
@Suite("Aircraft table on real frames")
struct RealWorldTests {
    static func frames() throws -> [Frame] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Samples/realworld-frames.txt"), encoding: .utf8)
        return try text.split(separator: "\n").prefix(486).map { try Frame(hex: $0) }
    }

    @Test("real positions are all accepted and each aircraft ends at its last pair's position")
    func realFlights() throws {
        let frames = try Self.frames()
        #expect(frames.count == 486)
        #expect(RealWorldTimes.deciseconds.count == 486)
        // Atlanta Hartsfield-Jackson, as the receiver.
        var table = AircraftTable(configuration: TableConfiguration(receiver: Coordinate(latitude: 33.6367, longitude: -84.4281)))
        var lastHalves: [UInt32: [CPRFormat: (CPRPosition, Double)]] = [:]
        for (i, frame) in frames.enumerated() {
            let t = Double(RealWorldTimes.deciseconds[i]) / 10
            let message = try decoded(frame)
            table.apply(message, received: ReceivedFrame(frame: frame), at: t)
            if case .extendedSquitter(let es) = message.content, case .airbornePosition(let p)? = es.message {
                lastHalves[es.address, default: [:]][p.cprFormat] = (p.cpr, t)
            }
        }
        let cpr = table.counters.cpr
        #expect(cpr.globalSpeed == 0 && cpr.localSpeed == 0 && cpr.globalRange == 0 && cpr.localRange == 0)
        #expect(cpr.globalBad == 0)
        #expect(cpr.surface == 1)
        #expect(cpr.localReceiverRelative == 1)   // the one surface message, against the airport

        let snapshot = table.snapshot(at: 60.6)
        // Two aircraft sent one message each: not shown.
        #expect(snapshot.count == 7)
        #expect(snapshot.aircraft(address: 0xA2A7C4) == nil)
        #expect(table.record(AircraftKey(address: 0xA426E0))?.position != nil)

        // Every aircraft with an even/odd pair within 10 s ends at the global decoding of it.
        var checked = 0
        for (address, halves) in lastHalves {
            guard let even = halves[.even], let odd = halves[.odd], (even.1 - odd.1).magnitude <= 10 else { continue }
            let latest: CPRFormat = even.1 > odd.1 ? .even : .odd
            let expected = try #require(CPR.globalAirborne(even: even.0, odd: odd.0, latest: latest))
            let p = try #require(table.record(AircraftKey(address: address))?.position)
            #expect(p.time == max(even.1, odd.1))
            #expect(nm(p.value, expected) < 0.001, "\(AircraftKey(address: address))")
            checked += 1
        }
        #expect(checked >= 6)
        // Everything is near Atlanta.
        for a in snapshot.aircraft { if let d = a.distance { #expect(d < 60) } }
    }
}
