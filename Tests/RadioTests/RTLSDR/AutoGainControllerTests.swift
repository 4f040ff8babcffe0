import Demod
import ModeS
import Testing
@testable import Radio
import RadioTestSupport

@Suite("AutoGainController")
struct AutoGainControllerTests {
    let gains = FakeRTLSDRDriver.r820tGains   // … 421 434 439 445 480 496

    private func observation(frames: UInt64 = 1000, strong: UInt64, noise: Double? = -40) -> AutoGainController.Observation {
        .init(frames: frames, strongFrames: strong, noiseFloorDBFS: noise)
    }

    @Test("starts at the tuner's highest gain; a requested start gain snaps to a supported one")
    func startingGain() throws {
        #expect(try #require(AutoGainController(supportedGains: gains)).gainTenths == 496)
        #expect(try #require(AutoGainController(supportedGains: gains, initialGain: 400)).gainTenths == 402)
        #expect(AutoGainController(supportedGains: []) == nil)
    }

    @Test("more than 5 % strong frames: one step down")
    func tooManyStrong() throws {
        var c = try #require(AutoGainController(supportedGains: gains))
        let d = c.observe(observation(strong: 80))
        #expect(d == .init(from: 496, to: 480, reason: .tooManyStrong(share: 0.08)))
        #expect(c.gainDB == 48.0)
        #expect(d.description == "gain 49.6 → 48.0 dB: 8.0 % of frames above −3 dBFS (aim 1–5 %)")
    }

    @Test("1–5 % strong frames and a quiet noise floor: hold")
    func inTarget() throws {
        var c = try #require(AutoGainController(supportedGains: gains, initialGain: 402))
        for strong: UInt64 in [10, 30, 50] {
            #expect(c.observe(observation(strong: strong)).reason == .inTarget(share: Double(strong) / 1000))
        }
        #expect(c.gainTenths == 402)
    }

    @Test("under 1 % strong frames: one step up, only after three such periods in a row")
    func tooFewStrongNeedsPatience() throws {
        var c = try #require(AutoGainController(supportedGains: gains, initialGain: 402))
        #expect(c.observe(observation(strong: 2)).reason == .waiting(periods: 1))
        #expect(c.observe(observation(strong: 2)).reason == .waiting(periods: 2))
        let d = c.observe(observation(strong: 2))
        #expect(d == .init(from: 402, to: 421, reason: .tooFewStrong(share: 0.002)))
        // An in-target period resets the count.
        _ = c.observe(observation(strong: 2))
        _ = c.observe(observation(strong: 20))
        #expect(c.observe(observation(strong: 2)).reason == .waiting(periods: 1))
    }

    @Test("a noise floor above −30 dBFS steps down even when the strong share is fine")
    func noiseTooHigh() throws {
        var c = try #require(AutoGainController(supportedGains: gains))
        let d = c.observe(observation(strong: 20, noise: -27.5))
        #expect(d == .init(from: 496, to: 480, reason: .noiseTooHigh(dBFS: -27.5)))
    }

    @Test("the demodulator's own noise measurement reaches the noise rule: loud noise steps the gain down")
    func demodulatedNoiseFiresTheRule() throws {
        // −25 dBFS of noise, above the −30 dBFS ceiling, through the real demodulator.
        var noise = ThermalNoise(powerDBFS: -25, seed: 5)
        var iq = [Float](repeating: 0, count: 2 * 3 * 65_536)
        noise.add(to: &iq)
        var demodulator = Demodulator(sampleRate: .rate2_4)
        demodulator.process(SampleBlock(bytes: iq.withUnsafeBytes { Array($0) }, format: .cf32, firstSample: 0)) { _ in }
        demodulator.finish { _ in }
        let seen = AutoGainController.Observation(period: demodulator.statistics)
        let floor = try #require(seen.noiseFloorDBFS)
        #expect(abs(floor - -25) < 1)
        var c = try #require(AutoGainController(supportedGains: gains))
        #expect(c.observe(seen).reason == .noiseTooHigh(dBFS: floor))
        #expect(c.gainTenths == 480)
    }

    @Test("no step up when it would lift the noise floor above the ceiling")
    func noiseWouldRise() throws {
        var c = try #require(AutoGainController(supportedGains: gains, initialGain: 445))
        // 44.5 → 48.0 dB adds 3.5 dB: −32 dBFS would become −28.5.
        let d = c.observe(observation(strong: 0, noise: -32))
        #expect(d.reason == .noiseWouldRise(dBFS: -28.5))
        #expect(!d.changed)
    }

    @Test("after overloading, the gain that overloaded is not tried again for holdPeriods periods")
    func holdOff() throws {
        var config = AutoGainController.Configuration()
        config.holdPeriods = 5
        config.raisePatience = 1
        var c = try #require(AutoGainController(supportedGains: gains, configuration: config))
        #expect(c.observe(observation(strong: 100)).to == 480)                   // period 1
        for _ in 2...5 { #expect(c.observe(observation(strong: 1)).reason == .heldOff(untilPeriod: 6)) }
        #expect(c.observe(observation(strong: 1)) == .init(from: 480, to: 496, reason: .tooFewStrong(share: 0.001)))
    }

    @Test("too few frames to judge the share: a quiet sky with low noise gets more gain; strong share is ignored")
    func quietSky() throws {
        var config = AutoGainController.Configuration()
        config.raisePatience = 1
        var c = try #require(AutoGainController(supportedGains: gains, initialGain: 402, configuration: config))
        #expect(c.observe(observation(frames: 12, strong: 6, noise: -45)) == .init(from: 402, to: 421, reason: .quietSky(frames: 12)))
        #expect(c.observe(observation(frames: 0, strong: 0, noise: nil)).reason == .quietSky(frames: 0))
    }

    @Test("at the tuner's limits the gain stays")
    func limits() throws {
        var low = try #require(AutoGainController(supportedGains: gains, initialGain: 0))
        #expect(low.observe(observation(strong: 500)) == .init(from: 0, to: 0, reason: .atLimit))
        var high = try #require(AutoGainController(supportedGains: gains))
        #expect(high.observe(observation(strong: 0)).reason == .atLimit)
    }

    @Test("an observation from a period's ReceptionStatistics: accepted frames, strong signals, mean noise in dBFS")
    func observationFromStatistics() {
        var stats = ReceptionStatistics()
        stats.accepted = (90, 8, 2)
        stats.strongSignals = 3
        stats.noisePowerSum = 0.01
        stats.noiseSamples = 10        // mean power 0.001 = −30 dBFS
        let o = AutoGainController.Observation(period: stats)
        #expect(o.frames == 100)
        #expect(o.strongFrames == 3)
        #expect(abs(o.noiseFloorDBFS! - -30) < 1e-9)
        #expect(o.strongShare == 0.03)
        #expect(AutoGainController.Observation(period: ReceptionStatistics()).noiseFloorDBFS == nil)
    }

    @Test("the controller remembers its last observation and decision for stats and the log")
    func exposesState() throws {
        var c = try #require(AutoGainController(supportedGains: gains))
        let o = observation(strong: 80)
        let d = c.observe(o)
        #expect(c.lastObservation == o)
        #expect(c.lastDecision == d)
        #expect(c.period == 1)
        #expect(c.ceilingIndex == gains.count - 1)
    }
}
