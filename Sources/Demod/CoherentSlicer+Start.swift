/// Where a reply starts, to an eighth of a sample: the preamble's coherent fit.
extension CoherentSlicer {
    /// The complex correlation of the preamble's samples [0, end) with the preamble's pulses
    /// for a start at `start40` fortieths, and the template's energy.
    func preambleFit(_ iq: UnsafePointer<Float>, start40: Int, end: Int) -> (Float, Float, Float) {
        var zr: Float = 0, zi: Float = 0, pp: Float = 0
        let hb = halfBit40
        for n in 0..<end {
            let v = pulse(n, start40) + pulse(n, start40 + 2 * hb) + pulse(n, start40 + 7 * hb) + pulse(n, start40 + 9 * hb)
            zr += iq[2 * n] * v; zi += iq[2 * n + 1] * v; pp += v * v
        }
        return (zr, zi, pp)
    }

    /// Where near `start40` (±1 sample, on a grid of eighths) the preamble's pulses capture the
    /// most energy (|correlation|² / template energy), and the share of the window's energy
    /// they capture there (a clean reply: about 0.8, the window reaching into its first bits).
    /// Coarse to fine: every half sample, then the eighths around the best; nil as soon as the
    /// detector's start captures under half of `minimumFit`, or the best coarse start under
    /// 0.7 of it.
    func refineStart(_ iq: UnsafePointer<Float>, count: Int, start40: Int, minimumFit: Float) -> (start40: Int, fit: Float)? {
        let end = min(count, (start40 + 40 + 16 * halfBit40) / 40 + 1)
        var energy: Float = 0
        for n in 0..<end { energy += iq[2 * n] * iq[2 * n] + iq[2 * n + 1] * iq[2 * n + 1] }
        guard energy > 0 else { return nil }
        var best = (start40: start40, captured: Float(-1))
        // At the detector's own start first: most failing candidates of a busy sky stop here.
        let (zr, zi, pp) = preambleFit(iq, start40: start40, end: end)
        guard pp > 0, zr * zr + zi * zi >= minimumFit * 0.5 * energy * pp else { return nil }
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
        return (best.start40, best.captured / energy)
    }
}
