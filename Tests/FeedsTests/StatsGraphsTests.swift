import Foundation
import Testing
import ModeS
import Tracking
@testable import Feeds

/// What graphs1090's collector reads from stats.json (issue 26): noise and CPU when measured,
/// and no `local` block for a receiver without a radio (`--net-only`).
struct StatsGraphsTests {
    static func periods(_ history: StatsHistory, at now: Double) throws -> [String: [String: Any]] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(history.document(at: now).utf8)) as? [String: Any])
        return doc.compactMapValues { $0 as? [String: Any] }
    }

    @Test("Noise and CPU reach every period when measured")
    func noiseAndCPU() throws {
        var history = StatsHistory(start: 1000)
        var local = ReceptionStatistics()
        local.noisePowerSum = 3e-4 * 4   // four windows at −35.2 dBFS
        local.noiseSamples = 4
        history.record(local: local, cpu: CPUStatistics(demod: 120, reader: 0, background: 30), table: TableCounters(), at: 1001)
        let periods = try Self.periods(history, at: 1002)
        for name in ["latest", "total"] {
            let period = try #require(periods[name])
            let l = try #require(period["local"] as? [String: Any])
            #expect((l["noise"] as? Double).map { abs($0 - (-35.2)) < 0.05 } == true)
            let cpu = try #require(period["cpu"] as? [String: Any])
            #expect(cpu["demod"] as? Int == 120 && cpu["background"] as? Int == 30)
        }
    }

    @Test("Without a radio of its own the receiver writes no local block")
    func netOnlyHasNoLocalBlock() throws {
        var history = StatsHistory(start: 1000, hasLocalReceiver: false)
        var remote = RemoteStatistics()
        remote.modes = 10
        history.record(remote: remote, table: TableCounters(), at: 1001)
        for (_, period) in try Self.periods(history, at: 1002) {
            #expect(period["local"] == nil)
            #expect(period["remote"] != nil)
        }
        let withRadio = try Self.periods(StatsHistory(start: 1000), at: 1002)
        #expect(withRadio.values.allSatisfy { $0["local"] != nil })
    }

    @Test("dump1090-fa's and readsb's extra keys: altitude_suppressed, remote.unknown_icao, tracks.unreliable, position_count_total, max_distance, top-level now, gain_db and aircraft counts")
    func extraKeys() throws {
        var history = StatsHistory(start: 1000)
        var table = TableCounters()
        table.altitudeSuppressed = 7
        table.unreliableTracks = 3
        table.cpr.globalOK = 40
        table.cpr.localOK = 2
        var remote = RemoteStatistics()
        remote.unknownICAO = 5
        var local = ReceptionStatistics()
        local.gainDB = 42.1
        history.record(local: local, remote: remote, table: table, maxDistance: 150_000, at: 1001)
        history.record(table: table, maxDistance: 90_000, at: 1002)
        let text = history.document(at: 1003, aircraft: (withPosition: 4, withoutPosition: 6))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(doc["now"] as? Double == 1003)
        #expect(doc["gain_db"] as? Double == 42.1)
        #expect(doc["aircraft_with_pos"] as? Int == 4 && doc["aircraft_without_pos"] as? Int == 6)
        let total = try #require(doc["total"] as? [String: Any])
        #expect(total["altitude_suppressed"] as? Int == 7)
        #expect((total["tracks"] as? [String: Any])?["unreliable"] as? Int == 3)
        #expect((total["remote"] as? [String: Any])?["unknown_icao"] as? Int == 5)
        #expect(total["position_count_total"] as? Int == 42)
        #expect(total["max_distance"] as? Int == 150_000, "the farthest of the period, metres")
        // Without a radio there is no gain to report.
        var netOnly = StatsHistory(start: 1000, hasLocalReceiver: false)
        netOnly.record(table: TableCounters(), at: 1001)
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(netOnly.document(at: 1002).utf8)) as? [String: Any])
        #expect(bare["gain_db"] == nil && bare["aircraft_with_pos"] == nil)
    }
}
