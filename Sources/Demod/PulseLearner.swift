import ModeS
import RealModule

/// Learns the receive chain's pulse response (`PulseResponse`) from the replies a receiver
/// decodes with certainty, so the coherent pass (`CoherentSlicer`) fits each weak reply with
/// the pulses this dongle really makes rather than the RTL2832U model's.
///
/// A reply decoded with clean parity gives every pulse's start (the preamble's fit, to an
/// eighth of a sample) and, once its carrier is fitted on those pulses (its frequency from the
/// turn between neighbouring samples, as real transponders lie tens of kHz off: −126 to
/// +19 kHz on the real recording; then its phase line), its in-phase samples:
/// y[n] = A · Σ_p g(n + ½ − a_p) + noise. Divided by the fitted amplitude A this is linear in
/// the nodes of g (each term two nodes, by the linear interpolation between them), so every
/// sample adds one row to a least-squares problem whose normal equations are summed here:
/// (Σ w wᵀ) g = Σ w y. The solve is regularised towards the RTL2832U model (ridge λ and a
/// penalty μ on second differences of the departure, so a node the replies rarely reach keeps
/// the model's value and noise does not make it ragged), and the result normalised to the
/// model's area (the fitted amplitude absorbs any gain). Starting from the model, the shape
/// converges as replies come: solves at 16, 32, 64 … observations, the last at
/// `maximumObservations` (at most 8 replies a noise window, 250 to 300 a second: about 2 s of
/// a busy sky), after which the shape is fixed. A solve is taken only when it explains the
/// replies significantly better than the model (`solve`), so on a dongle the model already
/// describes nothing changes. On the real recording at 2.0 MS/s it learns from 48 replies in
/// its 0.18 s and takes a pulse sharper than the model's (peak 0.81 against 0.73): that
/// dongle's filter is wider than the RTL2832U model.
///
/// Cost: each reply learned from adds a few hundred samples' rows (each touching about a
/// dozen nodes), and a solve of the 105 (2.0 MS/s) or 127 (2.4 MS/s) nodes' equations comes
/// about ten times a run; the budget (`Demodulator.learnedPerWindow`) bounds both.
///
/// Only replies the current model fits well are used (residual under `maximumMisfit` of the
/// reply's energy): a strong, clean reply with no overlapping one. The misfit shrinks as the
/// shape converges, so the test is loose enough for the model's error on any of the
/// `ReceiveFilter` families.
struct PulseLearner: Sendable {
    /// Ridge weight towards the model, and the second-difference weight, per node (a reply's
    /// rows add their squared interpolation weights, up to 1 a row, to each node's diagonal:
    /// a few replies outweigh the ridge; these were not tuned beyond `PulseLearningTests`).
    static let ridge = 0.5
    static let smoothness = 4.0
    /// The most residual energy, as a fraction of the fitted reply's, of a reply to learn from.
    static let maximumMisfit: Float = 0.3
    /// Observations after which the shape is fixed.
    /// (Each observation costs a fit and a few tens of thousands of multiply-adds into the
    /// normal equations: on the dense recording 2 048 of them were a fifth of the run's CPU;
    /// 512 rows of a few hundred samples each fix ~100 nodes far more tightly than needed.)
    static let maximumObservations = 512

    /// The model the solve is regularised towards.
    let prior: PulseResponse
    /// Normal equations over the nodes of g (row-major; only the upper triangle, i ≤ j, is
    /// summed: the matrix is symmetric, `symmetricGram` fills in the rest) and their
    /// right-hand side.
    private var gram: [Double]
    private var rhs: [Double]
    /// Σ y² and the rows summed: with `gram` and `rhs`, the residual of any response.
    private var squares = 0.0
    private var rows = 0
    /// Replies learned from.
    private(set) var observations = 0
    /// The observation count at which the next solve is due.
    private var nextSolve = 16

