@testable import Demod
import ModeS
import Radio
import Testing

/// The coherent pass's stronger repairs for firmly held decisions (`Demodulator.Hold`,
/// `Tuning.strongErasureBits`, `steadyErasureBits`): a decision whose bits the fit holds firmly
/// (median reliability at least `strongDecisionReliability` noise powers, or at least
/// `steadyDecisionReliability` with the firm repair's edge event at `firmEdgeReliability`) is
/// repaired over more error events, a steady one over a few more. Real replies' decisions are
/// held so, noise's are not, so the larger bounds per decision are paid on few of noise's.
struct FirmRepairTests {
    /// The test frames decoded of `scenario`, its false frames, and the coherent path's
    /// squitter repairs (loose, steady, firm), with `tuning`.
    static func run(_ scenario: SensitivityScenario, tuning: Demodulator.Tuning = .init())
        -> (tests: Int, falseFrames: Int, plain: UInt64, steady: UInt64, firm: UInt64) {
        let (demodulator, score) = PulseLearningTests.run(scenario, tuning: tuning)
        return (score.testsDecoded, score.falseFrames, demodulator.squitterRepairs.coherent, demodulator.steadySquitterRepairs,
                demodulator.strongSquitterRepairs)
    }

    /// A 112-bit decision whose bits 5 … 20 have the reliabilities `low` (the sixteen least
    /// reliable events: no runs) and every other bit `median`, in noise powers of `noise`.
    static func decision(median: Float, low: [Float], noise: Float) -> CoherentSlicer.Decision {
        var reliability = [Float](repeating: median * noise, count: 112)
        for (i, r) in low.enumerated() { reliability[5 + i] = r * noise }
        return CoherentSlicer.Decision(raw: 0, reliability: reliability)
    }

    @Test("A decision is held by its median reliability, and between the gates by the firm repair's edge event")
    func holdFollowsTheMedianAndTheEdge() {
        let demodulator = Demodulator(sampleRate: .rate2_0)
        let tuning = demodulator.tuning
        let noise: Float = 1e-3
        // Sixteen unsure events, the sixteenth (the edge) at `edge` noise powers.
        func low(edge: Float) -> [Float] { (0..<15).map { Float($0) * 0.1 } + [edge] }
        func hold(median: Float, edge: Float, noise: Float? = noise, with tuning: Demodulator.Tuning = tuning) -> Demodulator.Hold {
            var d = demodulator
            d.tuning = tuning
            let decision = Self.decision(median: median, low: low(edge: edge), noise: noise ?? 1e-3)
            let ranked = CoherentSlicer.ratedLeastReliableEvents(decision, bitCount: 112, count: tuning.strongErasureBits).reliabilities
            return d.hold(decision, bitCount: 112, noise: noise, ranked: ranked)
        }
        let between = (tuning.steadyDecisionReliability + tuning.strongDecisionReliability) / 2
        #expect(hold(median: tuning.strongDecisionReliability + 0.1, edge: 1.5) == .firm, "over the firm gate: the edge does not matter")
        #expect(hold(median: between, edge: tuning.firmEdgeReliability + 0.1) == .firm, "every event out of the repair's reach well above the noise")
        #expect(hold(median: between, edge: tuning.firmEdgeReliability - 0.1) == .steady)
        #expect(hold(median: tuning.steadyDecisionReliability - 0.1, edge: 4) == .loose)
        #expect(hold(median: 10, edge: 4, noise: nil) == .loose, "noise unknown")
        var off = tuning
        off.strongErasureFlips = 0
        #expect(hold(median: 10, edge: 4, with: off) == .loose, "the stronger repairs off")
        // Each hold's repair: more events and flips, the larger its bound.
        let bounds = [Demodulator.Hold.loose, .steady, .firm].map { demodulator.erasures($0) }
            .map { ErasureRepair.falseAcceptBound(erasures: $0.events, maximumFlips: $0.flips) }
        #expect(bounds == bounds.sorted() && Set(bounds).count == 3, "\(bounds)")
    }

