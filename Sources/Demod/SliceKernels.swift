/// Precomputed sampling kernels for one sample rate: how much of each sample falls inside each
/// half bit of a Mode S reply, for every candidate phase (sub-sample offset of the preamble).
///
/// Samples are treated as constant over their interval ([i, i+1) in sample units). A half bit
/// lasts `h` samples (1.0 at 2.0 MS/s, 1.2 at 2.4 MS/s); the energy of an interval is the sum
/// of the magnitudes it overlaps, weighted by the overlap. Phases are spaced so that every
/// interval boundary falls on a multiple of `1/resolution` sample, which makes all weights
/// small integers (no floating point on the hot path).
///
/// Mode S timing (Annex 10 Vol IV §3.1.2.1): preamble pulses in half bits 0, 2, 7 and 9
/// (0, 1.0, 3.5 and 4.5 µs), quiet elsewhere in the first 16 half bits (8 µs); then data bit k
/// occupies half bits 16 + 2k (pulse for a 1) and 17 + 2k (pulse for a 0).
struct SliceKernels: Sendable {
    /// One weighted window of consecutive samples.
    struct Window: Sendable {
        /// First sample, relative to the candidate's start sample.
        var offset: Int32
        /// Weights for samples offset, offset+1, … (0 beyond the window).
        var w0: Int32, w1: Int32, w2: Int32, w3: Int32
    }

    let rate: SampleRate
    /// Sub-sample steps per sample (4 at 2.0 MS/s, 5 at 2.4 MS/s).
    let resolution: Int
    /// Candidate phases, in 1/resolution sample steps, within one sample.
    let phases: [Int]
    /// Bit windows (A − B: positive weights for the first half, negative for the second):
    /// 112 per phase, phase-major (`bits[phase * 112 + k]`).
    let bits: [Window]
    /// Preamble windows, 14 per phase (`preamble[phase * 14 + j]`): the pulses in half bits
    /// 0, 2, 7, 9, then the quiet half bits 1, 3, 4, 5, 6, 8, 10, 11, 12, 13.
    let preamble: [Window]
    static let preambleWindows = 14
    /// Samples a whole long reply spans from its start sample (preamble + 112 bits + margin).
    let span: Int
    /// Half-bit length in resolution steps (4 or 6).
    let halfBitSteps: Int

    init(rate: SampleRate) {
        self.rate = rate
        switch rate {
        case .rate2_0: resolution = 4; halfBitSteps = 4; phases = [0, 1, 2, 3]
        case .rate2_4: resolution = 5; halfBitSteps = 6; phases = [0, 1, 2, 3, 4]
        }
        var bits: [Window] = [], preamble: [Window] = []
        let halfBitSteps = self.halfBitSteps, resolution = self.resolution
        for phase in phases {
            for k in 0..<112 {
                let a = phase + (16 + 2 * k) * halfBitSteps
                bits.append(SliceKernels.difference(a, a + halfBitSteps, a + 2 * halfBitSteps, resolution: resolution))
            }
            for half in [0, 2, 7, 9, 1, 3, 4, 5, 6, 8, 10, 11, 12, 13] {
                preamble.append(SliceKernels.window(phase + half * halfBitSteps, phase + (half + 1) * halfBitSteps, resolution: resolution))
            }
        }
        self.bits = bits
        self.preamble = preamble
        span = ((16 + 224) * halfBitSteps + resolution) / resolution + 4
    }

    /// Weights of the interval [start, end) (in resolution steps) over whole samples.
    static func window(_ start: Int, _ end: Int, resolution: Int) -> Window {
        let first = start / resolution
        var w = [Int32](repeating: 0, count: 4)
        for i in 0..<4 {
            let lo = max(start, (first + i) * resolution), hi = min(end, (first + i + 1) * resolution)
            if hi > lo { w[i] = Int32(hi - lo) }
        }
        return Window(offset: Int32(first), w0: w[0], w1: w[1], w2: w[2], w3: w[3])
    }

    /// Weights of energy[a, m) − energy[m, b).
    static func difference(_ a: Int, _ m: Int, _ b: Int, resolution: Int) -> Window {
        let first = a / resolution
        var w = [Int32](repeating: 0, count: 4)
        for i in 0..<4 {
            let s = (first + i) * resolution, e = s + resolution
            let plus = max(0, min(m, e) - max(a, s)), minus = max(0, min(b, e) - max(m, s))
            w[i] = Int32(plus - minus)
        }
        return Window(offset: Int32(first), w0: w[0], w1: w[1], w2: w[2], w3: w[3])
    }
}

extension SliceKernels.Window {
    /// Σ weight × magnitude over the window, for a candidate starting at `m`.
    @inline(__always)
    func apply(_ m: UnsafePointer<UInt16>) -> Int32 {
        let p = m + Int(offset)
        return w0 &* Int32(p[0]) &+ w1 &* Int32(p[1]) &+ w2 &* Int32(p[2]) &+ w3 &* Int32(p[3])
    }
}
