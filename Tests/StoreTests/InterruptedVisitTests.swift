import Foundation
import ModeS
import Testing
import Tracking
@testable import Services
@testable import Store

/// A run killed mid-visit (`kill -9`, a power cut) leaves visits open in the store. The next
/// start closes them at their last sighting, counts each once, and the aircraft heard again
/// starts a new visit: the log is then the same as after a clean stop and restart.
@Suite("Visits left open by a killed run")
struct InterruptedVisitTests {
    /// Three aircraft heard at t = 100…110 (Unix s), one of them (0xA00001) again at 400…410.
    static func observation(_ key: UInt32, at t: Int, typeCode: String) -> Observation {
        Observation(key: key, callsign: "TST\(key & 0xF)", typeCode: typeCode, altitude: 30000,
                    position: Coordinate(latitude: 52, longitude: 4 + Double(t) * 0.001), positionTime: Double(t),
                    messages: t, lastSeen: Double(t))
    }

    static let fleet: [(UInt32, String)] = [(0xA00001, "B738"), (0xA00002, "A320"), (0xA00003, "B738")]

    /// Records the first run; `killed`: the process dies without `finish` (nothing closes the
    /// visits). Then a second run starts at t = 300, hears 0xA00001 again and stops cleanly.
    func twoRuns(_ store: any SightingStore, killed: Bool) async throws -> [VisitRecord] {
        let first = try await SightingRecorder(store: store)
        for t in 100...110 {
            try await first.record(Self.fleet.map { Self.observation($0.0, at: t, typeCode: $0.1) }, at: Double(t))
        }
        if !killed { try await first.finish(at: 110) }
        let second = try await SightingRecorder(store: store)
        let recovered = try await second.closeInterruptedVisits(before: 300)
        #expect(recovered.count == (killed ? 3 : 0))
        #expect(second.lastClosed.count == recovered.count)
        for t in 400...410 { try await second.record([Self.observation(0xA00001, at: t, typeCode: "B738")], at: Double(t)) }
        try await second.finish(at: 410)
        // A third start finds nothing left to close.
        await #expect(try SightingRecorder(store: store).closeInterruptedVisits(before: 500).isEmpty)
        var visits: [VisitRecord] = []
        for (address, _) in Self.fleet { visits += try await store.sightings.visits(address: address, limit: 10) }
        return visits
    }

    @Test("Closed at the last sighting, counted once, the next sighting starts a visit as after a clean stop",
          arguments: Engine.allCases)
    func recoveredEqualsCleanStop(engine: Engine) async throws {
        let killedStore = try await engine.makeStore()
        let cleanStore = try await engine.makeStore()
        let killed = try await twoRuns(killedStore, killed: true)
        let clean = try await twoRuns(cleanStore, killed: false)
        #expect(killed.allSatisfy { $0.closed })
        #expect(killed.count == 4)
        func summary(_ v: [VisitRecord]) -> [String] {
            v.map { "\(String($0.address, radix: 16)) \($0.firstSeen)-\($0.lastSeen) closed=\($0.closed) msgs=\($0.messages)" }.sorted()
        }
        #expect(summary(killed) == summary(clean))
        for dimension in [StatsDimension.type, .day] {
            let a = try await killedStore.statistics.withTotal(by: dimension, filter: StatsFilter(), limit: nil)
            let b = try await cleanStore.statistics.withTotal(by: dimension, filter: StatsFilter(), limit: nil)
            #expect(a.total.visits == 4)
            #expect(a.rows == b.rows && a.total == b.total)
        }
    }

    @Test("Visits heard after the start are not closed by the recovery", arguments: Engine.allCases)
    func onlyBeforeStart(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let recorder = try await SightingRecorder(store: store)
        try await recorder.record([Self.observation(0xA00001, at: 100, typeCode: "B738")], at: 100)
        try await recorder.record([Self.observation(0xA00002, at: 200, typeCode: "A320")], at: 200)
        let closed = try await SightingRecorder(store: store).closeInterruptedVisits(before: 150)
        #expect(closed.map(\.address) == [0xA00001])
        #expect(closed.first?.lastSeen == 100)
        await #expect(try store.sightings.visits(address: 0xA00002, limit: 1).first?.closed == false)
    }
}
