import ModeS
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
/// (`pulse`), plus noise of half the power. Through a linear filter the smear is exact, so a
/// Viterbi search over bit sequences (states: the last three bits, the reach of the smear that
/// matters) finds the bits whose smeared pulses best fit the samples (least squares).
///
/// Measured on the realistic channel (`bench --sensitivity`, README): the SNR at which half the
/// replies decode drops by about 1.1 dB at 2.4 MS/s and 3.5 dB at 2.0 MS/s, where magnitudes
/// suffer most from the smear.
///
/// The pulse shape starts as the RTL2832U decimation low-pass of the simulator's realistic
/// channel (`ReceiveFilter.rtl2832u`, −6 dB at 0.4 × the sample rate); the demodulator
/// replaces it with the shape `PulseLearner` estimates from the replies it decodes, so a
/// receiver whose filter differs (wider, causal, ringing) is fitted with its own pulses.
struct CoherentSlicer: Sendable {
    /// Half a bit (0.5 µs) in 1/40 samples: 48 at 2.4 MS/s, 40 at 2.0 MS/s. Times are counted
    /// in fortieths of a sample, so every pulse of a reply starting on the search grid
    /// (eighths) falls on an entry of `table`: no interpolation on the hot path.
    let halfBit40: Int
    /// q(u): a sample's value (its centre at u + 0.5 samples after the pulse starts) from one
    /// band-limited pulse of amplitude 1, every 1/40 sample from u = −`lead40`/40.
    private let table: [Float]
    /// How far before a pulse's start its response reaches (the table's lead), in fortieths.
    let lead40: Int
    /// The preamble's four pulses (half bits 0, 2, 7 and 9) summed as `preambleFit` sums them,
    /// per start fortieth r (0…39): row r, entry `templateLead + k` is the value at sample k
    /// of a preamble starting r fortieths into sample 0 (`templateLength` entries a row, zero
    /// beyond the pulses' reach). A start of 40q + r reads row r moved by q samples, so the
    /// fit of every start candidate a busy sky offers is a table read per sample, not four.
    private let preambleTemplates: [Float]
    /// Entries before sample 0 in a template row (the pulses' lead, whole samples).
    private let templateLead: Int
    /// Entries per template row.
    private let templateLength: Int
    /// Samples either side of a pulse its response reaches (the table's half span, whole).
    var reach: Int { lead40 / 40 }

    /// The RTL2832U model's pulse (`ReceiveFilter.rtl2832u`), exact at every table entry.
    init(sampleRate: SampleRate) {
        let shape = PulseShape(filter: .rtl2832u, sampleRate: sampleRate)
        let hb = PulseResponse.halfBit(at: sampleRate)
        self.init(sampleRate: sampleRate, reach: shape.reach) { x in shape.stepResponse(at: x) - shape.stepResponse(at: x - hb) }
    }

    /// A pulse response learned or given (`PulseResponse`, interpolated between its nodes).
    init(sampleRate: SampleRate, response: PulseResponse) {
        self.init(sampleRate: sampleRate, reach: max(-response.first, response.last - PulseResponse.halfBit(at: sampleRate))) {
            response.value(at: $0)
        }
    }

    /// `g(x)`: a sample's value, its centre x samples after a pulse of amplitude 1 starts;
    /// zero beyond `reach` samples either side of the pulse.
    private init(sampleRate: SampleRate, reach: Double, g: (Double) -> Float) {
        halfBit40 = 240 / Int(sampleRate.ticksPerSample)
        lead40 = 40 * (Int(reach.rounded(.up)) + 1)
        let lead = Double(lead40) / 40
        table = (0...(2 * lead40 + halfBit40)).map { i in g(Double(i) / 40 - lead + 0.5) }
        // Sample k of a start r fortieths in reads table entries 40k − r − m·hb + lead40 for
        // the pulses m = 0, 2, 7, 9: from k = −lead40/40 to under (lead40 + 10·hb + 40)/40 + 1.
        templateLead = lead40 / 40
        templateLength = templateLead + (lead40 + 10 * halfBit40 + 40) / 40 + 2
        var templates = [Float](repeating: 0, count: 40 * templateLength)
        for r in 0..<40 {
            for index in 0..<templateLength {
                let k = index - templateLead
                templates[r * templateLength + index] = Self.pulse(table, lead40, k, r) + Self.pulse(table, lead40, k, r + 2 * halfBit40)
                    + Self.pulse(table, lead40, k, r + 7 * halfBit40) + Self.pulse(table, lead40, k, r + 9 * halfBit40)
            }
        }
        preambleTemplates = templates
    }