    init(prior: PulseResponse) {
        self.prior = prior
        gram = [Double](repeating: 0, count: prior.values.count * prior.values.count)
        rhs = [Double](repeating: 0, count: prior.values.count)
    }

    /// Whether more replies are wanted.
    var isLearning: Bool { observations < PulseLearner.maximumObservations }
    /// Whether enough new replies have come for a solve.
    var isDue: Bool { observations >= nextSolve }

    /// A reply fitted with a pulse response: every pulse's start (fortieths), the samples
    /// covered, their in-phase part after the fitted carrier, the fitted amplitude, and the
    /// residual energy (in-phase misfit and all the quadrature) over the fitted reply's.
    struct Fit {
        var starts: [Int]
        var inPhase: [Float]
        var amplitude: Float
        var misfit: Float
    }

    /// Fits a reply whose bits are `frame` and whose preamble starts at `start40` fortieths
    /// of a sample after `iq`'s first sample (`count` interleaved I/Q samples, full scale 1)
    /// with `slicer`'s pulse: the carrier's phase line over eight stretches, then the amplitude.
    static func fit(_ iq: UnsafePointer<Float>, count: Int, start40 s40: Int, frame: Frame, slicer: CoherentSlicer) -> Fit? {
        guard s40 >= 0 else { return nil }
        let hb = slicer.halfBit40
        // Every pulse's start, fortieths: the preamble's four, then one a bit.
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
        return Fit(starts: starts, inPhase: inPhase, amplitude: amplitude, misfit: misfit / (amplitude * amplitude * mm))
    }

