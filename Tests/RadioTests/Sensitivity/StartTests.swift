@testable import Demod
import ModeS
import Radio
import Testing

/// The start of the input read twice (`Demodulator+Start.swift`) and the learner taught by
/// weak replies (`ReplyFit.noiseShare`): where every reply is weak and the dongle's filter is
/// not the model's, the first tenths of a second are read with the learned pulse.
struct StartTests {
    /// Weak replies only (5 dB, 600 of them, 0.24 s), on the wide-band channel at `rate`.
    static func weakWideband(_ rate: SampleRate) -> SensitivityScenario.Signal {
        SensitivityScenario(seed: 21, count: 600, snr: 5, sampleRate: rate, channel: .realistic(.wideband), fruitRate: 200).render()
    }

    /// The test frames of `signal` decoded with `tuning`, in blocks of `block` samples: all,
    /// and those sent within the first `Demodulator.startSamples`.
    static func decoded(_ signal: SensitivityScenario.Signal, rate: SampleRate, tuning: Demodulator.Tuning = .init(),
                        block: Int = .max) -> (frames: [DemodulatedFrame], tests: Int, early: Int, falseFrames: Int) {
        let frames = OverlapTests.demodulate(signal.bytes, rate: rate, tuning: tuning, block: block)
        let score = SensitivityScore(sent: signal.sent, decoded: frames.map { ($0.parity.frame, $0.sampleIndex) })
        let found = Set(frames.map { $0.parity.frame })
        let early = signal.tests.filter { $0.sample < Double(Demodulator.startSamples) && found.contains($0.transmission.frame) }.count
        return (frames, score.testsDecoded, early, score.falseFrames)
    }

    @Test("Weak replies on another filter: the start read again with the pulse learned from it reads more, most in the start", arguments: [SampleRate.rate2_4, .rate2_0])
    func theStartIsReadAgainWithTheLearnedPulse(rate: SampleRate) {
        let signal = Self.weakWideband(rate)
        var once = Demodulator.Tuning()
        once.readsStartTwice = false
        let twice = Self.decoded(signal, rate: rate), single = Self.decoded(signal, rate: rate, tuning: once)
        // 493 against 405 at 2.4 MS/s (220 against 132 in the start), 343 against 311 at 2.0
        // MS/s (186 against 154).
        #expect(twice.tests >= single.tests + 20, "\(rate): \(twice.tests) read twice, \(single.tests) once")
        #expect(twice.early >= single.early + 20, "\(rate): in the start \(twice.early) against \(single.early)")
        #expect(twice.falseFrames == 0 && single.falseFrames == 0)
    }

    @Test("The start read twice gives the same frames whatever the blocks, one ending at the start's last sample or not")
    func theStartDoesNotDependOnBlocks() {
        let signal = Self.weakWideband(.rate2_4)
        let whole = Self.decoded(signal, rate: .rate2_4).frames
        #expect(whole.count > 300)
        for block in [4099, 70_001, Demodulator.startSamples, Demodulator.startSamples - 1, Demodulator.startSamples / 2] {
            #expect(Self.decoded(signal, rate: .rate2_4, block: block).frames == whole, "blocks of \(block)")
        }
    }

    @Test("An input shorter than the start is read at finish, as if read once with the pulse learned from it")
    func aShortInputIsReadAtFinish() {
        let signal = SensitivityScenario(seed: 22, count: 150, snr: 12, sampleRate: .rate2_4, channel: .realistic(.rtl2832u), fruitRate: 0).render()
        #expect(signal.bytes.count / 2 < Demodulator.startSamples)
        var demodulator = Demodulator(sampleRate: .rate2_4)
        var frames: [DemodulatedFrame] = []
        demodulator.process(SampleBlock(bytes: signal.bytes, format: .uc8, firstSample: 0)) { frames.append($0) }
        #expect(frames.isEmpty, "gathered, not yet read")
        demodulator.finish { frames.append($0) }
        let score = SensitivityScore(sent: signal.sent, decoded: frames.map { ($0.parity.frame, $0.sampleIndex) })
        #expect(score.testsDecoded >= 145 && score.falseFrames == 0)
        var once = Demodulator.Tuning()
        once.readsStartTwice = false
        #expect(OverlapTests.demodulate(signal.bytes, rate: .rate2_4, tuning: once).count == frames.count)
    }

    @Test("A weak reply teaches the learner once the noise's share of its residual is taken off", arguments: [SampleRate.rate2_4, .rate2_0])
    func aWeakReplyTeachesTheLearner(rate: SampleRate) {
        let scenario = SensitivityScenario(seed: 23, count: 20, snr: 5, sampleRate: rate, channel: .realistic(.wideband), fruitRate: 0)
        let renderer = ChannelRenderer(channel: ReceiverChannel(bandLimited: true, filter: .wideband), sampleRate: rate)
        let slicer = CoherentSlicer(sampleRate: rate)
        let noisePower = Double.pow(10, scenario.noiseDBFS / 10)
        var withShare = PulseLearner(prior: PulseResponse(filter: .rtl2832u, sampleRate: rate))
        var without = withShare
        var used = (0, 0)
        for (n, sent) in scenario.frames().enumerated() {
            let first = UInt64(sent.sample.rounded(.down)) - 1
            let count = 140 * rate.hertz / 1_000_000
            var iq = [Float](repeating: 0, count: 2 * count)
            var noise = ThermalNoise(power: noisePower, seed: 100 + UInt64(n))
            iq.withUnsafeMutableBufferPointer { renderer.add(sent.transmission, into: $0, firstSample: first); noise.add(to: $0) }
            let start40 = Int(((sent.sample - Double(first)) * 8).rounded()) * 5
            iq.withUnsafeBufferPointer { b in
                if withShare.observe(b.baseAddress!, count: count, start40: start40, frame: sent.transmission.frame, slicer: slicer, noise: noisePower) { used.0 += 1 }
                if without.observe(b.baseAddress!, count: count, start40: start40, frame: sent.transmission.frame, slicer: slicer) { used.1 += 1 }
            }
        }
        // 16 and 12 of 20 (2.4, 2.0 MS/s) against none: at 5 dB the noise alone leaves about
        // a third of a reply's energy in the residual, the test's limit.
        #expect(used.0 >= 10, "\(rate): \(used.0) of 20 used with the noise's share taken off")
        #expect(used.1 <= 2, "\(rate): \(used.1) of 20 used on the residual alone")
    }
}