    /// The response at sample `n` to a pulse starting at `a40` fortieths (0 beyond reach).
    @inline(__always)
    func pulse(_ n: Int, _ a40: Int) -> Float {
        Self.pulse(table, lead40, n, a40)
    }

    @inline(__always)
    private static func pulse(_ table: [Float], _ lead40: Int, _ n: Int, _ a40: Int) -> Float {
        let i = n &* 40 &- a40 &+ lead40
        return i >= 0 && i < table.count ? table[i] : 0
    }

    /// The template row of a preamble starting at `start40` fortieths and the row's sample 0
    /// in it: sample n's value is `row[n]` for n in `samples` (zero outside).
    @inline(__always)
    func withPreambleTemplate<R>(start40: Int, _ body: (_ row: UnsafePointer<Float>, _ samples: Range<Int>) -> R) -> R {
        // Floor division: a start may lie up to half a sample before sample 0.
        let q = start40 >= 0 ? start40 / 40 : (start40 - 39) / 40
        let r = start40 - 40 * q
        let first = q - templateLead
        return preambleTemplates.withUnsafeBufferPointer { t in
            body(t.baseAddress! + r * templateLength - first, first..<(first + templateLength))
        }
    }

    /// The outcome of one search: the bits (as a 112-bit reply; the caller cuts a short one)
    /// and each bit's reliability (how much worse the best fit gets with that bit inverted).
    struct Decision {
        var raw: UInt128
        var reliability: [Float]
        /// Runs of two to `longestRun` (`decide`) equal bits and how much worse the fit gets
        /// with the whole run inverted (`Run`).
        var runs: [Run] = []
        /// The decided first five bits: the downlink format they name.
        var downlinkFormat: UInt64 { UInt64(truncatingIfNeeded: raw >> 123) }
        /// The decided bits cut to a reply `bitCount` (56 or 112) long.
        func frame(bitCount: Int) -> Frame? {
            Frame(raw: raw & (bitCount == 112 ? ~0 << 16 : ~0 << 72), bitCount: bitCount)
        }
    }

    /// Bits `first ..< first + length` (0-based) that the fit holds equal, inverted together,
    /// and how much worse the fit gets then. Inverting a run of equal bits moves its pulses by
    /// half a bit: where the band limit smears pulses into their neighbours' halves (most at
    /// 2.0 MS/s) the two pulse trains differ mostly at the run's ends, so such a run is often
    /// less reliable than any one of its bits, and it is the commonest multi-bit error of the
    /// search (on the sweep at 2.0 MS/s, 9 dB, most decisions with two to four wrong bits had
    /// them in one or two such runs).
    struct Run: Equatable {
        var first: Int
        var length: Int
        var reliability: Float
    }

