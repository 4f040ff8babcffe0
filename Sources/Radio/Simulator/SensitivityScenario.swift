import Demod
import ModeS
import RealModule

/// A sensitivity test signal: `count` random DF17 frames at one signal-to-noise ratio, one per
/// slot of `slotMicroseconds`, each at a random time within its slot (any real time: sub-tick
/// on the band-limited channel), with a random carrier phase and a frequency offset within
/// ±`maxFrequencyOffset`, through a `ReceiverChannel`, with continuous thermal noise, and
/// with FRUIT (other aircraft's replies: random DF11 and DF17 frames at random levels and
/// times, `fruitRate` a second) that may overlap them.
///
/// SNR is the mean signal power over the message (the pulses' power times the fraction of
/// the 120 or 64 µs that pulses fill, before the receiver's filter) over the noise power per
/// sample; the noise is at `noiseDBFS` (−30 dBFS: an RTL-SDR's usual floor, a few uc8
/// steps), so a frame's pulse amplitude is √(noise · 10^(SNR/10) · duration / pulse time).
///
/// A non-finite SNR gives pure noise: the same length, no test frames (and FRUIT if asked).
///
/// The same scenario gives the same samples: everything is drawn from generators seeded by
/// `seed` (frames, timing and FRUIT from one, noise from another).
public struct SensitivityScenario: Sendable, Hashable {
    public var seed: UInt64
    public var count: Int
    /// dB, as above.
    public var snr: Double
    public var sampleRate: SampleRate
    public var format: SampleFormat
    public var channel: ReceiverChannel
    /// Noise power per sample, dBFS.
    public var noiseDBFS: Double
    /// Hz.
    public var maxFrequencyOffset: Double
    /// FRUIT replies per second; their SNR is uniform in `fruitSNR`.
    public var fruitRate: Double
    public var fruitSNR: ClosedRange<Double>
    /// Length of each test frame's slot, µs (the frame lies within it).
    public var slotMicroseconds: Int

    public init(seed: UInt64 = 1, count: Int = 1000, snr: Double, sampleRate: SampleRate = .rate2_4, format: SampleFormat = .uc8,
                channel: ReceiverChannel = .realistic, noiseDBFS: Double = -30, maxFrequencyOffset: Double = 3000,
                fruitRate: Double = 200, fruitSNR: ClosedRange<Double> = 0...25, slotMicroseconds: Int = 400) {
        self.seed = seed
        self.count = max(count, 0)
        self.snr = snr
        self.sampleRate = sampleRate
        self.format = format
        self.channel = channel
        self.noiseDBFS = noiseDBFS
        self.maxFrequencyOffset = abs(maxFrequencyOffset)
        self.fruitRate = max(fruitRate, 0)
        self.fruitSNR = fruitSNR
        self.slotMicroseconds = max(slotMicroseconds, 200)
    }

    /// One frame of the signal.
    public struct Sent: Sendable, Hashable {
        public var transmission: Transmission
        /// True for FRUIT, false for a test frame.
        public var fruit: Bool
        /// Its SNR, dB (as defined above).
        public var snr: Double
        /// Preamble start, samples (fractional).
        public var sample: Double

        /// The JSON object, one line: hex, kind (`test` or `fruit`), sample, snr, level (dBFS
        /// pulse amplitude), phase (rad), freq (Hz).
        public var jsonLine: String {
            let t = transmission
            return "{\"hex\":\"\(t.frame.hex)\",\"kind\":\"\(fruit ? "fruit" : "test")\",\"sample\":\(rounded(sample, 4))"
                + ",\"snr\":\(rounded(snr, 2)),\"level\":\(rounded(t.levelDBFS, 2)),\"phase\":\(rounded(t.phase, 4))"
                + ",\"freq\":\(rounded(t.frequencyOffset, 1))}"
        }

        private func rounded(_ value: Double, _ decimals: Int) -> Double {
            let scale = Double.pow(10, Double(decimals))
            return (value * scale).rounded() / scale
        }
    }

    /// The rendered signal: the sample bytes and every frame in it, in start order.
    public struct Signal: Sendable {
        public var bytes: [UInt8]
        public var sent: [Sent]
        public var sampleCount: Int
        /// I or Q values clipped at full scale.
        public var clippedValues: Int
        public var tests: [Sent] { sent.filter { !$0.fruit } }
    }

