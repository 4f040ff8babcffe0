/// Where a reply starts, to an eighth of a sample: the preamble's coherent fit.
extension CoherentSlicer {
    /// The complex correlation of the preamble's samples [0, end) with the preamble's pulses
    /// for a start at `start40` fortieths, and the template's energy.
    /// The samples beyond the pulses' reach add nothing (exactly: their template values are
    /// zero), so only the template's samples are read (`withPreambleTemplate`).
    func preambleFit(_ iq: UnsafePointer<Float>, start40: Int, end: Int) -> (Float, Float, Float) {
        withPreambleTemplate(start40: start40) { v, samples in
            var zr: Float = 0, zi: Float = 0, pp: Float = 0
            let first = max(0, samples.lowerBound)
            for n in first..<max(first, min(end, samples.upperBound)) {
                zr += iq[2 &* n] * v[n]; zi += iq[2 &* n &+ 1] * v[n]; pp += v[n] * v[n]
            }
            return (zr, zi, pp)
        }
    }

    /// `refineStart`'s first test, at the detector's own start `start40` (most failing
    /// candidates of a busy sky stop here): the preamble's pulses there capture at least half
    /// of `minimumFit` of the energy of the preamble's samples. Returns the samples weighed
    /// (from the first) and their energy, or nil when the test fails. A test that fails for a
    /// share fails for every larger one.
    @inline(__always)
    func fitsAtStart(_ iq: UnsafePointer<Float>, count: Int, start40: Int, minimumFit: Float) -> (end: Int, energy: Float)? {
        let end = min(count, (start40 + 40 + 16 * halfBit40) / 40 + 1)
        var energy: Float = 0
        for n in 0..<end { energy += iq[2 * n] * iq[2 * n] + iq[2 * n + 1] * iq[2 * n + 1] }
        guard energy > 0 else { return nil }
        let (zr, zi, pp) = preambleFit(iq, start40: start40, end: end)
        guard pp > 0, zr * zr + zi * zi >= minimumFit * 0.5 * energy * pp else { return nil }
        return (end, energy)
    }

    /// Where near `start40` (±1 sample, on a grid of eighths) the preamble's pulses capture the
    /// most energy (|correlation|² / template energy), and the share of the window's energy
    /// they capture there (a clean reply: about 0.8, the window reaching into its first bits).
    /// Coarse to fine: every half sample, then the eighths around the best; nil as soon as the
    /// detector's start captures under half of `minimumFit`, or the best coarse start under
    /// 0.7 of it. `captured` is the best start's |correlation|² / template energy (full-scale
    /// units squared): the preamble's energy, to weigh against the noise's.
    func refineStart(_ iq: UnsafePointer<Float>, count: Int, start40: Int, minimumFit: Float) -> (start40: Int, fit: Float, captured: Float)? {
        guard let (end, energy) = fitsAtStart(iq, count: count, start40: start40, minimumFit: minimumFit) else { return nil }
        var best = (start40: start40, captured: Float(-1))
        func consider(_ t: Int) {
            guard t >= -20 else { return }
            let (zr, zi, pp) = preambleFit(iq, start40: t, end: end)
            guard pp > 0 else { return }
            let captured = (zr * zr + zi * zi) / pp
            if captured > best.captured { best = (t, captured) }
        }
        // The grid is counted from the first sample, so every position of one reply searches
        // the same starts.
        let centre = (start40 + 2) / 5 * 5
        for step in stride(from: -8, through: 8, by: 4) { consider(centre + 5 * step) }
        guard best.captured >= minimumFit * 0.7 * energy else { return nil }
        let coarse = best.start40
        for step in [-2, -1, 1, 2] { consider(coarse + 5 * step) }
        let fine = best.start40
        if fine != coarse { consider(fine + (fine - coarse) / abs(fine - coarse) * 5) }
        return (best.start40, best.captured / energy, best.captured)
    }
}

/// Where a decided reply starts: the fit of its whole pulse train, for a start that the
/// preamble's four pulses placed wrongly (in noise, a neighbouring eighth or two can fit them
/// better; 112 bits' pulses say far more surely where the reply is).
extension CoherentSlicer {
    /// How well the pulses of the preamble and of the first `bitCount` bits of `raw` (bit 0
    /// its most significant) starting at `start40` explain samples [from, to): over stretches
    /// of `stretch` samples from `from`, |correlation|² / template energy, summed (each
    /// stretch phased on its own, so a carrier offset does not blur the sum). Starts compared
    /// on the same samples and stretches compare fairly.
    func replyFit(_ iq: UnsafePointer<Float>, from: Int, to: Int, stretch: Int, start40: Int, raw: UInt128, bitCount: Int) -> Float {
        let hb = halfBit40
        guard from >= 0, to > from, stretch > 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: to - from) { buffer -> Float in
            let v = buffer.baseAddress!
            v.initialize(repeating: 0, count: to - from)
            /// Adds the response to a pulse starting `a40` fortieths after the first sample.
            func add(_ a40: Int) {
                let lo = max(from, (a40 - lead40) / 40), hi = min(to, (a40 + lead40 + hb) / 40 + 2)
                for n in lo..<max(lo, hi) { v[n - from] += pulse(n, a40) }
            }
            for m in [0, 2, 7, 9] { add(start40 + m * hb) }
            for k in 0..<bitCount {
                let one = (raw >> (127 - k)) & 1 == 1
                add(start40 + (16 + 2 * k + (one ? 0 : 1)) * hb)
            }
            var total: Float = 0
            for first in Swift.stride(from: from, to: to, by: stretch) {
                var zr: Float = 0, zi: Float = 0, e: Float = 0
                for n in first..<min(to, first + stretch) {
                    let t = v[n - from]
                    zr += iq[2 * n] * t; zi += iq[2 * n + 1] * t; e += t * t
                }
                if e > 0 { total += (zr * zr + zi * zi) / e }
            }
            return total
        }
    }

    /// The start near `start40` at which the decided bits `raw` (`bitCount` of them) fit best
    /// (`replyFit`, on the samples of the reply at any of the starts tried): every eighth of
    /// a sample within a quarter either side, then the fortieths ±2 around the best (seven
    /// fits). `iq` holds `count` samples.
    func retime(_ iq: UnsafePointer<Float>, count: Int, start40: Int, raw: UInt128, bitCount: Int) -> Int {
        let reach40 = 12
        let from = max(0, (start40 - reach40) / 40 - 1)
        let to = min(count, (start40 + reach40 + (16 + 2 * bitCount) * halfBit40 + lead40) / 40 + 1)
        // Eight bits' samples a stretch.
        let stretch = 16 * halfBit40 / 40
        var best = (start40: start40, fit: replyFit(iq, from: from, to: to, stretch: stretch, start40: start40, raw: raw, bitCount: bitCount))
        func consider(_ t: Int) {
            guard t >= 0 else { return }
            let fit = replyFit(iq, from: from, to: to, stretch: stretch, start40: t, raw: raw, bitCount: bitCount)
            if fit > best.fit { best = (t, fit) }
        }
        for d in [-10, -5, 5, 10] { consider(start40 + d) }
        let coarse = best.start40
        for d in [-2, 2] { consider(coarse + d) }
        return best.start40
    }
}