    @Test("Steady decisions and the edge rule read more weak replies at 2.0 MS/s, no false frame")
    func steadyDecisionsAreRepairedOverMoreEvents() {
        // 2.0 MS/s, 7.5 dB: seed 33 reads 284 of 1000 with the steady hold, 271 with only the firm gate.
        let scenario = SensitivityScenario(seed: 33, count: 1000, snr: 7.5, sampleRate: .rate2_0, fruitRate: 200)
        var firmOnly = Demodulator.Tuning()
        firmOnly.steadyDecisionReliability = firmOnly.strongDecisionReliability
        let with = Self.run(scenario), without = Self.run(scenario, tuning: firmOnly)
        #expect(with.tests >= without.tests + 8, "\(with.tests) with steady decisions' repair, \(without.tests) without")
        #expect(with.falseFrames == 0 && without.falseFrames == 0)
        #expect(with.steady > 0 && without.steady == 0)
    }

    @Test("Weak replies at 2.0 MS/s and 8 dB: the firm decisions' repair reads more, no false frame", arguments: [SampleRate.rate2_0, .rate2_4])
    func firmDecisionsAreRepairedOverMoreEvents(rate: SampleRate) {
        let scenario = SensitivityScenario(seed: 31, count: 500, snr: rate == .rate2_0 ? 8 : 6, sampleRate: rate, fruitRate: 200)
        var plain = Demodulator.Tuning()
        plain.strongErasureFlips = 0
        let with = Self.run(scenario), without = Self.run(scenario, tuning: plain)
        #expect(with.tests >= without.tests + 15, "\(rate): \(with.tests) with the firm repair, \(without.tests) without")
        #expect(with.falseFrames == 0 && without.falseFrames == 0)
        // The replies' decisions that reach the repair are mostly firm.
        #expect(with.firm > with.plain, "\(rate): \(with.firm) firm, \(with.plain) not")
        #expect(without.firm == 0)
    }

    @Test("A firm decision's repair whose inverted events are less likely than a random syndrome's solution is refused")
    func unlikelyRepairsAreRefused() {
        // Held out from the sweep's tuning (seed 2, the Nyquist-sinc channel, 2.0 MS/s, 8 dB): one
        // firm decision (median reliability 10.7 noise powers) solved by inverting four events
        // whose reliabilities sum to 11.8 noise powers, over the 8.8 of its bound: a false DF17.
        let scenario = SensitivityScenario(seed: 2, count: 1000, snr: 8, sampleRate: .rate2_0, channel: .realistic(.nyquistSinc), fruitRate: 200)
        var unweighed = Demodulator.Tuning()
        unweighed.weighsRepairs = false
        let weighed = Self.run(scenario), plain = Self.run(scenario, tuning: unweighed)
        #expect(plain.falseFrames == 1)
        #expect(weighed.falseFrames == 0)
        #expect(weighed.tests >= plain.tests - 2, "\(weighed.tests) weighed, \(plain.tests) not")
    }

    @Test("On noise the decisions that reach the repair are neither firm nor steady", arguments: [SampleRate.rate2_0, .rate2_4])
    func noiseDecisionsAreNotFirm(rate: SampleRate) {
        // 12 000 noise-only "frames" of 400 µs: 4.8 s of noise.
        let noise = SensitivityScenario(seed: 32, count: 12_000, snr: -.infinity, sampleRate: rate, fruitRate: 0)
        let run = Self.run(noise)
        #expect(run.falseFrames == 0)
        #expect(run.plain > 0, "\(rate): noise reached the repair")
        #expect((run.steady + run.firm) * 10 <= run.plain, "\(rate): \(run.steady) steady, \(run.firm) firm of \(run.plain + run.steady + run.firm)")
    }
}