    /// Samples in the signal: the slots, plus one slot of noise at the start.
    public var sampleCount: Int { (count + 1) * slotMicroseconds * sampleRate.hertz / 1_000_000 }

    /// The pulse amplitude that puts `frame` at `snr` dB.
    public func amplitude(of frame: Frame, snr: Double) -> Double {
        let probe = Transmission(frame: frame, startTick: 0, amplitude: 1)
        let on = probe.pulses.reduce(0) { $0 + Double($1.count) }
        let duty = on / Double(probe.durationTicks)
        return (Double.pow(10, (noiseDBFS + snr) / 10) / duty).squareRoot()
    }

    /// The frames, in start order.
    public func frames() -> [Sent] {
        var rng = SplitMix64(seed: seed ^ 0x5E45_1717_0000_0001)
        let ticksPerSlot = UInt64(slotMicroseconds) * 12
        let perSample = Double(sampleRate.ticksPerSample)
        var sent: [Sent] = []
        func make(_ frame: Frame, tick: UInt64, snr: Double, fruit: Bool) -> Sent {
            var t = Transmission(frame: frame, startTick: tick, amplitude: amplitude(of: frame, snr: snr),
                                 phase: rng.uniform(0...(2 * .pi)), frequencyOffset: rng.uniform(-maxFrequencyOffset...maxFrequencyOffset))
            if channel.bandLimited { t.subTick = rng.unit() }
            return Sent(transmission: t, fruit: fruit, snr: snr, sample: (Double(tick) + t.subTick) / perSample)
        }
        // SNR −∞ (or any non-finite value): pure noise, the slots stay empty.
        for i in 0..<(snr.isFinite ? count : 0) {
            let frame = SensitivityScenario.randomExtendedSquitter(&rng)
            // Anywhere in the slot that leaves the 120 µs frame and 40 µs of quiet inside it.
            let latest = ticksPerSlot - 160 * 12
            let tick = UInt64(i + 1) * ticksPerSlot + 20 * 12 + rng.next() % latest
            sent.append(make(frame, tick: tick, snr: snr, fruit: false))
        }
        // FRUIT: a Poisson process over the whole signal.
        if fruitRate > 0 {
            let endTick = UInt64(count + 1) * ticksPerSlot - 130 * 12
            var time = 0.0
            while true {
                time += -Double.log(1 - rng.unit()) / fruitRate
                let tick = UInt64(time * 12_000_000)
                guard tick < endTick else { break }
                let frame = rng.unit() < 0.5 ? Frame.allCall(address: UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF)
                    : SensitivityScenario.randomExtendedSquitter(&rng)
                sent.append(make(frame, tick: tick, snr: rng.uniform(fruitSNR), fruit: true))
            }
        }
        return sent.sorted { ($0.sample, $0.fruit ? 1 : 0) < ($1.sample, $1.fruit ? 1 : 0) }
    }

    /// A DF17 frame with a random address and a random ME field whose type code is one real
    /// aircraft send (identification, airborne position, velocity, status), CA 5.
    static func randomExtendedSquitter(_ rng: inout SplitMix64) -> Frame {
        let typeCodes: [UInt64] = [1, 2, 3, 4, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 28, 29, 31]
        let tc = typeCodes[Int(rng.next() % UInt64(typeCodes.count))]
        let me = tc << 51 | (rng.next() & (1 << 51 - 1))
        return Frame.extendedSquitter(address: UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF, me: MessageField(me))
    }

    /// Renders the signal: every frame through the channel, noise, the front end, quantised.
    public func render() -> Signal {
        let sent = frames()
        let samples = sampleCount
        let renderer = ChannelRenderer(channel: channel, sampleRate: sampleRate)
        var iq = [Float](repeating: 0, count: 2 * samples)
        var noise = ThermalNoise(powerDBFS: noiseDBFS, seed: seed ^ 0x0015_E000_0000_0002)
        iq.withUnsafeMutableBufferPointer { buffer in
            for s in sent { renderer.add(s.transmission, into: buffer, firstSample: 0) }
            noise.add(to: buffer)
            channel.applyFrontEnd(to: buffer)
        }
        var bytes: [UInt8] = []
        let clipped = iq.withUnsafeBufferPointer { SampleQuantizer.quantize($0, to: format, appendingTo: &bytes) }
        return Signal(bytes: bytes, sent: sent, sampleCount: samples, clippedValues: clipped)
    }
}
