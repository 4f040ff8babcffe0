#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Demod
import Foundation
import ModeS
import Radio

/// `flytracker bench --sensitivity`: frames decoded of those sent, on `SensitivityScenario`
/// signals (random DF17 frames on the realistic channel) swept over SNR at both sample rates,
/// with the false frames and the demodulator's CPU time per sample. A pure-noise signal of the
/// same length closes each rate's table.
struct SensitivityBenchmark {
    var snrs: [Double]
    var rates: [SampleRate]
    var frames: Int
    var seed: UInt64
    var fruitRate: Double
    var channel: ReceiverChannel
    /// Also run `--fast` (a second column).
    var fast: Bool
    /// Write each signal and its truth here (`sens-2m4-snr06.uc8`, `.jsonl`), to run other
    /// decoders on the very same files.
    var keepDirectory: String?

    struct Row {
        var snr: Double
        var score: SensitivityScore
        var fastScore: SensitivityScore?
        /// Demodulator CPU time per sample, ns.
        var nanosecondsPerSample: Double
        var fastNanosecondsPerSample: Double?
    }

    /// The scenario of one point; SNR −∞ is pure noise.
    func scenario(rate: SampleRate, snr: Double) -> SensitivityScenario {
        SensitivityScenario(seed: seed, count: frames, snr: snr, sampleRate: rate, channel: channel,
                            fruitRate: snr.isFinite ? fruitRate : 0)
    }

    /// The file name a point's signal is kept under (without extension).
    static func fileName(rate: SampleRate, snr: Double) -> String {
        let r = rate == .rate2_0 ? "2m0" : "2m4"
        return snr.isFinite ? String(format: "sens-%@-snr%04.1f", r, snr) : "sens-\(r)-noise"
    }

    func run(print line: (String) -> Void) throws {
        if let keepDirectory {
            try FileManager.default.createDirectory(atPath: keepDirectory, withIntermediateDirectories: true)
        }
        for rate in rates {
            line("sample rate \(rate), \(frames) DF17 test frames per point, FRUIT \(Int(fruitRate))/s, \(channel.bandLimited ? "realistic" : "ideal") channel, seed \(seed)")
            var header = "   SNR dB | decoded | false |  fruit  | ns/sample"
            if fast { header += " | --fast decoded | false | ns/sample" }
            line(header)
            for snr in snrs + [-.infinity] {
                let row = try measure(scenario(rate: rate, snr: snr))
                line(format(row))
                if row.score.falseFrames > 0 {
                    let byDF = row.score.falseByDF.keys.sorted().map { "DF\($0) ×\(row.score.falseByDF[$0]!)" }.joined(separator: ", ")
                    line("          false frames: \(byDF); \(row.score.falseAddresses.count) would be new aircraft")
                }
            }
            line("")
        }
    }

    func measure(_ scenario: SensitivityScenario) throws -> Row {
        let signal = scenario.render()
        if let keepDirectory {
            let base = keepDirectory + "/" + SensitivityBenchmark.fileName(rate: scenario.sampleRate, snr: scenario.snr)
            try Data(signal.bytes).write(to: URL(fileURLWithPath: base + ".uc8"))
            try Data(signal.sent.map { $0.jsonLine + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: base + ".jsonl"))
        }
        let (score, ns) = SensitivityBenchmark.demodulate(signal, scenario: scenario, tuning: .init())
        var row = Row(snr: scenario.snr, score: score, nanosecondsPerSample: ns)
        if fast {
            let (fastScore, fastNs) = SensitivityBenchmark.demodulate(signal, scenario: scenario, tuning: .fast)
            row.fastScore = fastScore
            row.fastNanosecondsPerSample = fastNs
        }
        return row
    }

    /// Demodulates the signal (one block: the demodulator's output does not depend on how its
    /// input is cut); the score and the CPU time per sample (ns).
    static func demodulate(_ signal: SensitivityScenario.Signal, scenario: SensitivityScenario,
                           tuning: Demodulator.Tuning) -> (SensitivityScore, Double) {
        let block = SampleBlock(bytes: signal.bytes, format: scenario.format, firstSample: 0)
        var demodulator = Demodulator(sampleRate: scenario.sampleRate)
        demodulator.tuning = tuning
        var decoded: [(frame: Frame, sample: UInt64)] = []
        decoded.reserveCapacity(scenario.count * 2)
        let start = cpuSeconds()
        demodulator.process(block) { decoded.append(($0.parity.frame, $0.sampleIndex)) }
        demodulator.finish { decoded.append(($0.parity.frame, $0.sampleIndex)) }
        let seconds = cpuSeconds() - start
        return (SensitivityScore(sent: signal.sent, decoded: decoded), seconds * 1e9 / Double(max(signal.sampleCount, 1)))
    }

    /// CPU time of this process, s.
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    private func format(_ row: Row) -> String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        let snr = row.snr.isFinite ? String(format: "%9.1f", row.snr) : "    noise"
        func cells(_ s: SensitivityScore, _ ns: Double, withFruit: Bool) -> String {
            var text = " | " + pad(s.tests > 0 ? "\(s.testsDecoded)/\(s.tests)" : "-", withFruit ? 7 : 14) + " | " + pad("\(s.falseFrames)", 5)
            if withFruit { text += " | " + pad(s.fruit > 0 ? "\(s.fruitDecoded)/\(s.fruit)" : "-", 7) }
            return text + String(format: " | %9.2f", ns)
        }
        var text = snr + cells(row.score, row.nanosecondsPerSample, withFruit: true)
        if let f = row.fastScore, let ns = row.fastNanosecondsPerSample { text += cells(f, ns, withFruit: false) }
        return text
    }
}
