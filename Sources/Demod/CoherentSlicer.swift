import RealModule

/// Coherent maximum-likelihood sequence detection of one reply, for candidates that every
/// magnitude-based decision failed (`Demodulator.coherent`).
///
/// Magnitudes throw away the carrier phase, and with it half of what a weak reply offers: the
/// noise of the quadrature arm, and the linearity of the receiver's filter. A transponder's
/// carrier keeps its phase through a reply, drifting only with its frequency offset (within
/// ±3 kHz: under 130° over 120 µs). So the complex samples are turned by the reply's carrier
/// phase (measured on the preamble, then tracked on the decided bits) and only the in-phase
/// part is kept: the reply as a real signal, A · Σ pulses, each pulse smeared by the band limit
/// (`response`), plus noise of half the power. Through a linear filter the smear is exact, so a
/// Viterbi search over bit sequences (states: the last three bits, the reach of the smear that
/// matters) finds the bits whose smeared pulses best fit the samples (least squares).
///
/// Measured on the realistic channel (`bench --sensitivity`): the bits a magnitude slicer gets
/// wrong through the smear of runs and through noise, this gets right about 3 dB lower.
///
/// The pulse shape is the RTL2832U decimation low-pass of the simulator's realistic channel
/// (`BandLimitedModulator`, −6 dB at 0.4 × the sample rate); a receiver with a wider filter
/// smears less than modelled, which costs this pass a little, and it runs only where the
/// others failed.
struct CoherentSlicer: Sendable {
    /// Half a bit (0.5 µs) in samples.
    let halfBit: Double
    /// q(u): a sample's value (its centre at u + 0.5 samples after the pulse starts) from one
    /// band-limited pulse of amplitude 1, tabulated every 1/`tableResolution` sample from
    /// u = −`lead`.
    private let table: [Float]
    private let lead: Double
    static let tableResolution = 64.0

    init(sampleRate: SampleRate, cutoffFraction: Double = 0.4) {
        let filter = BandLimitedModulator(sampleRate: sampleRate, cutoffFraction: cutoffFraction)
        let hb = 6 / Double(sampleRate.ticksPerSample)
        halfBit = hb
        let lead = filter.reach + 1
        self.lead = lead
        let count = Int(((2 * lead + hb) * CoherentSlicer.tableResolution).rounded(.up)) + 2
        table = (0..<count).map { i in
            let u = Double(i) / CoherentSlicer.tableResolution - lead
            return filter.stepResponse(at: u + 0.5) - filter.stepResponse(at: u + 0.5 - hb)
        }
    }

