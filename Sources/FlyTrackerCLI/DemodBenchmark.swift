import Demod
import Foundation
import ModeS
import Radio

/// The demodulator part of `flytracker bench`: throughput per stage on generated samples
/// (the built-in simulator's sky at 2.4 MS/s, uc8), single core.
struct DemodBenchmark {
    struct Stage {
        var name: String
        var seconds: Double
        var samples: Int
        var megasamplesPerSecond: Double { Double(samples) / seconds / 1e6 }
        /// How many times faster than real time at 2.4 MS/s.
        var realTimeFactor: Double { Double(samples) / seconds / 2_400_000 }
    }

    var seconds: Double = 4
    var aircraft = 60
    var passes = 3

    /// Generates the samples, then times each stage (best of `passes`).
    func run() -> (stages: [Stage], frames: Int, fastFrames: Int) {
        let configuration = SkyConfiguration(seed: 1090, aircraftCount: aircraft, sampleRate: .rate2_4, format: .uc8, snr: 15)
        let source = SimulatorSource(configuration: configuration, duration: seconds, blockSize: 1 << 18, collectsTruth: false)
        var blocks: [SampleBlock] = []
        while let block = try? source.nextBlock() { blocks.append(block) }
        let samples = blocks.reduce(0) { $0 + $1.sampleCount }

        var stages: [Stage] = []
        var scratch = [UInt16](repeating: 0, count: 1 << 18)
        stages.append(Stage(name: "conversion (uc8 → magnitude)", seconds: best {
            for block in blocks {
                scratch.withUnsafeMutableBufferPointer { out in
                    block.bytes.withUnsafeBytes { MagnitudeConverter.convert($0, format: .uc8, count: block.sampleCount, into: out.baseAddress!) }
                }
            }
        }, samples: samples))
        // The SIMD arithmetic twin, to show why uc8 uses the table.
        stages.append(Stage(name: "conversion (uc8, SIMD arithmetic instead of the table)", seconds: best {
            for block in blocks {
                scratch.withUnsafeMutableBufferPointer { out in
                    block.bytes.withUnsafeBytes { MagnitudeConverter.convertUC8SIMD($0, count: block.sampleCount, into: out.baseAddress!) }
                }
            }
        }, samples: samples))
        var searchOnly = Demodulator.Tuning()
        searchOnly.evaluates = false
        stages.append(Stage(name: "conversion + preamble search", seconds: best { _ = demodulate(blocks, tuning: searchOnly) }, samples: samples))
        var frames = 0, fastFrames = 0
        stages.append(Stage(name: "full demodulation (default)", seconds: best { frames = demodulate(blocks, tuning: .init()) }, samples: samples))
        stages.append(Stage(name: "full demodulation (--fast)", seconds: best { fastFrames = demodulate(blocks, tuning: .fast) }, samples: samples))
        return (stages, frames, fastFrames)
    }

    private func demodulate(_ blocks: [SampleBlock], tuning: Demodulator.Tuning) -> Int {
        var d = Demodulator(sampleRate: .rate2_4)
        d.tuning = tuning
        var count = 0
        for block in blocks { d.process(block) { _ in count += 1 } }
        d.finish { _ in count += 1 }
        return count
    }

    private func best(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var fastest = Double.infinity
        for _ in 0..<max(passes, 1) {
            let d = clock.measure(body)
            fastest = min(fastest, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        return fastest
    }
}
