import Demod
import Foundation
import ModeS
import Radio
import Testing

struct SensitivityScenarioTests {
    @Test func theSameSeedGivesTheSameSignalAndAnotherSeedAnother() {
        let a = SensitivityScenario(seed: 3, count: 20, snr: 10).render()
        let b = SensitivityScenario(seed: 3, count: 20, snr: 10).render()
        let c = SensitivityScenario(seed: 4, count: 20, snr: 10).render()
        #expect(a.bytes == b.bytes && a.sent == b.sent)
        #expect(a.bytes != c.bytes)
    }

    @Test(arguments: [SampleRate.rate2_4, .rate2_0])
    func testFramesAreRandomValidSquittersOnePerSlot(rate: SampleRate) {
        let scenario = SensitivityScenario(seed: 5, count: 100, snr: 10, sampleRate: rate, fruitRate: 0)
        let tests = scenario.frames()
        #expect(tests.count == 100)
        #expect(Set(tests.map { $0.transmission.frame }).count == 100)
        let slot = Double(scenario.slotMicroseconds) * Double(rate.hertz) / 1e6
        for (i, t) in tests.enumerated() {
            #expect(t.transmission.frame.downlinkFormat == 17)
            #expect(ParityCheck.check(t.transmission.frame)?.outcome == .ok)
            // Inside slot i + 1 with its whole 120 µs.
            #expect(t.sample >= Double(i + 1) * slot && t.sample + 120e-6 * Double(rate.hertz) < Double(i + 2) * slot)
            #expect(abs(t.transmission.frequencyOffset) <= 3000)
        }
        // Sub-sample timing spread over the whole sample (not only the 12 MHz ticks).
        let fractions = Set(tests.map { Int(($0.sample - $0.sample.rounded(.down)) * 10) })
        #expect(fractions.count >= 9)
    }

    @Test func snrIsTheMessagePowerOverTheNoisePower() {
        // The noise, measured where nothing is sent (cf32: nothing quantised), is at the
        // stated level; each test frame's pulses are 0.5 µs each, 4 in the preamble and one per
        // bit, over 8 + 112 µs: mean power A²·58/120, which is the noise power times 10^(SNR/10).
        let scenario = SensitivityScenario(seed: 9, count: 40, snr: 10, format: .cf32, channel: .ideal, fruitRate: 0)
        let signal = scenario.render()
        let iq = SampleQuantizer.dequantize(signal.bytes, format: .cf32)
        let quiet = 0..<Int(signal.tests[0].sample) - 10
        let noise = quiet.reduce(0.0) { $0 + Double(iq[2 * $1] * iq[2 * $1] + iq[2 * $1 + 1] * iq[2 * $1 + 1]) } / Double(quiet.count)
        #expect(abs(10 * noise.log10Safe - scenario.noiseDBFS) < 0.2)
        for t in signal.tests {
            let a = t.transmission.amplitude
            let snr = 10 * (a * a * 58 / 120 / Foundation.pow(10, scenario.noiseDBFS / 10)).log10Safe
            #expect(abs(snr - 10) < 1e-9)
        }
    }

    @Test func scoringCountsEachFrameOnceAndNamesTheRest() {
        let scenario = SensitivityScenario(seed: 2, count: 5, snr: 10, fruitRate: 0)
        let sent = scenario.frames()
        let a = sent[0], b = sent[1]
        let stray = Frame.allCall(address: 0xABCDEF)
        let score = SensitivityScore(sent: sent, decoded: [
            (a.transmission.frame, UInt64(a.sample.rounded())), (a.transmission.frame, UInt64(a.sample.rounded()) + 1),
            (b.transmission.frame, UInt64(b.sample) + 50),  // right bits, wrong place: false
            (stray, 10),
        ])
        #expect(score.tests == 5 && score.testsDecoded == 1 && score.duplicates == 1)
        #expect(score.falseFrames == 2 && score.falseByDF == [17: 1, 11: 1])
        #expect(score.falseAddresses == [0xABCDEF, UInt32(b.transmission.frame.bits(9, 32))])
    }
}

private extension Double {
    var log10Safe: Double { Foundation.log10(Swift.max(self, 1e-30)) }
}
