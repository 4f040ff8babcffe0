@testable import Demod
import ModeS
import Radio
import Testing

/// The coherent pass's stronger repair for firm decisions (`Tuning.strongErasureBits`,
/// `Demodulator.isFirm`): a decision whose bits the fit holds firmly (median reliability at
/// least `strongDecisionReliability` noise powers) is repaired over more error events. Real
/// replies' decisions are firm, noise's are not, so the larger bound per decision is paid on
/// few of noise's decisions.
struct FirmRepairTests {
    /// The test frames decoded of `scenario`, its false frames, and the coherent path's
    /// squitter repairs (plain, firm), with `tuning`.
    static func run(_ scenario: SensitivityScenario, tuning: Demodulator.Tuning = .init()) -> (tests: Int, falseFrames: Int, plain: UInt64, firm: UInt64) {
        let (demodulator, score) = PulseLearningTests.run(scenario, tuning: tuning)
        return (score.testsDecoded, score.falseFrames, demodulator.squitterRepairs.coherent, demodulator.strongSquitterRepairs)
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

    @Test("On noise the decisions that reach the repair are not firm", arguments: [SampleRate.rate2_0, .rate2_4])
    func noiseDecisionsAreNotFirm(rate: SampleRate) {
        // 12 000 noise-only "frames" of 400 µs: 4.8 s of noise.
        let noise = SensitivityScenario(seed: 32, count: 12_000, snr: -.infinity, sampleRate: rate, fruitRate: 0)
        let run = Self.run(noise)
        #expect(run.falseFrames == 0)
        #expect(run.plain > 0, "\(rate): noise reached the repair")
        #expect(run.firm * 10 <= run.plain, "\(rate): \(run.firm) firm of \(run.plain + run.firm)")
    }
}