    /// Searches the bits of a reply whose preamble starts at `start40` (fortieths of a sample, counted
    /// from `iq`'s first sample; `iq` holds `count` interleaved I/Q samples, full scale 1, and
    /// only those are read: the caller passes the reply's samples, none before its start, so
    /// the result does not depend on where the input was cut into blocks).
    /// `refineStart` finds the start.
    /// Returns up to `passes` decisions, each from a finer estimate of the carrier (the first
    /// tracks it as it goes; the next refits phase and frequency over the whole reply; a pass
    /// that repeats the one before ends the search).
    /// Each decision rates inverting each bit, and each run of 2 to `longestRun` equal bits.
    /// `stop` sees each decision as it is made; true ends the search there (the caller took
    /// it: no later pass is worth its cost).
    func decide(_ iq: UnsafePointer<Float>, count: Int, start40 s40: Int, passes: Int, longestRun: Int = 1,
                stop: (Decision) -> Bool = { _ in false }) -> [Decision] {
        let hb = halfBit40
        let s0 = Double(s40) / 40
        let n1 = min(count, (s40 + 240 * hb) / 40 + 2)
        guard n1 > 0, s40 >= 0 else { return [] }
        // The pulse starting `m` half bits into the reply (fortieths).
        @inline(__always) func at(_ m: Int) -> Int { s40 &+ m &* hb }
        // Windows: bit k covers the samples whose centres lie in its microsecond.
        var first = [Int](repeating: 0, count: 112), width = [Int](repeating: 0, count: 112)
        for k in 0..<112 {
            // Sample n's centre (40n + 20) in [at(16 + 2k), at(18 + 2k)).
            let lo = max((at(16 + 2 * k) - 20 + 39) / 40, 0), hi = min((at(18 + 2 * k) - 20 + 39) / 40, n1)
            first[k] = lo; width[k] = max(0, min(hi - lo, 3))
        }
        // The preamble's pulses in each window sample (only the first windows see them).
        var pre = [Float](repeating: 0, count: 112 * 3 + 3)
        for w in 0..<4 {
            for i in 0..<width[w] {
                let n = first[w] + i
                pre[w * 3 + i] = pulse(n, at(0)) + pulse(n, at(2)) + pulse(n, at(7)) + pulse(n, at(9))
            }
        }
        let preambleEnd = (at(16) - 20 + 39) / 40
        let (zr, zi, pp) = preambleFit(iq, start40: s40, end: min(n1, preambleEnd))
        guard pp > 0 else { return [] }
        var carrier = Carrier(origin: s0)
        carrier.add(time: s0 + 4.5 * Double(hb) / 40, z: (zr, zi), weight: pp)

        // contribution[((w * 4 + d) * 2 + v) * 3 + i]: sample i of window w from bit w + d − 2
        // (d = 0…3) holding value v.
        var contribution = [Float](repeating: 0, count: 112 * 4 * 2 * 3)
        for w in 0..<112 {
            for d in 0..<4 {
                let j = w + d - 2
                guard j >= 0 && j < 112 else { continue }
                for v in 0..<2 {
                    let a = at(16 + 2 * j + (v == 1 ? 0 : 1))
                    for i in 0..<width[w] { contribution[((w * 4 + d) * 2 + v) * 3 + i] = pulse(first[w] + i, a) }
                }
            }
        }

        return contribution.withUnsafeBufferPointer { cb in
            pre.withUnsafeBufferPointer { pb in
                search(iq, first: first, width: width, pre: pb.baseAddress!, contribution: cb.baseAddress!, start40: s40,
                       carrier: carrier, preamble: (zr, zi, pp), passes: passes, longestRun: longestRun, stop: stop)
            }
        }
    }

