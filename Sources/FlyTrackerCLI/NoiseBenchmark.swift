import Demod
import Dispatch
import Foundation
import ModeS
import Radio
import Synchronization

/// `bench --noise SECONDS`: the demodulator's false accepts on realistic-channel noise.
///
/// Streams `seconds` of pure thermal noise through the realistic channel (RTL2832U front end:
/// IQ imbalance, DC offset; noise at −30 dBFS, uc8: what `simulate --aircraft 0 --channel
/// realistic` writes) into the default demodulator, block by block, one thread per rate. On
/// noise every frame is false: it counts them by downlink format, the addresses a table would
/// have taken as new aircraft (DF11/17/18), and the candidates that reached the soft repair of
/// unknown squitters on each path, with the false accepts that `ErasureRepair`'s bound
/// expects from them.
struct NoiseBenchmark {
    var seconds: Double
    var rates: [SampleRate]
    var seed: UInt64

    struct Row: Sendable {
        var rate: SampleRate
        var samples: UInt64 = 0
        var framesByDF: [Int: Int] = [:]
        /// Distinct addresses of false DF11/17/18 frames: aircraft the table would show.
        var newAddresses: Set<UInt32> = []
        var preambles: UInt64 = 0
        var coherentSearches: UInt64 = 0
        var squitterRepairs: (magnitude: UInt64, coherent: UInt64) = (0, 0)
        /// The coherent path's repairs of firm decisions (`Demodulator.strongSquitterRepairs`).
        var strongSquitterRepairs: UInt64 = 0
        /// And of steady ones (`Demodulator.steadySquitterRepairs`).
        var steadySquitterRepairs: UInt64 = 0
        /// The coherent pass's format guesses (`Demodulator.formatGuesses`).
        var formatGuesses: UInt64 = 0
        /// False accepts the repairs' bound expects (attempts × bound per path, and the coherent
        /// pass's format guesses, `Demodulator.formatGuesses`, at 2⁻²⁴ each).
        var expected = 0.0
        var nanosecondsPerSample = 0.0
        var falseFrames: Int { framesByDF.values.reduce(0, +) }
    }

    func run(_ line: (String) -> Void) {
        line("\(format(seconds, 0)) s of realistic-channel noise (−30 dBFS, uc8) per rate, seed \(seed)")
        let rows = Mutex<[Row]>([])
        DispatchQueue.concurrentPerform(iterations: rates.count) { i in
            let row = measure(rate: rates[i])
            rows.withLock { $0.append(row) }
        }
        line(" rate | seconds | false frames | new aircraft | preambles/s | coherent/s | squitter repairs (magnitude, coherent, coherent steady, coherent firm) | bound expects | ns/sample")
        for row in rows.withLock({ $0 }).sorted(by: { $0.rate.hertz > $1.rate.hertz }) {
            let span = Double(row.samples) / Double(row.rate.hertz)
            line("\(row.rate) | \(format(span, 0)) | \(row.falseFrames) | \(row.newAddresses.count) | \(format(Double(row.preambles) / span, 0)) | "
                 + "\(format(Double(row.coherentSearches) / span, 1)) | \(row.squitterRepairs.magnitude), \(row.squitterRepairs.coherent), \(row.steadySquitterRepairs), \(row.strongSquitterRepairs) | "
                 + "\(format(row.expected, 3)) | \(format(row.nanosecondsPerSample, 2))")
            if row.falseFrames > 0 {
                line("       false frames: " + row.framesByDF.keys.sorted().map { "DF\($0) ×\(row.framesByDF[$0]!)" }.joined(separator: ", "))
            }
        }
    }

    /// One rate: the noise generated block by block (the generator's time is not counted).
    func measure(rate: SampleRate) -> Row {
        let configuration = SkyConfiguration(seed: seed, aircraftCount: 0, sampleRate: rate, format: .uc8, snr: 0, channel: .realistic)
        let source = SimulatorSource(configuration: configuration, duration: seconds, blockSize: 1 << 18, collectsTruth: false)
        var demodulator = Demodulator(sampleRate: rate)
        var row = Row(rate: rate)
        var cpu = 0.0
        func take(_ frame: DemodulatedFrame) {
            let parity = frame.parity
            row.framesByDF[parity.frame.downlinkFormat, default: 0] += 1
            if [11, 17, 18].contains(parity.frame.downlinkFormat) { row.newAddresses.insert(parity.address) }
        }
        while let block = try? source.nextBlock() {
            let start = Self.threadCPUSeconds()
            demodulator.process(block, emit: take)
            cpu += Self.threadCPUSeconds() - start
            row.samples += UInt64(block.sampleCount)
        }
        demodulator.finish(emit: take)
        let tuning = demodulator.tuning
        row.preambles = demodulator.statistics.preambles
        row.coherentSearches = demodulator.coherentSearches
        row.squitterRepairs = demodulator.squitterRepairs
        row.strongSquitterRepairs = demodulator.strongSquitterRepairs
        row.steadySquitterRepairs = demodulator.steadySquitterRepairs
        row.formatGuesses = demodulator.formatGuesses
        row.expected = Double(row.squitterRepairs.magnitude) * ErasureRepair.falseAcceptBound(erasures: tuning.unknownRepairBits, maximumFlips: tuning.unknownRepairBits)
            + Double(row.squitterRepairs.coherent) * ErasureRepair.falseAcceptBound(erasures: tuning.coherentErasureBits, maximumFlips: tuning.coherentErasureFlips)
            + Double(row.steadySquitterRepairs) * ErasureRepair.falseAcceptBound(erasures: tuning.steadyErasureBits, maximumFlips: tuning.steadyErasureFlips)
            + Double(row.strongSquitterRepairs) * ErasureRepair.falseAcceptBound(erasures: tuning.strongErasureBits, maximumFlips: tuning.strongErasureFlips)
            + Double(row.formatGuesses) / Double(1 << 24)
        row.nanosecondsPerSample = cpu * 1e9 / Double(max(row.samples, 1))
        return row
    }

    /// CPU time of the calling thread, s (the rates run side by side).
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    private func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
