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
/// `maximumObservations` (at most 8 replies a noise window, 250 to 300 a second: about half a
/// second of a busy sky), after which the shape is fixed. A solve is taken only when it explains the
/// replies significantly better than the model (`solve`), so on a dongle the model already
/// describes nothing changes. On the real recording at 2.0 MS/s it learns from 48 replies in
/// its 0.18 s and takes a pulse sharper than the model's (peak 0.81 against 0.73): that
/// dongle's filter is wider than the RTL2832U model.
///
/// Cost: each reply learned from adds a few hundred samples' rows (each touching about a
/// dozen nodes), and a solve of the 105 (2.0 MS/s) or 127 (2.4 MS/s) nodes' equations comes
/// about ten times a run; the budget (`Demodulator.learnedPerWindow`) bounds both.
///
/// Only replies the current model fits well are used (residual beyond what the noise
/// explains under `maximumMisfit` of the reply's energy): a clean reply with no overlapping
/// one. The misfit shrinks as the shape converges, so the test is loose enough for the
/// model's error on any of the `ReceiveFilter` families. The noise's own share is taken off
/// first, so that weak replies teach too: where every reply is weak (a sky far away, or a
/// short recording at 5 dB) the residual of a perfect fit is already a third of the reply's
/// energy, and the test on the residual alone let through only the replies the noise
/// happened to spare (a third of them at 5 dB on the wide-band channel).
struct PulseLearner: Sendable {
    /// Ridge weight towards the model, and the second-difference weight, per node (a reply's
    /// rows add their squared interpolation weights, up to 1 a row, to each node's diagonal:
    /// a few replies outweigh the ridge; these were not tuned beyond `PulseLearningTests`).
    static let ridge = 0.5
    static let smoothness = 4.0
    /// The most residual energy, as a fraction of the fitted reply's, of a reply to learn from.
    static let maximumMisfit: Float = 0.3
    /// Observations after which the shape is fixed.
    /// (Each observation costs a start refinement, a retiming, a fit and a few tens of
    /// thousands of multiply-adds into the normal equations: on the dense recording 2 048 of
    /// them were a fifth of the run's CPU, 512 about 8 % (`perf`). 128 replies of a few
    /// hundred samples each still put hundreds of rows on every one of the ~100 nodes: the
    /// sweep, the four filter families at both rates and the real recordings read the same
    /// frames with 128 as with 512.)
    static let maximumObservations = 128

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

    /// Learns from a reply (as `ReplyFit` takes it) the current pulse fits well, received with
    /// noise of power `noise` (full scale 1; 0: unknown, the whole residual counts as misfit).
    /// Returns whether it was used.
    @discardableResult
    mutating func observe(_ iq: UnsafePointer<Float>, count: Int, start40: Int, frame: Frame, slicer: CoherentSlicer,
                          noise: Double = 0) -> Bool {
        guard isLearning, let fit = ReplyFit(iq, count: count, start40: start40, frame: frame, slicer: slicer),
              fit.misfit - fit.noiseShare(noise) < PulseLearner.maximumMisfit else { return false }
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
