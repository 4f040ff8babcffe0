import Foundation
import Testing
@testable import Demod
import ModeS

/// Thermal noise has the power asked for and is deterministic per seed and sample index;
/// quantisation to every sample format round-trips within half a step and clips at full scale.
struct NoiseAndQuantizerTests {
    @Test func noiseHasThePowerAskedForAndZeroMean() {
        var noise = ThermalNoise(powerDBFS: -30, seed: 11)
        var iq = [Float](repeating: 0, count: 2 * 200_000)
        noise.add(to: &iq)
        var power = 0.0, meanI = 0.0, meanQ = 0.0, powerI = 0.0
        for n in 0..<200_000 {
            let i = Double(iq[2 * n]), q = Double(iq[2 * n + 1])
            power += i * i + q * q; powerI += i * i; meanI += i; meanQ += q
        }
        power /= 200_000; powerI /= 200_000; meanI /= 200_000; meanQ /= 200_000
        #expect(abs(power / 1e-3 - 1) < 0.02)           // −30 dBFS = 0.001
        #expect(abs(powerI / 0.5e-3 - 1) < 0.02)         // half in I
        #expect(abs(meanI) < 3e-4 && abs(meanQ) < 3e-4)  // σ/√N ≈ 5e-5
    }

    @Test func noiseIsDeterministicPerSeedAndIndependentOfBlocks() {
        var a = ThermalNoise(powerDBFS: -20, seed: 7), b = ThermalNoise(powerDBFS: -20, seed: 7)
        var c = ThermalNoise(powerDBFS: -20, seed: 8)
        var whole = [Float](repeating: 0, count: 2000)
        a.add(to: &whole)
        var pieces: [Float] = []
        for size in [1, 2, 3, 100, 894] {
            var block = [Float](repeating: 0, count: 2 * size)
            b.add(to: &block)
            pieces += block
        }
        #expect(pieces == whole)
        var other = [Float](repeating: 0, count: 2000)
        c.add(to: &other)
        #expect(other != whole)
    }

    @Test func generatorIsTheSplitMix64Sequence() {
        // First outputs of SplitMix64 seeded with 0 (the reference implementation's sequence).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        let u = rng.unit()
        #expect(u >= 0 && u < 1)
    }

    /// Half a quantisation step of each format, in full-scale units.
    static func halfStep(_ format: SampleFormat) -> Float {
        switch format {
        case .uc8: 0.5 / 127.5
        case .sc16: 0.5 / 32768
        case .sc16q11: 0.5 / 2048
        case .cf32: 0
        }
    }

    @Test(arguments: SampleFormat.allCases)
    func quantisationRoundTripsWithinHalfAStep(format: SampleFormat) {
        var rng = SplitMix64(seed: 3)
        let iq = (0..<10_000).map { _ in Float(rng.unit() * 1.98 - 0.99) }
        let bytes = SampleQuantizer.quantize(iq, to: format)
        #expect(bytes.count == iq.count / 2 * format.bytesPerSample)
        let back = SampleQuantizer.dequantize(bytes, format: format)
        #expect(back.count == iq.count)
        for i in iq.indices {
            #expect(abs(back[i] - iq[i]) <= Self.halfStep(format) * 1.0001, "value \(iq[i])")
        }
    }

    @Test(arguments: SampleFormat.allCases)
    func valuesBeyondFullScaleClip(format: SampleFormat) {
        let iq: [Float] = [1.5, -1.5, 0.25, -0.25, .nan, 0]
        var bytes: [UInt8] = []
        let clipped = iq.withUnsafeBufferPointer { SampleQuantizer.quantize($0, to: format, appendingTo: &bytes) }
        #expect(clipped == 2)
        let back = SampleQuantizer.dequantize(bytes, format: format)
        #expect(back[0] >= 1 - 2 * Self.halfStep(format) - 1e-6 && back[0] <= 1)
        #expect(back[1] == -1)
        #expect(abs(back[2] - 0.25) <= Self.halfStep(format))
        #expect(abs(back[4]) <= Self.halfStep(format))   // NaN written as 0
    }

    @Test func formatsUseTheirDocumentedCodes() {
        // uc8: offset 127.5, scale 127.5.
        #expect(SampleQuantizer.quantize([-1, 1], to: .uc8) == [0, 255])
        // sc16: −1 → −32768 (0x8000), 0.5 → 16384 (0x4000), little endian.
        #expect(SampleQuantizer.quantize([-1, 0.5], to: .sc16) == [0x00, 0x80, 0x00, 0x40])
        // sc16q11: ±2048 full scale: 0.5 → 1024 (0x0400), −0.5 → −1024 (0xFC00).
        #expect(SampleQuantizer.quantize([0.5, -0.5], to: .sc16q11) == [0x00, 0x04, 0x00, 0xFC])
        // cf32: IEEE little endian, 1.0 = 0x3F800000.
        #expect(SampleQuantizer.quantize([1, 0], to: .cf32) == [0x00, 0x00, 0x80, 0x3F, 0, 0, 0, 0])
    }
}

/// stats.json's `local.noise` (and the gain control's noise rule) read the demodulator's
/// estimate of the noise power: it must be there, and right.
struct NoiseEstimateTests {
    @Test("The demodulator measures the noise power it is given, within 1 dB", arguments: [-35.0, -25.0, -15.0])
    func noisePowerIsMeasured(dBFS: Double) {
        var noise = ThermalNoise(powerDBFS: dBFS, seed: 3)
        let samples = 4 * 65_536
        var iq = [Float](repeating: 0, count: 2 * samples)
        noise.add(to: &iq)
        let bytes = iq.withUnsafeBytes { Array($0) }   // cf32, little-endian on every target here
        var d = Demodulator(sampleRate: .rate2_4)
        d.process(SampleBlock(bytes: bytes, format: .cf32, firstSample: 0)) { _ in }
        d.finish { _ in }
        let s = d.statistics
        #expect(s.noiseSamples >= 3, "one estimate per closed window of 65 536 samples")
        let measured = 10 * log10(s.noisePowerSum / Double(s.noiseSamples))
        #expect(abs(measured - dBFS) < 1, "measured \(measured) dBFS for \(dBFS)")
    }

    @Test("The noise power the coherent pass weighs preambles against (the floor's, NoiseFloor.noisePower, in magnitude units squared) is the power given, within 1 dB", arguments: [-35.0, -25.0])
    func theFloorsNoisePowerIsThePowerGiven(dBFS: Double) {
        var noise = ThermalNoise(powerDBFS: dBFS, seed: 5)
        let samples = 2 * 65_536
        var iq = [Float](repeating: 0, count: 2 * samples)
        noise.add(to: &iq)
        let bytes = iq.withUnsafeBytes { Array($0) }
        var d = Demodulator(sampleRate: .rate2_0)
        d.process(SampleBlock(bytes: bytes, format: .cf32, firstSample: 0)) { _ in }
        d.finish { _ in }
        let floor = d.noise.level(at: UInt64(65_536 + 10))
        #expect(floor > 0)
        let scale = Double(MagnitudeConverter.fullScale)
        let measured = 10 * log10(NoiseFloor.noisePower(floor: floor) / (scale * scale))
        #expect(abs(measured - dBFS) < 1, "measured \(measured) dBFS for \(dBFS)")
    }
}