    /// The Viterbi passes of `decide` over its tables (window w's three samples: the
    /// preamble's part `pre[3w + i]`, each neighbouring bit's `contribution`).
    private func search(_ iq: UnsafePointer<Float>, first: [Int], width: [Int], pre: UnsafePointer<Float>,
                        contribution: UnsafePointer<Float>, start40 s40: Int, carrier start: Carrier,
                        preamble: (Float, Float, Float), passes: Int, longestRun: Int,
                        stop: (Decision) -> Bool) -> [Decision] {
        let hb = halfBit40
        let s0 = Double(s40) / 40
        var carrier = start
        let (zr, zi, pp) = preamble
        var decisions: [Decision] = []
        var amplitude = carrier.amplitude
        let r = UnsafeMutablePointer<Float>.allocate(capacity: 112 * 3)
        r.initialize(repeating: 0, count: 112 * 3)
        defer { r.deallocate() }
        // Each window's sixteen misfits (`costs16`), kept from the Viterbi pass for the
        // decided bits' misfits and every inversion's (reliabilities, runs): looked up, not
        // computed again.
        let misfits = UnsafeMutablePointer<SIMD16<Float>>.allocate(capacity: 112)
        defer { misfits.deallocate() }
        let misfit = UnsafeMutableRawPointer(misfits).assumingMemoryBound(to: Float.self)
        /// Window w's misfit with bits (b0, b1, b2, b3), from `misfits`.
        @inline(__always) func cost(_ w: Int, _ b0: Int, _ b1: Int, _ b2: Int, _ b3: Int) -> Float {
            misfit[w &* 16 &+ (b0 &<< 3 | b1 &<< 2 | b2 &<< 1 | b3)]
        }
        // The decided bits' lanes and misfits per window (below).
        let pattern = UnsafeMutablePointer<Int>.allocate(capacity: 112)
        defer { pattern.deallocate() }
        let own = UnsafeMutablePointer<Float>.allocate(capacity: 112)
        defer { own.deallocate() }
        var costs = SIMD8<Float>(repeating: .infinity), next = costs
        var paths = (UInt128(0), UInt128(0), UInt128(0), UInt128(0), UInt128(0), UInt128(0), UInt128(0), UInt128(0))
        var nextPaths = paths
        for pass in 0..<passes {
            let tracking = pass == 0
            if !tracking && carrier.samples < 2 { break }
            var phase = carrier.fit()
            // The in-phase part of window w's samples, turned by the carrier phase there. The
            // turn is carried from sample to sample (windows come in order, a few samples
            // apart) and recomputed only when the phase line changes.
            var turn: (n: Int, c: Float, s: Float, step: (c: Float, s: Float))? = nil
            func project(_ w: Int) {
                guard width[w] > 0 else { return }
                let n = first[w]
                var t: (n: Int, c: Float, s: Float, step: (c: Float, s: Float))
                if let current = turn, current.n <= n {
                    t = current
                } else {
                    let th = phase.angle(at: Double(n) + 0.5)
                    t = (n, Float(Double.cos(th)), Float(Double.sin(th)), (Float(Double.cos(phase.slope)), Float(Double.sin(phase.slope))))
                }
                while t.n < n { (t.c, t.s) = (t.c * t.step.c - t.s * t.step.s, t.s * t.step.c + t.c * t.step.s); t.n += 1 }
                for i in 0..<width[w] {
                    if i > 0 { (t.c, t.s) = (t.c * t.step.c - t.s * t.step.s, t.s * t.step.c + t.c * t.step.s); t.n += 1 }
                    r[w * 3 + i] = iq[2 * (n + i)] * t.c + iq[2 * (n + i) + 1] * t.s
                }
                turn = t
            }
            // The amplitude of the pass's start: tracking it within the pass read two frames
            // fewer on the sweep.
            let a = amplitude
            // Squared misfit of window w with bits (w−2, w−1, w, w+1) = (b0, b1, b2, b3), for
            // all sixteen at once: lane (b0 b1 b2 b3) in binary, b0 the oldest bit; lane t is
            // the move from state t >> 1 to t & 7. Unused samples of a narrower window are zero
            // in every table: they add nothing.
            let laneBit3 = CoherentSlicer.laneBit3, laneBit2 = CoherentSlicer.laneBit2
            let laneBit1 = CoherentSlicer.laneBit1, laneBit0 = CoherentSlicer.laneBit0
            @inline(__always) func costs16(_ w: Int) -> SIMD16<Float> {
                let t = contribution + w &* 24
                let p = pre + w &* 3, x = r + w &* 3
                @inline(__always) func sample(_ i: Int) -> SIMD16<Float> {
                    var predicted = SIMD16<Float>(repeating: p[i])
                    predicted += CoherentSlicer.select(t[i], t[3 &+ i], laneBit3)
                    predicted += CoherentSlicer.select(t[6 &+ i], t[9 &+ i], laneBit2)
                    predicted += CoherentSlicer.select(t[12 &+ i], t[15 &+ i], laneBit1)
                    predicted += CoherentSlicer.select(t[18 &+ i], t[21 &+ i], laneBit0)
                    let d = SIMD16<Float>(repeating: x[i]) - SIMD16<Float>(repeating: a) * predicted
                    return d * d
                }
                var total = sample(0)
                total += sample(1)
                total += sample(2)
                return total
            }
            costs = SIMD8<Float>(repeating: .infinity)
            costs[0] = 0
            paths = (0, 0, 0, 0, 0, 0, 0, 0)
            project(0)
            var lastSegment = 0
            for k in 0..<112 {
                if k + 1 < 112 { project(k + 1) }
                // Add, compare, select for the eight states side by side: next state ns comes
                // from ns >> 1 (the oldest bit 0, lanes 0–7) or ns >> 1 | 4 (lanes 8–15), the
                // first on a tie; window k − 1 sees bits k − 3 … k. An unreachable state's cost
                // is infinite and stays so.
                var fromLow = SIMD8<Float>(costs[0], costs[0], costs[1], costs[1], costs[2], costs[2], costs[3], costs[3])
                var fromHigh = SIMD8<Float>(costs[4], costs[4], costs[5], costs[5], costs[6], costs[6], costs[7], costs[7])
                if k >= 1 {
                    let c = costs16(k - 1)
                    misfits[k - 1] = c
                    fromLow += c.lowHalf
                    fromHigh += c.highHalf
                }
                let high = unsafeBitCast(fromHigh .< fromLow, to: SIMD8<UInt32>.self)
                next = unsafeBitCast((unsafeBitCast(fromLow, to: SIMD8<UInt32>.self) & ~high)
                                     | (unsafeBitCast(fromHigh, to: SIMD8<UInt32>.self) & high), to: SIMD8<Float>.self)
                for ns in 0..<8 {
                    let s = (ns >> 1) | (high[ns] != 0 ? 4 : 0)
                    let bestPath = path(paths, s) << 1 | UInt128(ns & 1)
                    withUnsafeMutableBytes(of: &nextPaths) { $0.storeBytes(of: bestPath, toByteOffset: ns &* 16, as: UInt128.self) }
                }
                costs = next; paths = nextPaths
                // Track the carrier on the settled bits (those three behind the newest).
                if tracking && k >= 20 && k - lastSegment >= 16 {
                    var best = 0
                    for i in 1..<8 where costs[i] < costs[best] { best = i }
                    let settledEnd = k - 3
                    let path = path(paths, best)
                    let z = segment(iq, from: lastSegment, to: settledEnd, first: first, width: width, pre: pre, start40: s40) { j in
                        Int(truncatingIfNeeded: (path >> UInt128(k - j)) & 1)
                    }
                    carrier.add(time: s0 + Double((16 + lastSegment + settledEnd) * hb) / 40, z: (z.0, z.1), weight: z.2)
                    lastSegment = settledEnd
                    phase = carrier.fit()
                    turn = nil
                }
            }
            // The last window sees no bit after it.
            misfits[111] = costs16(111)
            for s in 0..<8 where costs[s].isFinite { costs[s] += cost(111, (s >> 2) & 1, (s >> 1) & 1, s & 1, 0) }
            var best = 0
            for i in 1..<8 where costs[i] < costs[best] { best = i }
            let raw = path(paths, best) << 16
            // The decided bits, two of padding (zeros) either side: `bits[j + 2]` is bit j.
            var bits = [Int](repeating: 0, count: 116)
            for j in 0..<112 { bits[j + 2] = Int(truncatingIfNeeded: (raw >> UInt128(127 - j)) & 1) }
            let bit = { (j: Int) -> Int in bits[j + 2] }
            // Each window's four decided bits as the lane of its misfits (`cost`), and its misfit
            // with them, shared by every inversion below. An inversion of bits in a window is
            // an XOR of that lane; the sums run in the same order as a window-by-window `cost`.
            for w in 0..<112 { pattern[w] = bits[w] &<< 3 | bits[w &+ 1] &<< 2 | bits[w &+ 2] &<< 1 | bits[w &+ 3] }
            for w in 0..<112 { own[w] = misfit[w &* 16 &+ pattern[w]] }
            // Reliability of each bit: the fit's loss with it inverted (neighbours kept). Bit k
            // is bit 3 − (k − w + 2) of window w's lane.
            var reliability = [Float](repeating: 0, count: 112)
            for k in 0..<112 {
                var delta: Float = 0
                for w in max(k - 1, 0)...min(k + 2, 111) {
                    delta += misfit[w &* 16 &+ (pattern[w] ^ (8 &>> (k &- w &+ 2)))] - own[w]
                }
                reliability[k] = delta
            }
            // Runs of equal bits inverted together: windows k − 1 … j + 2 see bits k … j; of
            // window w's bits w − 2 … w + 1, those from max(k, w − 2) to min(j, w + 1) are
            // inverted (never none).
            var runs: [Run] = []
            if longestRun > 1 { runs.reserveCapacity(112) }
            for k in 0..<(longestRun > 1 ? 111 : 0) {
                let v = bits[k + 2]
                var j = k + 1
                while j < 112 && j - k < longestRun && bits[j + 2] == v {
                    var delta: Float = 0
                    for w in max(k - 1, 0)...min(j + 2, 111) {
                        let low = max(k, w &- 2) &- (w &- 2), high = min(j, w &+ 1) &- (w &- 2)
                        let inverted = (16 &>> low) &- (8 &>> high)
                        delta += misfit[w &* 16 &+ (pattern[w] ^ inverted)] - own[w]
                    }
                    runs.append(Run(first: k, length: j - k + 1, reliability: delta))
                    j += 1
                }
            }
            decisions.append(Decision(raw: raw, reliability: reliability, runs: runs))
            // A pass that repeats the one before still has its own reliabilities (for the
            // repairs), but a further pass would repeat it again.
            if stop(decisions[decisions.count - 1]) { break }
            if decisions.count >= 2, decisions[decisions.count - 1].raw == decisions[decisions.count - 2].raw { break }
            guard pass + 1 < passes else { break }
            // Refit the carrier over the whole reply from these bits.
            var refit = Carrier(origin: s0)
            refit.add(time: s0 + 4.5 * Double(hb) / 40, z: (zr, zi), weight: pp)
            var from = 0
            while from < 112 {
                let to = min(from + 16, 112)
                let z = segment(iq, from: from, to: to, first: first, width: width, pre: pre, start40: s40, bit: bit)
                refit.add(time: s0 + Double((16 + from + to) * hb) / 40, z: (z.0, z.1), weight: z.2)
                from = to
            }
            carrier = refit
            amplitude = carrier.amplitude
        }
        return decisions
    }

