import Foundation
import Testing
import Demod
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
        var local = DemodStatistics()
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
}