    /// Learns from a reply (as `fit` takes it) the current pulse fits well. Returns whether
    /// it was used.
    @discardableResult
    mutating func observe(_ iq: UnsafePointer<Float>, count: Int, start40: Int, frame: Frame, slicer: CoherentSlicer) -> Bool {
        guard isLearning, let fit = PulseLearner.fit(iq, count: count, start40: start40, frame: frame, slicer: slicer),
              fit.misfit < PulseLearner.maximumMisfit else { return false }
        // One row a sample: two nodes a pulse within reach.
        let nodes = prior.values.count
        let perSample = Double(PulseResponse.nodesPerSample)
        let pairs = 2 * fit.starts.count
        // Accumulated in locals and written back in the same order (the sums are the same to
        // the bit); the normal equations through pointers taken once a reply, not once a row:
        // tens of thousands of multiply-adds a reply, where the arrays' checks would cost more
        // than the arithmetic.
        var sumOfSquares = squares
        var rowCount = rows
        gram.withUnsafeMutableBufferPointer { g in
            rhs.withUnsafeMutableBufferPointer { r in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: pairs) { x in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: pairs) { w in
                        var lowest = 0
                        for n in fit.inPhase.indices {
                            let y = Double(fit.inPhase[n] / fit.amplitude)
                            sumOfSquares += y * y
                            rowCount += 1
                            var used = 0
                            // The starts are in time order: skip those whose pulse ended before
                            // this sample, stop at the first that begins after it.
                            while lowest < fit.starts.count,
                                  (Double(n) + 0.5 - Double(fit.starts[lowest]) / 40 - prior.first) * perSample >= Double(nodes - 1) { lowest += 1 }
                            for a in fit.starts[lowest...] {
                                let position = (Double(n) + 0.5 - Double(a) / 40 - prior.first) * perSample
                                if position < 0 { break }
                                guard position < Double(nodes - 1) else { continue }
                                let k = Int(position), f = position - Double(k)
                                x[used] = k; w[used] = 1 - f
                                x[used + 1] = k + 1; w[used + 1] = f
                                used += 2
                            }
                            // Each unordered pair once, into the upper triangle; a pair on one
                            // node is both (i, j) and (j, i) of the full product.
                            for i in 0..<used {
                                let wi = w[i], xi = x[i]
                                r[xi] += wi * y
                                g[xi * nodes + xi] += wi * wi
                                for j in (i + 1)..<used {
                                    let xj = x[j], product = wi * w[j]
                                    if xi == xj { g[xi * nodes + xi] += 2 * product }
                                    else { g[min(xi, xj) * nodes + max(xi, xj)] += product }
                                }
                            }
                        }
                    }
                }
            }
        }
        squares = sumOfSquares
        rows = rowCount
        observations += 1
        return true
    }

    /// The pulse response the replies so far say, regularised towards the model and scaled to
    /// its area, or nil while it is no better than the model; schedules the next solve.
    mutating func solve() -> PulseResponse? {
        nextSolve = min(2 * max(observations, 1), PulseLearner.maximumObservations)
        let n = prior.values.count
        let g0 = prior.values.map(Double.init)
        // Solve (G + P) d = c − G g0 for the departure d from the model, P = λI + μDᵀD.
        let gram = symmetricGram()
        var a = gram
        var b = rhs
        for i in 0..<n {
            var gg = 0.0
            for j in 0..<n { gg += gram[i * n + j] * g0[j] }
            b[i] -= gg
            a[i * n + i] += PulseLearner.ridge
        }
        // DᵀD of the second difference (1, −2, 1) over the nodes.
        for k in 1..<(n - 1) {
            let taps = [(k - 1, 1.0), (k, -2.0), (k + 1, 1.0)]
            for (i, wi) in taps { for (j, wj) in taps { a[i * n + j] += PulseLearner.smoothness * wi * wj } }
        }
        guard let d = PulseLearner.choleskySolve(a, b, n) else { return nil }
        var g = zip(g0, d).map { $0 + $1 }
        let area = g.reduce(0, +) / Double(PulseResponse.nodesPerSample)
        guard area > 0 else { return nil }
        let scale = prior.area / area
        g = g.map { $0 * scale }
        // Taken only if it explains the replies better than the model by more than its own
        // freedom would by chance (the Bayesian information criterion: ln(rows)·σ² a node).
        // On the model's own filter it is not (the learned one's gain, about 1σ² a node at
        // 2.4 MS/s and 5σ² at 2.0 MS/s after 32 replies, is the start's quantisation); on the
        // other families it is by 70 to 900σ² a node.
        let learned = residual(g, gram), model = residual(g0, gram)
        let variance = learned / Double(max(rows - n, 1))
        guard model - learned > Double.log(Double(max(rows, 3))) * Double(n) * variance else { return nil }
        return PulseResponse(first: prior.first, values: g.map { Float($0) })
    }

    /// The normal equations' full matrix: the summed upper triangle mirrored.
    private func symmetricGram() -> [Double] {
        let n = prior.values.count
        var full = gram
        for i in 0..<n { for j in 0..<i { full[i * n + j] = gram[j * n + i] } }
        return full
    }

    /// The summed squared residual of the replies so far with response nodes `g` (`gram`:
    /// the full matrix):
    /// Σy² − 2gᵀc + gᵀGg.
    private func residual(_ g: [Double], _ gram: [Double]) -> Double {
        let n = g.count
        var total = squares
        for i in 0..<n {
            var row = 0.0
            for j in 0..<n { row += gram[i * n + j] * g[j] }
            total += g[i] * row - 2 * g[i] * rhs[i]
        }
        return total
    }

    /// Solves A x = b, A symmetric positive definite (row-major n × n); nil if it is not.
    static func choleskySolve(_ matrix: [Double], _ b: [Double], _ n: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = matrix[i * n + j]
                for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    guard sum > 0 else { return nil }
                    l[i * n + i] = sum.squareRoot()
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = b
        for i in 0..<n {
            for k in 0..<i { y[i] -= l[i * n + k] * y[k] }
            y[i] /= l[i * n + i]
        }
        var x = y
        for i in stride(from: n - 1, through: 0, by: -1) {
            for k in (i + 1)..<n { x[i] -= l[k * n + i] * x[k] }
            x[i] /= l[i * n + i]
        }
        return x
    }
}