    /// Lanes 0–15 whose index has bit 3, 2, 1 or 0 set (all ones), for `select`.
    static let laneBit3 = SIMD16<UInt32>(0, 0, 0, 0, 0, 0, 0, 0, ~0, ~0, ~0, ~0, ~0, ~0, ~0, ~0)
    static let laneBit2 = SIMD16<UInt32>(0, 0, 0, 0, ~0, ~0, ~0, ~0, 0, 0, 0, 0, ~0, ~0, ~0, ~0)
    static let laneBit1 = SIMD16<UInt32>(0, 0, ~0, ~0, 0, 0, ~0, ~0, 0, 0, ~0, ~0, 0, 0, ~0, ~0)
    static let laneBit0 = SIMD16<UInt32>(0, ~0, 0, ~0, 0, ~0, 0, ~0, 0, ~0, 0, ~0, 0, ~0, 0, ~0)

    /// `one` in the lanes of `mask`, `zero` in the others, exactly (bit patterns, no
    /// arithmetic).
    @inline(__always)
    static func select(_ zero: Float, _ one: Float, _ mask: SIMD16<UInt32>) -> SIMD16<Float> {
        let z = SIMD16<UInt32>(repeating: zero.bitPattern), o = SIMD16<UInt32>(repeating: one.bitPattern)
        return unsafeBitCast((z & ~mask) | (o & mask), to: SIMD16<Float>.self)
    }

