import Testing
@testable import Demod
import ModeS

/// The realistic channel's pieces: the RTL2832U band limit, sub-tick timing, the front end.
struct BandLimitedModulatorTests {
    static let frame = try! Frame(hex: "8D4840D6202CC371C32CE0576098")

    @Test(arguments: [SampleRate.rate2_0, .rate2_4])
    func theStepResponseRisesFromZeroToOne(rate: SampleRate) {
        let m = BandLimitedModulator(sampleRate: rate)
        #expect(m.stepResponse(at: -100) == 0 && m.stepResponse(at: 100) == 1)
        #expect(abs(m.stepResponse(at: 0) - 0.5) < 1e-3, "symmetric filter: half way at the edge")
        #expect(m.shape.step.first! == 0 && abs(m.shape.step.last! - 1) < 1e-6)
    }

    /// Each receive-filter family as specified: the sincs symmetric (half way at the edge), the
    /// wider ones steeper; the Butterworth causal (nothing before the edge), delayed, and
    /// overshooting by its textbook 10.8 % (4th order).
    @Test(arguments: [SampleRate.rate2_0, .rate2_4])
    func theFilterFamiliesHaveTheirShapes(rate: SampleRate) {
        func shape(_ f: ReceiveFilter) -> PulseShape { PulseShape(filter: f, sampleRate: rate) }
        for f in ReceiveFilter.allCases {
            let s = shape(f)
            #expect(s.stepResponse(at: -100) == 0 && s.stepResponse(at: 100) == 1, "\(f)")
            #expect(abs(s.stepResponse(at: s.reach - 0.01) - 1) < 0.01, "\(f) settles within its reach")
        }
        for f in [ReceiveFilter.rtl2832u, .nyquistSinc, .wideband] { #expect(abs(shape(f).stepResponse(at: 0) - 0.5) < 1e-3, "\(f)") }
        // 10 %–90 % rise time, samples: the wider the filter, the shorter.
        func rise(_ f: ReceiveFilter) -> Double {
            let s = shape(f)
            let xs = stride(from: -s.reach, through: s.reach, by: 0.01)
            return xs.first { s.stepResponse(at: $0) >= 0.9 }! - xs.first { s.stepResponse(at: $0) >= 0.1 }!
        }
        #expect(rise(.wideband) < rise(.nyquistSinc) && rise(.nyquistSinc) < rise(.rtl2832u))
        let butterworth = shape(.butterworth4)
        #expect(butterworth.stepResponse(at: -0.01) == 0)
        #expect(butterworth.stepResponse(at: 1) < 0.5, "delayed: under half way a sample after the edge")
        let peak = stride(from: 0, through: butterworth.reach, by: 0.01).map { butterworth.stepResponse(at: $0) }.max()!
        #expect(abs(peak - 1.108) < 0.005, "overshoot \(peak)")
    }

    @Test func channelNamesChooseTheFilter() {
        #expect(ReceiverChannel(named: "realistic") == .realistic)
        #expect(ReceiverChannel(named: "realistic-butterworth4")?.filter == .butterworth4)
        #expect(ReceiverChannel(named: "Realistic-Nyquist-Sinc") == .realistic(.nyquistSinc))
        #expect(ReceiverChannel(named: "realistic-") == nil && ReceiverChannel(named: "realistic-box") == nil)
    }

    /// A long pulse reaches its full amplitude; a lone 0.5 µs pulse at 2.0 MS/s does not, and
    /// spills into the samples beside it (the box model puts nothing outside the pulse).
    @Test func shortPulsesAreSmearedLongOnesAreNot() {
        let m = BandLimitedModulator(sampleRate: .rate2_0)
        func magnitudes(_ t: Transmission) -> [Float] {
            var iq = [Float](repeating: 0, count: 400)
            iq.withUnsafeMutableBufferPointer { m.add(t, into: $0, firstSample: 0) }
            return stride(from: 0, to: 400, by: 2).map { (iq[$0] * iq[$0] + iq[$0 + 1] * iq[$0 + 1]).squareRoot() }
        }
        // The preamble alone: an all-zero DF0 frame still starts with the four pulses.
        let preamble = magnitudes(Transmission(frame: Frame(raw: 0, bitCount: 56)!, startTick: 120, amplitude: 1))
        // Pulse 0 covers sample 20 exactly (ticks 120..<126): below full amplitude, and the
        // quiet sample 21 between pulses 0 and 2 is far from silent.
        #expect(preamble[20] < 0.95 && preamble[20] > 0.5)
        #expect(preamble[21] > 0.1)
        // Far from any pulse: nothing.
        #expect(preamble[10] < 0.01)
        // All-ones data: one 0.5 µs pulse per 1 µs bit, a 1 MHz train beyond the 0.8 MHz
        // band limit, flattened towards its mean of one half (the box model alternates 1, 0).
        let ones = magnitudes(Transmission(frame: Frame(raw: UInt128.max, bitCount: 112)!, startTick: 120, amplitude: 1))
        let run = ones[60..<120]
        let mean = run.reduce(0, +) / Float(run.count)
        #expect(abs(mean - 0.5) < 0.08)
        #expect(run.max()! - run.min()! < 0.5)
    }

    @Test(arguments: [SampleRate.rate2_0, .rate2_4])
    func renderingInBlocksGivesTheSameSamplesAsOneBuffer(rate: SampleRate) {
        let m = BandLimitedModulator(sampleRate: rate)
        let t = Transmission(frame: Self.frame, startTick: 1000, amplitude: 0.5, phase: 1.1, frequencyOffset: 2500, subTick: 0.37)
        let range = m.sampleRange(of: t)
        let total = Int(range.upperBound) + 10
        var whole = [Float](repeating: 0, count: 2 * total)
        whole.withUnsafeMutableBufferPointer { m.add(t, into: $0, firstSample: 0) }
        var pieces: [Float] = []
        var first = 0
        while first < total {
            let n = min(37, total - first)
            var block = [Float](repeating: 0, count: 2 * n)
            block.withUnsafeMutableBufferPointer { m.add(t, into: $0, firstSample: UInt64(first)) }
            pieces += block
            first += n
        }
        #expect(pieces == whole)
        #expect(whole.contains { $0 != 0 })
    }

    @Test func aSubTickOffsetMovesTheSignalBetweenSamples() {
        let m = BandLimitedModulator(sampleRate: .rate2_4)
        func render(_ subTick: Double) -> [Float] {
            var iq = [Float](repeating: 0, count: 800)
            iq.withUnsafeMutableBufferPointer {
                m.add(Transmission(frame: Self.frame, startTick: 100, amplitude: 1, subTick: subTick), into: $0, firstSample: 0)
            }
            return iq
        }
        let a = render(0), b = render(0.5), c = render(0.5)
        #expect(a != b)
        #expect(b == c)
        // Half a tick is a tenth of a sample at 2.4 MS/s: the samples change, a little.
        let difference = zip(a, b).map { abs($0 - $1) }.max()!
        #expect(difference > 0.01 && difference < 0.3)
    }

    @Test func theFrontEndAddsImbalanceAndOffsetToEverySample() {
        let channel = ReceiverChannel(bandLimited: true, iqGainDB: 6.0206, iqPhaseDegrees: 30, dcI: 0.01, dcQ: -0.02)
        var iq: [Float] = [1, 0, 0, 1, 0, 0]
        iq.withUnsafeMutableBufferPointer { channel.applyFrontEnd(to: $0) }
        // I' = I + dcI; Q' = g·(Q·cos ψ + I·sin ψ) + dcQ with g = 2, ψ = 30°.
        let expected: [Float] = [1.01, 2 * 0.5 - 0.02, 0.01, 2 * 0.8660254 - 0.02, 0.01, -0.02]
        for (x, y) in zip(iq, expected) { #expect(abs(x - y) < 1e-4) }
        var untouched: [Float] = [0.3, -0.2]
        untouched.withUnsafeMutableBufferPointer { ReceiverChannel.ideal.applyFrontEnd(to: $0) }
        #expect(untouched == [0.3, -0.2])
    }

    @Test func channelsAreNamedOnTheCommandLine() {
        #expect(ReceiverChannel(named: "ideal") == .ideal)
        #expect(ReceiverChannel(named: "Realistic") == .realistic)
        #expect(ReceiverChannel(named: "rtl") == nil)
    }
}
