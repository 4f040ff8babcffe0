import Demod
import ModeS
import Radio
import Testing

/// The simulator's sky through the real demodulator: what is sent comes back, nothing that
/// was not sent ever comes out, and sensitivity against SNR is pinned.
struct SimulatorRoundTripTests {
    struct Outcome {
        var truth: [TruthRecord]
        var found: [DemodulatedFrame]
    }

    static func roundTrip(snr: Double, aircraft: Int, seconds: Double, seed: UInt64, levels: ClosedRange<Double> = -30 ... -3) -> Outcome {
        let configuration = SkyConfiguration(seed: seed, aircraftCount: aircraft, sampleRate: .rate2_4, format: .uc8, snr: snr, levels: levels)
        let source = SimulatorSource(configuration: configuration, duration: seconds, blockSize: 1 << 16)
        var demodulator = Demodulator(sampleRate: .rate2_4)
        var found: [DemodulatedFrame] = []
        while let block = try? source.nextBlock() { demodulator.process(block) { found.append($0) } }
        demodulator.finish { found.append($0) }
        return Outcome(truth: source.takeTruth(), found: found)
    }

    /// Truth frames that no other transmission overlaps in time.
    static func isolated(_ truth: [TruthRecord]) -> [TruthRecord] {
        let spans = truth.map { t in (t.startTick, t.startTick + UInt64(8 + t.frame.bitCount) * 12) }
        return truth.enumerated().filter { i, _ in
            !spans.enumerated().contains { j, s in j != i && s.0 < spans[i].1 && spans[i].0 < s.1 }
        }.map(\.1)
    }

    @Test func atHighSNREveryIsolatedFrameComesBackAndNothingElse() {
        let outcome = Self.roundTrip(snr: 30, aircraft: 8, seconds: 1.5, seed: 11, levels: -24 ... -6)
        let sent = Set(outcome.truth.map(\.frame))
        // No false frames: every output frame was transmitted.
        for f in outcome.found { #expect(sent.contains(f.received.frame), "not sent: \(f.received.frame)") }
        // Every isolated squitter comes back; an address/parity reply does once its aircraft
        // was heard in the clear (the receiver cannot tell it from noise before that).
        let found = Set(outcome.found.map(\.received.frame))
        var heard = Set<UInt32>()
        var checked = 0
        let isolated = Set(Self.isolated(outcome.truth).map(\.frame))
        for t in outcome.truth {
            let df = t.frame.downlinkFormat
            let clear = df == 11 || df == 17 || df == 18
            if isolated.contains(t.frame) && (clear || heard.contains(t.address)) {
                #expect(found.contains(t.frame), "missed \(t.kind) \(t.frame) at tick \(t.startTick)")
                checked += 1
            }
            if clear && found.contains(t.frame) { heard.insert(t.address) }
        }
        #expect(checked > 50)
        // Timestamps agree with the truth to within one sample (5 ticks at 2.4 MS/s).
        // (A frame can be sent more than once: compare with the nearest sending.)
        let stamps = Dictionary(grouping: outcome.truth, by: \.frame).mapValues { $0.map { Int64($0.startTick + 768) } }
        for f in outcome.found {
            guard let candidates = stamps[f.received.frame] else { continue }
            let error = candidates.map { abs(Int64(f.received.timestamp) - $0) }.min() ?? .max
            #expect(error <= 5)
        }
    }

    /// Fraction of isolated DF11/17 frames decoded per SNR of the weakest aircraft. The floor
    /// values are what the demodulator reached when this test was written: it may get better,
    /// never silently worse.
    @Test(arguments: [(20.0, 0.98), (12.0, 0.95), (8.0, 0.65), (5.0, 0.34)])
    func sensitivityCurveIsPinned(snr: Double, floor: Double) {
        let outcome = Self.roundTrip(snr: snr, aircraft: 20, seconds: 1.0, seed: 7)
        let sent = Set(outcome.truth.map(\.frame))
        for f in outcome.found { #expect(sent.contains(f.received.frame), "false frame at SNR \(snr)") }
        let targets = Self.isolated(outcome.truth).filter { [11, 17].contains($0.frame.downlinkFormat) }
        let found = Set(outcome.found.map(\.received.frame))
        let fraction = Double(targets.filter { found.contains($0.frame) }.count) / Double(max(targets.count, 1))
        #expect(targets.count > 50)
        #expect(fraction >= floor, "SNR \(snr) dB: \(fraction) decoded")
    }
}
