import Demod
import ModeS
import Radio

/// The receiver's main loop: blocks from a source through the demodulator to a frame sink.
struct ReceiverLoop {
    var demodulator: Demodulator

    init(sampleRate: SampleRate) {
        demodulator = Demodulator(sampleRate: sampleRate)
    }

    /// Reads `source` to its end. Returns `.failure` when the source failed part-way (what
    /// was read before still went through).
    mutating func run(source: SampleSource, sink: (DemodulatedFrame) -> Void) -> Result<Void, SampleSourceError> {
        while true {
            let block: SampleBlock?
            do { block = try source.nextBlock() } catch {
                demodulator.finish(emit: sink)
                return .failure(error)
            }
            guard let block else { break }
            demodulator.process(block, emit: sink)
        }
        demodulator.finish(emit: sink)
        demodulator.statistics.samplesDropped = source.samplesDropped
        return .success(())
    }
}