    /// The response to a pulse starting `u` samples before a sample's start (0 beyond reach).
    @inline(__always)
    func pulse(_ u: Double) -> Float {
        let p = (u + lead) * CoherentSlicer.tableResolution
        guard p >= 0 else { return 0 }
        let i = Int(p)
        guard i + 1 < table.count else { return 0 }
        let f = Float(p - Double(i))
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// The outcome of one search: the bits (as a 112-bit reply; the caller cuts a short one)
    /// and each bit's reliability (how much worse the best fit gets with that bit inverted).
    struct Decision {
        var raw: UInt128
        var reliability: [Float]
    }

    /// Searches the bits of a reply whose preamble starts at `start` (samples, real, counted
    /// from `iq`'s first sample; `iq` holds `count` interleaved I/Q samples, full scale 1, and
    /// only those are read: the caller passes the reply's samples, none before its start, so
    /// the result does not depend on where the input was cut into blocks).
    /// Returns up to `passes` decisions, each from a finer estimate of the carrier (the first
    /// tracks it as it goes; later ones refit phase and frequency over the whole reply), or an
    /// empty list when the preamble does not look like a coherent reply at all (`minimumFit`:
    /// the share of the preamble's energy the fitted pulses explain).
    func decide(_ iq: UnsafePointer<Float>, count: Int, start s0: Double, passes: Int, minimumFit: Float) -> [Decision] {
        let hb = halfBit
        let n0 = 0, n1 = min(count, Int((s0 + 240 * hb).rounded(.up)) + 1)
        guard n1 - n0 > 0, s0 >= 0 else { return [] }
        // Preamble template and its fit.
        var pre = [Float](repeating: 0, count: n1)
        let preambleEnd = s0 + 16 * hb - 0.5
        var zr: Float = 0, zi: Float = 0, pp: Float = 0, xx: Float = 0
        for n in n0..<n1 {
            let t = Double(n)
            var v: Float = 0
            for k in [0.0, 2, 7, 9] { v += pulse(t - (s0 + k * hb)) }
            pre[n] = v
            if t + 0.5 < preambleEnd {
                let i = iq[2 * n], q = iq[2 * n + 1]
                zr += i * v; zi += q * v; pp += v * v; xx += i * i + q * q
            }
        }
        guard pp > 0, xx > 0 else { return [] }
        let fit = (zr * zr + zi * zi) / (pp * xx)
        guard fit >= minimumFit else { return [] }
        var carrier = Carrier(origin: s0)
        carrier.add(time: s0 + 4.5 * hb, z: (zr, zi), weight: pp)
        let amplitude0 = (zr * zr + zi * zi).squareRoot() / pp

        // Windows: bit k covers the samples whose centres lie in its microsecond.
        var first = [Int](repeating: 0, count: 113), width = [Int](repeating: 0, count: 113)
        for k in 0..<112 {
            let a = s0 + (16 + 2 * Double(k)) * hb - 0.5
            let lo = max(Int(a.rounded(.up)), 0), hi = min(Int((a + 2 * hb).rounded(.up)), n1)
            first[k] = lo; width[k] = max(0, min(hi - lo, 3))
        }
        // contribution[((w * 4 + d) * 2 + v) * 3 + i]: sample i of window w from bit w + d − 2
        // (d = 0…3) holding value v.
        var contribution = [Float](repeating: 0, count: 112 * 4 * 2 * 3)
        for w in 0..<112 {
            for d in 0..<4 {
                let j = w + d - 2
                guard j >= 0 && j < 112 else { continue }
                for v in 0..<2 {
                    let a = s0 + (16 + 2 * Double(j) + (v == 1 ? 0 : 1)) * hb
                    for i in 0..<width[w] { contribution[((w * 4 + d) * 2 + v) * 3 + i] = pulse(Double(first[w] + i) - a) }
                }
            }
        }

        var decisions: [Decision] = []
        var amplitude = amplitude0
        for pass in 0..<passes {
            let tracking = pass == 0
            if !tracking {
                guard carrier.samples > 1 else { break }
            }
            let fitted = carrier.fit()
            var phase = tracking ? carrier.fit() : fitted
            // In-phase part of each window's samples (filled as windows are reached).
            var r = [Float](repeating: 0, count: 112 * 3)
            func project(_ w: Int) {
                for i in 0..<width[w] {
                    let n = first[w] + i
                    let th = phase.angle(at: Double(n) + 0.5)
                    let c = Float(Double.cos(th)), s = Float(Double.sin(th))
                    r[w * 3 + i] = iq[2 * n] * c + iq[2 * n + 1] * s
                }
            }
            // Cost of window w with bits (w−2, w−1, w, w+1) = (b0, b1, b2, b3).
            func cost(_ w: Int, _ b0: Int, _ b1: Int, _ b2: Int, _ b3: Int) -> Float {
                var sum: Float = 0
                let base = w * 4 * 6
                for i in 0..<width[w] {
                    let e = pre[first[w] + i] + contribution[base + 0 * 6 + b0 * 3 + i] + contribution[base + 1 * 6 + b1 * 3 + i]
                        + contribution[base + 2 * 6 + b2 * 3 + i] + contribution[base + 3 * 6 + b3 * 3 + i]
                    let d = r[w * 3 + i] - amplitude * e
                    sum += d * d
                }
                return sum
            }
            var costs = [Float](repeating: .infinity, count: 8)
            var paths = [UInt128](repeating: 0, count: 8)
            costs[0] = 0
            project(0)
            var lastSegment = 0
            for k in 0..<112 {
                if k + 1 < 112 { project(k + 1) }
                var next = [Float](repeating: .infinity, count: 8)
                var nextPaths = [UInt128](repeating: 0, count: 8)
                for ns in 0..<8 {
                    let b = ns & 1
                    for high in 0..<2 {
                        let s = (ns >> 1) | (high << 2)
                        guard costs[s].isFinite else { continue }
                        // Window k−1 sees bits k−3 … k.
                        let c = k >= 1 ? costs[s] + cost(k - 1, (s >> 2) & 1, (s >> 1) & 1, s & 1, b) : costs[s]
                        if c < next[ns] { next[ns] = c; nextPaths[ns] = paths[s] << 1 | UInt128(b) }
                    }
                }
                costs = next; paths = nextPaths
                // Track the carrier on the settled bits (those four behind the newest).
                if tracking && k >= 20 && k - lastSegment >= 16 {
                    let best = (0..<8).min { costs[$0] < costs[$1] }!
                    let settledEnd = k - 3
                    let bits = { (j: Int) -> Int in Int((paths[best] >> UInt128(k - j)) & 1) }
                    let z = segment(iq, from: lastSegment, to: settledEnd, first: first, width: width, pre: pre,
                                    s0: s0, hb: hb, bit: bits)
                    carrier.add(time: s0 + (16 + Double(lastSegment + settledEnd)) * hb, z: (z.0, z.1), weight: z.2)
                    lastSegment = settledEnd
                    phase = carrier.fit()
                    if z.2 > 0 { amplitude = carrier.amplitude }
                }
            }
            // The last window sees no bit after it.
            for s in 0..<8 where costs[s].isFinite { costs[s] += cost(111, (s >> 2) & 1, (s >> 1) & 1, s & 1, 0) }
            let best = (0..<8).min { costs[$0] < costs[$1] }!
            let raw = paths[best] << 16
            // Reliability of each bit: the fit's loss with it inverted (neighbours kept).
            let bit = { (j: Int) -> Int in (j < 0 || j >= 112) ? 0 : Int((raw >> UInt128(127 - j)) & 1) }
            var reliability = [Float](repeating: 0, count: 112)
            for k in 0..<112 {
                var delta: Float = 0
                for w in max(k - 1, 0)...min(k + 2, 111) {
                    let b = (bit(w - 2), bit(w - 1), bit(w), bit(w + 1))
                    var f = b
                    switch k - w + 2 {
                    case 0: f.0 ^= 1
                    case 1: f.1 ^= 1
                    case 2: f.2 ^= 1
                    default: f.3 ^= 1
                    }
                    delta += cost(w, f.0, f.1, f.2, f.3) - cost(w, b.0, b.1, b.2, b.3)
                }
                reliability[k] = delta
            }
            decisions.append(Decision(raw: raw, reliability: reliability))
            // Refit the carrier over the whole reply from these bits.
            var refit = Carrier(origin: s0)
            refit.add(time: s0 + 4.5 * hb, z: (zr, zi), weight: pp)
            var from = 0
            while from < 112 {
                let to = min(from + 16, 112)
                let z = segment(iq, from: from, to: to, first: first, width: width, pre: pre, s0: s0, hb: hb, bit: bit)
                refit.add(time: s0 + (16 + Double(from + to)) * hb, z: (z.0, z.1), weight: z.2)
                from = to
            }
            carrier = refit
            amplitude = carrier.amplitude
            if pass + 1 < passes, decisions.count >= 2, decisions[decisions.count - 1].raw == decisions[decisions.count - 2].raw { break }
        }
        return decisions
    }

    /// The complex correlation of the samples of bits [from, to) with the pulses those bits
    /// (`bit(j)`, 0 or 1) and the preamble make there, and the template's energy.
    private func segment(_ iq: UnsafePointer<Float>, from: Int, to: Int, first: [Int], width: [Int], pre: [Float],
                         s0: Double, hb: Double, bit: (Int) -> Int) -> (Float, Float, Float) {
        var zr: Float = 0, zi: Float = 0, e: Float = 0
        for w in from..<to {
            for i in 0..<width[w] {
                let n = first[w] + i
                var v = pre[n]
                for j in max(w - 2, 0)...min(w + 2, 111) {
                    v += pulse(Double(n) - (s0 + (16 + 2 * Double(j) + (bit(j) == 1 ? 0 : 1)) * hb))
                }
                zr += iq[2 * n] * v; zi += iq[2 * n + 1] * v; e += v * v
            }
        }
        return (zr, zi, e)
    }

    /// The carrier's phase over a reply: correlations of stretches of it with their fitted
    /// pulses, each a phase at a time; a weighted least-squares line through the phases
    /// (unwrapped in time order) gives the phase at the start and the frequency offset.
    struct Carrier {
        let origin: Double
        private var times: [Double] = [], phases: [Double] = [], weights: [Double] = []
        private var magnitudeSum = 0.0, energySum = 0.0
        init(origin: Double) { self.origin = origin }
        var samples: Int { times.count }
        /// Mean pulse amplitude over the stretches.
        var amplitude: Float { Float(energySum > 0 ? magnitudeSum / energySum : 0) }

        mutating func add(time: Double, z: (Float, Float), weight: Float) {
            guard weight > 0 else { return }
            var theta = Double.atan2(y: Double(z.1), x: Double(z.0))
            if let last = phases.last {
                while theta - last > .pi { theta -= 2 * .pi }
                while theta - last < -.pi { theta += 2 * .pi }
            }
            let magnitude = (Double(z.0) * Double(z.0) + Double(z.1) * Double(z.1)).squareRoot()
            times.append(time - origin); phases.append(theta)
            // Weight by the stretch's SNR: the correlation's magnitude.
            weights.append(magnitude)
            magnitudeSum += magnitude; energySum += Double(weight)
        }

        /// The fitted phase line (a constant phase from one stretch).
        func fit() -> Line {
            guard times.count > 1 else { return Line(origin: origin, phase: phases.first ?? 0, slope: 0) }
            var sw = 0.0, st = 0.0, sp = 0.0, stt = 0.0, stp = 0.0
            for i in times.indices {
                let w = weights[i]
                sw += w; st += w * times[i]; sp += w * phases[i]; stt += w * times[i] * times[i]; stp += w * times[i] * phases[i]
            }
            let det = sw * stt - st * st
            guard det > 1e-9 else { return Line(origin: origin, phase: sp / sw, slope: 0) }
            let slope = (sw * stp - st * sp) / det
            return Line(origin: origin, phase: (sp - slope * st) / sw, slope: slope)
        }

        struct Line {
            let origin: Double, phase: Double, slope: Double
            /// Radians at sample time `t`.
            func angle(at t: Double) -> Double { phase + slope * (t - origin) }
        }
    }
}

extension CoherentSlicer {
    /// Converts `count` raw samples in `format` to interleaved I/Q floats, full scale 1.
    static func complexSamples(_ raw: UnsafeRawPointer, format: SampleFormat, count: Int, into out: UnsafeMutablePointer<Float>) {
        switch format {
        case .uc8:
            let b = raw.assumingMemoryBound(to: UInt8.self)
            for i in 0..<(2 * count) { out[i] = (Float(b[i]) - 127.5) / 127.5 }
        case .sc16, .sc16q11:
            let scale: Float = format == .sc16 ? 1 / 32768 : 1 / 2048
            for i in 0..<(2 * count) { out[i] = Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) * scale }
        case .cf32:
            for i in 0..<(2 * count) {
                let v = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                out[i] = v.isFinite ? v : 0
            }
        }
    }
}

extension CoherentSlicer {
    /// The five least reliable bits after the DF (1-based frame bit numbers, least first).
    static func weakest(_ reliability: [Float], bitCount: Int) -> Demodulator.WeakestBits {
        var order = Array(5..<bitCount)
        order.sort { (reliability[$0], $0) < (reliability[$1], $1) }
        func bit(_ i: Int) -> Int { i < order.count ? order[i] + 1 : 0 }
        return Demodulator.WeakestBits(bits: (bit(0), bit(1), bit(2), bit(3), bit(4)))
    }
}
