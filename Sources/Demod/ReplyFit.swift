import ModeS
import RealModule

/// A reply whose bits are known fitted to the complex samples it arrived in: every pulse's
/// start, the carrier (its frequency offset and phase line) and the amplitude. The pulse
/// learner (`PulseLearner`) learns from its in-phase samples; the demodulator subtracts it
/// (`subtract`) to search a weaker reply it overlaps in what is left (`Demodulator+Overlap`).
///
/// The reply is modelled as iq[n] = A · m[n] · e^{i(ω(n + ½) + θ(n + ½))}: m the sum of the
/// band-limited pulses (`CoherentSlicer.pulse`) of the preamble and the bits, ω the carrier's
/// turn a sample, θ a phase line over eight stretches of the samples turned back by ω.
struct ReplyFit {
    /// Every pulse's start (fortieths of a sample from the first sample): the preamble's four,
    /// then one a bit.
    var starts: [Int]
    /// The sum of the reply's pulses at each sample covered, amplitude 1.
    var model: [Float]
    /// The samples covered, turned back by the fitted carrier: the in-phase part.
    var inPhase: [Float]
    /// The fitted pulse amplitude (full scale 1).
    var amplitude: Float
    /// The residual energy (in-phase misfit and all the quadrature) over the fitted reply's.
    var misfit: Float
    /// The carrier's turn a sample (radians), found from neighbouring samples.
    var omega: Double
    /// The phase line of the samples turned back by `omega` (radians at a sample time).
    var line: CoherentSlicer.Carrier.Line

    /// Fits a reply whose bits are `frame` and whose preamble starts at `start40` fortieths
    /// of a sample after `iq`'s first sample (`count` interleaved I/Q samples, full scale 1)
    /// with `slicer`'s pulse: the carrier's frequency, its phase line over eight stretches,
    /// then the amplitude. Nil when the reply's samples are too few or do not correlate.
    init?(_ iq: UnsafePointer<Float>, count: Int, start40 s40: Int, frame: Frame, slicer: CoherentSlicer) {
        guard s40 >= 0 else { return nil }
        let hb = slicer.halfBit40
        var starts = [s40, s40 + 2 * hb, s40 + 7 * hb, s40 + 9 * hb]
        starts.reserveCapacity(4 + frame.bitCount)
        for j in 0..<frame.bitCount { starts.append(s40 + (16 + 2 * j + (frame.bit(j + 1) ? 0 : 1)) * hb) }
        let reach = slicer.reach
        let end = min(count, (s40 + (16 + 2 * frame.bitCount) * hb) / 40 + reach)
        guard end > 32 else { return nil }
        var model = [Float](repeating: 0, count: end)
        for a in starts {
            let lo = max(0, a / 40 - reach - 1), hi = min(end, a / 40 + reach + 3)
            guard lo < hi else { continue }
            for n in lo..<hi { model[n] += slicer.pulse(n, a) }
        }
        // The carrier's frequency first, from the turn between neighbouring samples of the
        // reply's pulses (a dongle's own offset can reach tens of kHz: turns of a cycle
        // within a stretch, beyond what the stretches' phases can follow), then its phase
        // line over eight stretches of the samples turned back by it.
        var lr: Float = 0, li: Float = 0
        for n in 0..<(end - 1) where model[n] > 0 && model[n + 1] > 0 {
            let w = model[n] * model[n + 1]
            lr += w * (iq[2 * n + 2] * iq[2 * n] + iq[2 * n + 3] * iq[2 * n + 1])
            li += w * (iq[2 * n + 3] * iq[2 * n] - iq[2 * n + 2] * iq[2 * n + 1])
        }
        let omega = lr == 0 && li == 0 ? 0 : Double.atan2(y: Double(li), x: Double(lr))
        var turned = [Float](repeating: 0, count: 2 * end)
        var turn = Rotation(angle: -omega * 0.5, step: -omega)
        for n in 0..<end {
            let c = Float(turn.cos), s = Float(turn.sin)
            turned[2 * n] = iq[2 * n] * c - iq[2 * n + 1] * s
            turned[2 * n + 1] = iq[2 * n] * s + iq[2 * n + 1] * c
            turn.advance()
        }
        var carrier = CoherentSlicer.Carrier(origin: 0)
        let stretch = (end + 7) / 8
        var from = 0
        while from < end {
            let to = min(from + stretch, end)
            var zr: Float = 0, zi: Float = 0, e: Float = 0
            for n in from..<to { zr += turned[2 * n] * model[n]; zi += turned[2 * n + 1] * model[n]; e += model[n] * model[n] }
            carrier.add(time: Double(from + to) / 2, z: (zr, zi), weight: e)
            from = to
        }
        let line = carrier.fit()
        var inPhase = [Float](repeating: 0, count: end)
        var rm: Float = 0, mm: Float = 0, quadrature: Float = 0
        // The phase line is linear in time: its turn advances by the slope a sample.
        var phase = Rotation(angle: line.angle(at: 0.5), step: line.slope)
        for n in 0..<end {
            let c = Float(phase.cos), s = Float(phase.sin)
            phase.advance()
            inPhase[n] = turned[2 * n] * c + turned[2 * n + 1] * s
            let q = turned[2 * n + 1] * c - turned[2 * n] * s
            rm += inPhase[n] * model[n]; mm += model[n] * model[n]; quadrature += q * q
        }
        guard mm > 0, rm > 0 else { return nil }
        let amplitude = rm / mm
        var misfit = quadrature
        for n in 0..<end {
            let d = inPhase[n] - amplitude * model[n]
            misfit += d * d
        }
        self.starts = starts
        self.model = model
        self.inPhase = inPhase
        self.amplitude = amplitude
        self.misfit = misfit / (amplitude * amplitude * mm)
        self.omega = omega
        self.line = line
    }

    /// The part of `misfit` noise of power `noise` (full scale 1, both arms) accounts for:
    /// its energy over the samples fitted, over the fitted reply's.
    func noiseShare(_ noise: Double) -> Float {
        var energy: Float = 0
        for v in model { energy += v * v }
        return Float(noise) * Float(model.count) / (amplitude * amplitude * energy)
    }

    /// Takes the fitted reply out of `iq` (the samples it was fitted on: `model.count` of
    /// them from the first): what is left is the noise and whatever else was on the air.
    func subtract(from iq: UnsafeMutablePointer<Float>) {
        var turn = Rotation(angle: omega * 0.5 + line.angle(at: 0.5), step: omega + line.slope)
        for n in model.indices {
            let a = amplitude * model[n]
            iq[2 * n] -= a * Float(turn.cos)
            iq[2 * n + 1] -= a * Float(turn.sin)
            turn.advance()
        }
    }
}
