import ModeS
import RealModule

/// The Mode S transmitter as an RTL-SDR receives it: the pulse-position waveform of a frame
/// (`Transmission.pulses`) through the RTL2832U's decimation low-pass filter, sampled at any
/// sub-sample timing, on a carrier with phase and frequency offset.
///
/// The filter is one of the `ReceiveFilter` families (by default the RTL2832U model: a
/// Blackman-windowed sinc, −6 dB at 0.4 × the sample rate, ±0.96 MHz at 2.4 MS/s, ±0.8 MHz at
/// 2.0 MS/s; the 0.5 µs Mode S pulses have their first spectral null at ±2 MHz, so their edges
/// smear over about a sample). A rectangular pulse [a, b) through it is S(t − a) − S(t − b),
/// S the filter's step response (`PulseShape`), tabulated once at 1/512 of a sample: so a
/// frame may start at any real time, not only on the 12 MHz ticks. Sample n is
/// taken at the middle of its interval, t = n + ½ (in samples), as the box model of `Modulator`
/// centres it, so both models place a frame at the same samples.
///
/// The carrier rotates the filtered envelope: A·e^{j(φ + 2πf·t)}, t from the preamble start.
/// (Filtering the envelope and rotating after is exact for f = 0 and off by under 0.1 % in
/// amplitude at the ±3 kHz of real transponders, against a 0.8 MHz filter.)
///
/// Rendering adds into interleaved I/Q `Float`s, so overlapping transmissions sum, and touches
/// only the samples inside the buffer: consecutive blocks give the same samples as one.
public struct BandLimitedModulator: Sendable {
    public let sampleRate: SampleRate
    /// The receive filter's step response.
    public let shape: PulseShape
    /// Half the filter's length in samples.
    var reach: Double { shape.reach }

    public init(sampleRate: SampleRate, filter: ReceiveFilter = .rtl2832u) {
        self.init(sampleRate: sampleRate, shape: PulseShape(filter: filter, sampleRate: sampleRate))
    }

    public init(sampleRate: SampleRate, shape: PulseShape) {
        self.sampleRate = sampleRate
        self.shape = shape
    }

    /// S(x), x in samples from the filter's centre.
    @inline(__always)
    func stepResponse(at x: Double) -> Float { shape.stepResponse(at: x) }

    /// The preamble start in samples (real): the start tick plus the transmission's `subTick`.
    func start(of transmission: Transmission) -> Double {
        (Double(transmission.startTick) + transmission.subTick) / Double(sampleRate.ticksPerSample)
    }

    /// The samples a transmission touches (absolute sample indices), its filter tails included.
    public func sampleRange(of transmission: Transmission) -> Range<UInt64> {
        let a = start(of: transmission) - reach - 1
        let b = start(of: transmission) + Double(transmission.durationTicks) / Double(sampleRate.ticksPerSample) + reach + 1
        return UInt64(max(a, 0).rounded(.down))..<UInt64(b.rounded(.up))
    }

    /// Samples before its start tick that a transmission's leading filter tail reaches.
    public var leadSamples: UInt64 { UInt64(reach.rounded(.up)) + 1 }

    /// Adds the transmission's samples that fall in `iq` (interleaved I, Q; `iq[0]`, `iq[1]`
    /// are sample `firstSample`).
    public func add(_ transmission: Transmission, into iq: UnsafeMutableBufferPointer<Float>, firstSample: UInt64) {
        let sampleCount = UInt64(iq.count / 2)
        let range = sampleRange(of: transmission)
        let first = max(range.lowerBound, firstSample), end = min(range.upperBound, firstSample &+ sampleCount)
        guard first < end else { return }
        let t0 = start(of: transmission)
        let perSample = Double(sampleRate.ticksPerSample)
        let amplitude = Float(transmission.amplitude)
        // Radians per sample of the frequency offset.
        let omega = 2 * Double.pi * transmission.frequencyOffset / Double(sampleRate.hertz)
        // The envelope of the samples in [first, end), pulse by pulse.
        var envelope = [Float](repeating: 0, count: Int(end - first))
        for pulse in transmission.pulses {
            let a = t0 + Double(pulse.lowerBound) / perSample
            let b = t0 + Double(pulse.upperBound) / perSample
            // Samples whose centre lies within the filter's reach of the pulse.
            let lo = max(Double(first), (a - reach - 0.5).rounded(.up))
            let hi = min(Double(end) - 1, (b + reach - 0.5).rounded(.down))
            guard lo <= hi else { continue }
            for n in Int(lo)...Int(hi) {
                let t = Double(n) + 0.5
                envelope[n - Int(first)] += stepResponse(at: t - a) - stepResponse(at: t - b)
            }
        }
        for (k, value) in envelope.enumerated() where value != 0 {
            let n = Int(first) + k
            let theta = transmission.phase + omega * (Double(n) + 0.5 - t0)
            let index = (n - Int(firstSample)) * 2
            iq[index] += amplitude * value * Float(Double.cos(theta))
            iq[index + 1] += amplitude * value * Float(Double.sin(theta))
        }
    }
}
