import Demod
import Foundation

/// Paths and helpers shared by the demodulator tests.
enum DemodFixtures {
    /// `../shared/iq/modes1.bin`: real uc8 at 2.0 MS/s (see ../shared/README.md).
    static let modes1 = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/iq/modes1.bin")

    static func modes1Bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: modes1)) }

    /// Runs a demodulator over `bytes` cut into blocks of `blockSamples` samples.
    static func demodulate(_ bytes: [UInt8], format: SampleFormat = .uc8, rate: SampleRate = .rate2_0,
                           blockSamples: Int, tuning: Demodulator.Tuning = .init()) -> (frames: [DemodulatedFrame], demodulator: Demodulator) {
        var d = Demodulator(sampleRate: rate)
        d.tuning = tuning
        var frames: [DemodulatedFrame] = []
        let bps = format.bytesPerSample
        let total = bytes.count / bps
        var i = 0
        while i < total {
            let n = min(blockSamples, total - i)
            d.process(SampleBlock(bytes: Array(bytes[(i * bps)..<((i + n) * bps)]), format: format, firstSample: UInt64(i))) { frames.append($0) }
            i += n
        }
        d.finish { frames.append($0) }
        return (frames, d)
    }
}
