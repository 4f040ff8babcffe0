import ArgumentParser
import Demod
import ModeS
import Testing
@testable import FlyTrackerCLI

/// `flytracker bench --noise SECONDS`: realistic-channel noise through the default
/// demodulator, both rates side by side, with its false frames and soft repairs counted.
struct NoiseBenchCommandTests {
    @Test(arguments: [["bench", "--noise", "0"], ["bench", "--noise", "-5"], ["bench", "--noise", "100000"],
                      ["bench", "--noise", "60", "--sensitivity"], ["bench", "--noise", "60", "--sample-rate", "3M"]])
    func aDurationOutOfRangeIsRefused(arguments: [String]) {
        #expect(throws: (any Error).self) { try FlyTracker.parseAsRoot(arguments) }
    }

    /// Five seconds of noise at each rate: no false frame, and the soft repairs the noise
    /// reached are counted (at 2.0 MS/s noise passes the detector more often: some always do)
    /// on both paths, with what the bound expects of them (each path's attempts at its own
    /// bound, and the coherent pass's format guesses), far under one.
    @Test func fiveSecondsOfNoiseGiveNoFrameAndCountTheRepairsTried() {
        let bench = NoiseBenchmark(seconds: 5, rates: [.rate2_4, .rate2_0], seed: 2)
        let rows = [SampleRate.rate2_4, .rate2_0].map { bench.measure(rate: $0) }
        for row in rows {
            #expect(row.samples == UInt64(5 * row.rate.hertz))
            #expect(row.falseFrames == 0 && row.newAddresses.isEmpty, "\(row.rate): \(row.framesByDF)")
            #expect(row.expected < 0.01)
        }
        #expect(rows[1].squitterRepairs.magnitude > 0 && rows[1].squitterRepairs.coherent > 0 && rows[1].preambles > 0)
        #expect(rows[1].formatGuesses > 0, "the coherent pass's decisions on noise name formats it does not take, some near DF17/18")
        let tuning = Demodulator.Tuning()
        // Each path's attempts at its own bound, the coherent ones' too (fewer erasures there).
        let magnitudeBound = ErasureRepair.falseAcceptBound(erasures: tuning.unknownRepairBits, maximumFlips: tuning.unknownRepairBits)
        let coherentBound = ErasureRepair.falseAcceptBound(erasures: tuning.coherentErasureBits, maximumFlips: tuning.coherentErasureFlips)
        #expect(coherentBound > 0 && coherentBound != magnitudeBound)
        for row in rows {
            let attempts = row.squitterRepairs
            // And each format guess of the coherent pass, one exact parity check: 2⁻²⁴.
            // The firm decisions' repairs at theirs (more events, a larger bound), few on noise.
            let firmBound = ErasureRepair.falseAcceptBound(erasures: tuning.strongErasureBits, maximumFlips: tuning.strongErasureFlips)
            let steadyBound = ErasureRepair.falseAcceptBound(erasures: tuning.steadyErasureBits, maximumFlips: tuning.steadyErasureFlips)
            #expect(coherentBound < steadyBound && steadyBound < firmBound)
            #expect((row.steadySquitterRepairs + row.strongSquitterRepairs) * 10 <= max(attempts.coherent, 10),
                    "\(row.rate): \(row.steadySquitterRepairs) steady of \(attempts.coherent)")
            #expect(row.strongSquitterRepairs * 10 <= max(attempts.coherent, 10), "\(row.rate): \(row.strongSquitterRepairs) firm of \(attempts.coherent)")
            let bound = Double(attempts.magnitude) * magnitudeBound + Double(attempts.coherent) * coherentBound
                + Double(row.steadySquitterRepairs) * steadyBound + Double(row.strongSquitterRepairs) * firmBound + Double(row.formatGuesses) / Double(1 << 24)
            #expect(abs(row.expected - bound) <= 1e-12 * max(1, bound), "\(row.rate): \(row.expected) for \(attempts)")
        }
        var lines: [String] = []
        NoiseBenchmark(seconds: 1, rates: [.rate2_4], seed: 2).run { lines.append($0) }
        #expect(lines.contains { $0.hasPrefix("2.4M | 1 | 0 | 0 |") }, "\(lines)")
    }
}
