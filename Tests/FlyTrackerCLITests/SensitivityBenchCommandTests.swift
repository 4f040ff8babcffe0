import ArgumentParser
import Demod
import Testing
@testable import FlyTrackerCLI

/// `flytracker bench --sensitivity --filter`: the receive filter is named as `ReceiveFilter`
/// names it (or `all`), only with `--sensitivity` and not with the ideal channel; a short run
/// prints one table per filter, each with the model-pulse column.
struct SensitivityBenchCommandTests {
    @Test(arguments: [
        ["bench", "--filter", "butterworth4"],
        ["bench", "--sensitivity", "--filter", "box"],
        ["bench", "--sensitivity", "--filter", "wideband", "--ideal-channel"],
    ])
    func badFilterOptionsAreRefused(arguments: [String]) {
        #expect(throws: (any Error).self) { try FlyTracker.parseAsRoot(arguments) }
    }

    @Test func everyFamilyIsAcceptedByName() throws {
        for filter in ReceiveFilter.allCases.map(\.rawValue) + ["all", "RTL"] {
            let command = try FlyTracker.parseAsRoot(["bench", "--sensitivity", "--filter", filter])
            #expect((command as? BenchCommand)?.filter == filter)
        }
    }

    @Test func aRunPrintsATableAFilterWithTheModelPulseColumn() throws {
        var lines: [String] = []
        for filter in [ReceiveFilter.rtl2832u, .wideband] {
            let bench = SensitivityBenchmark(snrs: [20], rates: [.rate2_4], frames: 20, seed: 3, fruitRate: 0,
                                             channel: .realistic(filter), fast: false, fixedPulse: true, keepDirectory: nil)
            try bench.run { lines.append($0) }
        }
        #expect(lines.contains { $0.contains("realistic channel") })
        #expect(lines.contains { $0.contains("realistic wideband channel") })
        #expect(lines.filter { $0.hasSuffix("| model pulse") }.count == 2)
        // At 20 dB every test frame decodes, with the learned pulse and with the model's.
        #expect(lines.filter { $0.contains("20/20") && $0.hasSuffix("20") }.count == 2, "\(lines)")
    }

    @Test func keptSignalsNameTheirFilter() {
        #expect(SensitivityBenchmark.fileName(rate: .rate2_4, snr: 6) == "sens-2m4-snr06.0")
        #expect(SensitivityBenchmark.fileName(rate: .rate2_0, snr: 12, filter: .wideband) == "sens-wideband-2m0-snr12.0")
        #expect(SensitivityBenchmark.fileName(rate: .rate2_4, snr: -.infinity, filter: .butterworth4) == "sens-butterworth4-2m4-noise")
    }
}
