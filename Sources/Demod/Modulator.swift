import ModeS
import RealModule

/// The Mode S transmitter side, for the simulator and tests: renders the pulse-position
/// waveform of frames (`Transmission.pulses`) as complex baseband samples.
///
/// Each sample is the pulse envelope times the carrier, integrated over the sample's interval
/// (a box filter, the simplest model of the receiver's anti-alias filter): a sample half
/// covered by a pulse gets half its amplitude. Pulses are rectangular and all edges fall on
/// 12 MHz ticks, so at 2.4 MS/s (5 ticks a sample, 6 ticks a half bit) the fractional timing
/// is exact. With a frequency offset f the integral of A·e^{j(φ + 2πf·t)} over an overlap of
/// length L centred at t_m is A·L·e^{j(φ + 2πf·t_m)}·sinc(πf·L).
///
/// Rendering adds into a buffer of interleaved I/Q `Float`s (full scale ±1), so overlapping
/// transmissions sum, and a transmission is rendered only where it overlaps the buffer: the
/// same transmission rendered into consecutive blocks gives the same samples as one big
/// buffer.
public struct Modulator: Sendable {
    public let sampleRate: SampleRate

    public init(sampleRate: SampleRate) {
        self.sampleRate = sampleRate
    }

    /// The samples a transmission touches (absolute sample indices).
    public func sampleRange(of transmission: Transmission) -> Range<UInt64> {
        let perSample = sampleRate.ticksPerSample
        let first = transmission.startTick / perSample
        let endTick = transmission.startTick &+ transmission.durationTicks
        return first..<((endTick + perSample - 1) / perSample)
    }

    /// Adds the transmission's samples that fall in `iq` (interleaved I, Q; `iq[0]` and
    /// `iq[1]` are sample `firstSample`).
    public func add(_ transmission: Transmission, into iq: inout [Float], firstSample: UInt64) {
        iq.withUnsafeMutableBufferPointer { add(transmission, into: $0, firstSample: firstSample) }
    }

    /// Adds the transmission's samples that fall in `iq` (interleaved I, Q).
    public func add(_ transmission: Transmission, into iq: UnsafeMutableBufferPointer<Float>, firstSample: UInt64) {
        let sampleCount = UInt64(iq.count / 2)
        let range = sampleRange(of: transmission)
        guard range.upperBound > firstSample, range.lowerBound < firstSample &+ sampleCount else { return }
        let perSample = sampleRate.ticksPerSample
        let start = transmission.startTick
        // Radians per tick of the frequency offset.
        let omega = 2 * Double.pi * transmission.frequencyOffset / 12_000_000
        let scale = transmission.amplitude / Double(perSample)
        let bufferStartTick = firstSample &* perSample
        let bufferEndTick = (firstSample &+ sampleCount) &* perSample
        for pulse in transmission.pulses {
            // Absolute ticks of the pulse, clipped to the buffer.
            let a = max(start &+ pulse.lowerBound, bufferStartTick)
            let b = min(start &+ pulse.upperBound, bufferEndTick)
            guard a < b else { continue }
            var n = a / perSample
            while n * perSample < b {
                let lo = max(a, n * perSample)
                let hi = min(b, (n + 1) * perSample)
                let length = Double(hi - lo)
                let middle = (Double(lo - start) + Double(hi - start)) / 2
                let theta = transmission.phase + omega * middle
                let x = omega * length / 2
                let sinc = abs(x) < 1e-9 ? 1 : Double.sin(x) / x
                let magnitude = scale * length * sinc
                let index = Int(n - firstSample) * 2
                iq[index] += Float(magnitude * Double.cos(theta))
                iq[index + 1] += Float(magnitude * Double.sin(theta))
                n += 1
            }
        }
    }

    /// Renders transmissions into a fresh buffer of `sampleCount` samples starting at
    /// `firstSample`.
    public func render(_ transmissions: [Transmission], sampleCount: Int, firstSample: UInt64 = 0) -> [Float] {
        var iq = [Float](repeating: 0, count: 2 * max(sampleCount, 0))
        for t in transmissions { add(t, into: &iq, firstSample: firstSample) }
        return iq
    }
}

/// Receiver thermal noise: complex white Gaussian noise of a given mean power per sample
/// (|n|², full scale = 1; each of I and Q gets half). One normal pair per sample, drawn in
/// sample order, so the noise depends only on the seed and the sample index, not on how the
/// stream is cut into blocks.
public struct ThermalNoise: Sendable {
    /// Mean power per complex sample, linear (1 = full scale).
    public var power: Double
    public var generator: SplitMix64

    public init(power: Double, seed: UInt64) {
        self.power = max(power, 0)
        generator = SplitMix64(seed: seed)
    }

    /// Noise whose power is given in dBFS (10·log10 power).
    public init(powerDBFS: Double, seed: UInt64) {
        self.init(power: Double.pow(10, powerDBFS / 10), seed: seed)
    }

    /// The power in dBFS.
    public var powerDBFS: Double { 10 * Double.log10(max(power, 1e-30)) }

    /// Adds noise to every sample of `iq` (interleaved I, Q).
    public mutating func add(to iq: inout [Float]) {
        iq.withUnsafeMutableBufferPointer { add(to: $0) }
    }

    /// Adds noise to every sample of `iq` (interleaved I, Q).
    public mutating func add(to iq: UnsafeMutableBufferPointer<Float>) {
        let sigma = (power / 2).squareRoot()
        var i = 0
        while i + 1 < iq.count {
            let (x, y) = generator.normalPair()
            iq[i] += Float(sigma * x)
            iq[i + 1] += Float(sigma * y)
            i += 2
        }
    }
}
