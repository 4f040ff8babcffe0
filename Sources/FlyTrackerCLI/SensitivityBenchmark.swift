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
/// beside what the physical limit decodes on the same samples (`GenieReceiver`) and the
/// fraction of it FlyTracker reaches, with the false frames and the demodulator's CPU time per
/// sample. A pure-noise signal of the same length closes each rate's table.
struct SensitivityBenchmark {
    var snrs: [Double]
    var rates: [SampleRate]
    var frames: Int
    var seed: UInt64
    var fruitRate: Double
    var channel: ReceiverChannel
    /// Also run `--fast` (a second column).
    var fast: Bool
    /// Also run with the RTL2832U model's pulse, not learning it (a column).
    var fixedPulse = false
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
        /// Test frames decoded with the model's pulse (`fixedPulse`).
        var fixedDecoded: Int?
        /// Test frames the genie receiver (matched filter per bit, one-bit repair) decodes.
        var genie: Int
    }

    /// The scenario of one point; SNR −∞ is pure noise.
    func scenario(rate: SampleRate, snr: Double) -> SensitivityScenario {
        SensitivityScenario(seed: seed, count: frames, snr: snr, sampleRate: rate, channel: channel,
                            fruitRate: snr.isFinite ? fruitRate : 0)
    }

    /// The file name a point's signal is kept under (without extension); a filter other than
    /// the RTL2832U model's is named in it (`sens-wideband-2m4-snr06.0`), so `--filter all`
    /// keeps every family's signals.
    static func fileName(rate: SampleRate, snr: Double, filter: ReceiveFilter = .rtl2832u) -> String {
        let r = (filter == .rtl2832u ? "" : filter.rawValue + "-") + (rate == .rate2_0 ? "2m0" : "2m4")
        return snr.isFinite ? String(format: "sens-%@-snr%04.1f", r, snr) : "sens-\(r)-noise"
    }

    func run(print line: (String) -> Void) throws {
        if let keepDirectory {
            try FileManager.default.createDirectory(atPath: keepDirectory, withIntermediateDirectories: true)
        }
        for rate in rates {
            let name = channel.bandLimited ? (channel.filter == .rtl2832u ? "realistic" : "realistic \(channel.filter.rawValue)") : "ideal"
            line("sample rate \(rate), \(frames) DF17 test frames per point, FRUIT \(Int(fruitRate))/s, \(name) channel, seed \(seed)")
            var header = "   SNR dB |   decoded | genie | of genie | false |   fruit | ns/sample"
            if fixedPulse { header += " | model pulse" }
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
            let base = keepDirectory + "/" + SensitivityBenchmark.fileName(rate: scenario.sampleRate, snr: scenario.snr, filter: scenario.channel.filter)
            try Data(signal.bytes).write(to: URL(fileURLWithPath: base + ".uc8"))
            try Data(signal.sent.map { $0.jsonLine + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: base + ".jsonl"))
        }
        let (score, ns) = SensitivityBenchmark.demodulate(signal, scenario: scenario, tuning: .init())
        var row = Row(snr: scenario.snr, score: score, nanosecondsPerSample: ns, genie: SensitivityBenchmark.genie(signal, scenario: scenario))
        if fixedPulse {
            var tuning = Demodulator.Tuning()
            tuning.learnsPulseShape = false
            row.fixedDecoded = SensitivityBenchmark.demodulate(signal, scenario: scenario, tuning: tuning).0.testsDecoded
        }
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

    /// The test frames the genie receiver decodes on the very samples the demodulator read.
    static func genie(_ signal: SensitivityScenario.Signal, scenario: SensitivityScenario) -> Int {
        let receiver = GenieReceiver(channel: scenario.channel, sampleRate: scenario.sampleRate)
        let received = SampleQuantizer.dequantize(signal.bytes, format: scenario.format)
        return received.withUnsafeBufferPointer { samples in
            signal.tests.filter { receiver.decodes($0.transmission, in: samples, firstSample: 0) }.count
        }
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
        func decoded(_ s: SensitivityScore, _ width: Int) -> String { pad(s.tests > 0 ? "\(s.testsDecoded)/\(s.tests)" : "-", width) }
        let s = row.score
        var cells = [decoded(s, 9), pad(s.tests > 0 ? "\(row.genie)" : "-", 5),
                     pad(row.genie > 0 ? String(format: "%.2f", Double(s.testsDecoded) / Double(row.genie)) : "-", 8),
                     pad("\(s.falseFrames)", 5), pad(s.fruit > 0 ? "\(s.fruitDecoded)/\(s.fruit)" : "-", 7),
                     String(format: "%9.2f", row.nanosecondsPerSample)]
        if let fixed = row.fixedDecoded { cells.append(pad(s.tests > 0 ? "\(fixed)" : "-", 11)) }
        if let f = row.fastScore, let ns = row.fastNanosecondsPerSample {
            cells += [decoded(f, 14), pad("\(f.falseFrames)", 5), String(format: "%9.2f", ns)]
        }
        return snr + " | " + cells.joined(separator: " | ")
    }
}