    /// Survivor `i` of the eight.
    @inline(__always)
    private func path(_ paths: (UInt128, UInt128, UInt128, UInt128, UInt128, UInt128, UInt128, UInt128), _ i: Int) -> UInt128 {
        withUnsafeBytes(of: paths) { $0.loadUnaligned(fromByteOffset: i &* 16, as: UInt128.self) }
    }

    /// The complex correlation of the samples of bits [from, to) with the pulses those bits
    /// (`bit(j)`, 0 or 1) and the preamble make there, and the template's energy.
    private func segment(_ iq: UnsafePointer<Float>, from: Int, to: Int, first: [Int], width: [Int], pre: UnsafePointer<Float>,
                         start40 s40: Int, bit: (Int) -> Int) -> (Float, Float, Float) {
        var zr: Float = 0, zi: Float = 0, e: Float = 0
        let hb = halfBit40
        for w in from..<to {
            for i in 0..<width[w] {
                let n = first[w] + i
                var v = pre[w * 3 + i]
                for j in max(w - 2, 0)...min(w + 2, 111) {
                    v += pulse(n, s40 + (16 + 2 * j + (bit(j) == 1 ? 0 : 1)) * hb)
                }
                zr += iq[2 * n] * v; zi += iq[2 * n + 1] * v; e += v * v
            }
        }
        return (zr, zi, e)
    }
}
