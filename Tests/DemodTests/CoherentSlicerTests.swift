import Testing
@testable import Demod
import ModeS

/// The coherent sequence search (`CoherentSlicer`) on band-limited replies rendered by the
/// simulator's RTL2832U channel (`BandLimitedModulator`), and its place in the demodulator.
struct CoherentSlicerTests {
    static let squitter = try! Frame(hex: "8D4840D6202CC371C32CE0576098")

    /// One reply in an otherwise silent (or noisy) stretch: interleaved I/Q floats from its
    /// preamble's start sample on, and its true start in fortieths of a sample from there.
    static func render(_ frame: Frame, rate: SampleRate, subSample: Double, phase: Double, frequency: Double,
                       amplitude: Double = 0.3, noiseDBFS: Double? = nil, seed: UInt64 = 1) -> (iq: [Float], start40: Int) {
        let ticks = Double(rate.ticksPerSample)
        // Start 20 samples in, plus the sub-sample part (in ticks and a fraction of one).
        let startTicks = 20 * ticks + subSample * ticks
        let t = Transmission(frame: frame, startTick: UInt64(startTicks), amplitude: amplitude, phase: phase,
                             frequencyOffset: frequency, subTick: startTicks - startTicks.rounded(.down))
        var iq = [Float](repeating: 0, count: 2 * 400)
        let modulator = BandLimitedModulator(sampleRate: rate)
        iq.withUnsafeMutableBufferPointer { modulator.add(t, into: $0, firstSample: 0) }
        if let noiseDBFS {
            var noise = ThermalNoise(powerDBFS: noiseDBFS, seed: seed)
            noise.add(to: &iq)
        }
        return (Array(iq[40...]), Int((subSample * 40).rounded()))
    }

    @Test(arguments: [SampleRate.rate2_4, .rate2_0])
    func aCleanReplyIsReadExactlyAtAnySubSampleStartPhaseAndOffset(rate: SampleRate) {
        let slicer = CoherentSlicer(sampleRate: rate)
        for (sub, phase, frequency) in [(0.0, 0.0, 0.0), (0.375, 2.0, 3000.0), (0.625, 4.5, -3000.0), (0.875, 1.0, 1500.0)] {
            let reply = Self.render(Self.squitter, rate: rate, subSample: sub, phase: phase, frequency: frequency)
            let found = reply.iq.withUnsafeBufferPointer {
                slicer.refineStart($0.baseAddress!, count: $0.count / 2, start40: 0, minimumFit: 0.45)
            }
            guard let found else { Issue.record("no start at \(sub), \(phase), \(frequency)"); continue }
            // The grid is an eighth of a sample (5/40).
            #expect(abs(found.start40 - reply.start40) <= 5, "start \(found.start40) vs \(reply.start40)")
            // The fit window reaches past the preamble into the first bits: a clean reply
            // captures about 0.8 of it.
            #expect(found.fit > 0.7)
            let decisions = reply.iq.withUnsafeBufferPointer {
                slicer.decide($0.baseAddress!, count: $0.count / 2, start40: found.start40, passes: 2)
            }
            #expect(decisions.contains { $0.raw == Self.squitter.raw }, "at \(sub), \(phase) rad, \(frequency) Hz")
        }
    }

    @Test("The preamble fit read from the per-fortieth templates is the four pulses' responses summed sample by sample, to the bit, for every start the searches ask (from half a sample before the first sample), at either rate", arguments: [SampleRate.rate2_4, .rate2_0])
    func thePreambleTemplatesGiveTheDirectFit(rate: SampleRate) {
        let slicer = CoherentSlicer(sampleRate: rate)
        var noise = ThermalNoise(powerDBFS: -20, seed: 5)
        var iq = [Float](repeating: 0, count: 2 * 60)
        noise.add(to: &iq)
        let hb = slicer.halfBit40
        iq.withUnsafeBufferPointer { buffer in
            let x = buffer.baseAddress!
            // Starts far past a short window too (a search near the input's end): nothing to
            // read, a zero fit.
            for start40 in Array(-20...200) + [800, 1200, 2000] {
                for end in [0, 3, 7, 23, 40, 60] {
                    var zr: Float = 0, zi: Float = 0, pp: Float = 0
                    for n in 0..<end {
                        let v = slicer.pulse(n, start40) + slicer.pulse(n, start40 + 2 * hb) + slicer.pulse(n, start40 + 7 * hb) + slicer.pulse(n, start40 + 9 * hb)
                        zr += x[2 * n] * v; zi += x[2 * n + 1] * v; pp += v * v
                    }
                    let fit = slicer.preambleFit(x, start40: start40, end: end)
                    #expect(fit.0 == zr && fit.1 == zi && fit.2 == pp, "start \(start40), end \(end)")
                }
            }
        }
    }

    @Test("The start test a candidate meets before the coherent pass reads its reply is refineStart's first: where it fails for the weak start's share it fails for the full one, and refineStart then finds nothing", arguments: [SampleRate.rate2_4, .rate2_0])
    func theStartTestIsRefineStartsFirst(rate: SampleRate) {
        let slicer = CoherentSlicer(sampleRate: rate)
        var failed = 0, passed = 0
        for seed in UInt64(1)...40 {
            // Noise with a reply at a few dB at the detector's start, or noise alone.
            let reply = Self.render(Self.squitter, rate: rate, subSample: 0.25, phase: 1, frequency: 500,
                                    amplitude: seed % 2 == 0 ? 0.02 : 0, noiseDBFS: -35, seed: seed)
            reply.iq.withUnsafeBufferPointer { buffer in
                let x = buffer.baseAddress!, count = min(40, buffer.count / 2)
                let weakShare = slicer.fitsAtStart(x, count: count, start40: reply.start40, minimumFit: 0.30)
                let fullShare = slicer.fitsAtStart(x, count: count, start40: reply.start40, minimumFit: 0.45)
                if weakShare == nil {
                    failed += 1
                    #expect(fullShare == nil, "seed \(seed)")
                    #expect(slicer.refineStart(x, count: count, start40: reply.start40, minimumFit: 0.30) == nil, "seed \(seed)")
                } else {
                    passed += 1
                }
                if fullShare == nil {
                    #expect(slicer.refineStart(x, count: count, start40: reply.start40, minimumFit: 0.45) == nil, "seed \(seed)")
                }
            }
        }
        // Both outcomes occur: the test is not vacuous.
        #expect(failed > 0 && passed > 0, "failed \(failed), passed \(passed)")
    }

    @Test func theLeastReliableBitsAreWhereTheSignalWasDamaged() {
        // Bit 60 (0-based) of a clean reply is wiped out (its samples zeroed): the search's
        // reliability should rank it, or a neighbour sharing its samples, among the weakest.
        let rate = SampleRate.rate2_4
        let slicer = CoherentSlicer(sampleRate: rate)
        var reply = Self.render(Self.squitter, rate: rate, subSample: 0.25, phase: 1, frequency: 500)
        let first = Int((0.25 + Double(16 + 2 * 60) * 1.2 - 0.5).rounded(.up))
        for n in first..<(first + 2) { reply.iq[2 * n] = 0; reply.iq[2 * n + 1] = 0 }
        let decisions = reply.iq.withUnsafeBufferPointer {
            slicer.decide($0.baseAddress!, count: $0.count / 2, start40: reply.start40, passes: 1)
        }
        let weak = CoherentSlicer.leastReliable(decisions[0].reliability, bitCount: 112, count: 5).map { $0 - 1 }
        #expect(weak.contains { abs($0 - 60) <= 1 }, "weakest \(weak)")
    }

    @Test("The least reliable bits are those a full sort by reliability (then bit) puts first, ties and every count included")
    func leastReliableIsThePrefixOfTheSortedBits() {
        var random = SplitMix64(seed: 5)
        for trial in 0..<200 {
            let bitCount = trial % 2 == 0 ? 112 : 56
            // Coarse values, so that equal reliabilities occur.
            let reliability = (0..<bitCount).map { _ in Float(random.next() % 16) }
            let sorted = Array(5..<bitCount).sorted { (reliability[$0], $0) < (reliability[$1], $1) }.map { $0 + 1 }
            for count in [0, 1, 5, 12, bitCount - 5, bitCount] {
                #expect(CoherentSlicer.leastReliable(reliability, bitCount: bitCount, count: count) == Array(sorted.prefix(count)))
            }
        }
    }

    @Test(arguments: [SampleRate.rate2_4, .rate2_0])
    func noiseAloneAlmostNeverLooksLikeACoherentPreamble(rate: SampleRate) {
        let slicer = CoherentSlicer(sampleRate: rate)
        var noise = ThermalNoise(powerDBFS: -30, seed: 99)
        var iq = [Float](repeating: 0, count: 2 * 40_000)
        noise.add(to: &iq)
        var passed = 0, tried = 0
        iq.withUnsafeBufferPointer { b in
            var s = 0
            while s + 300 < b.count / 2 {
                tried += 1
                if slicer.refineStart(b.baseAddress! + 2 * s, count: 300, start40: 0, minimumFit: 0.45) != nil { passed += 1 }
                s += 37
            }
        }
        // About 1 080 tries: the fit of fitted preamble pulses to noise is about 1/20.
        #expect(tried > 1000)
        #expect(passed <= tried / 100, "\(passed) of \(tried)")
    }

    /// Weak band-limited squitters (about 7.7 dB) at random sub-sample times, uc8.
    static func weakSignal(rate: SampleRate, count: Int) -> (bytes: [UInt8], frames: [Frame]) {
        var rng = SplitMix64(seed: 11)
        let samplesPerReply = 1000
        var iq = [Float](repeating: 0, count: 2 * samplesPerReply * (count + 1))
        let modulator = BandLimitedModulator(sampleRate: rate)
        var frames: [Frame] = []
        iq.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<count {
                let frame = Frame.extendedSquitter(address: UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF,
                                                   me: MessageField(rng.next() & (1 << 56 - 1)))
                frames.append(frame)
                let tick = UInt64((i + 1) * samplesPerReply) * rate.ticksPerSample + rng.next() % 60
                // Noise at −30 dBFS; mean message power 0.483 · A² is 7.7 dB above it.
                let t = Transmission(frame: frame, startTick: tick, amplitude: 0.11, phase: rng.uniform(0...6.28),
                                     frequencyOffset: rng.uniform(-3000...3000), subTick: rng.unit())
                modulator.add(t, into: buffer, firstSample: 0)
            }
        }
        var noise = ThermalNoise(powerDBFS: -30, seed: 12)
        noise.add(to: &iq)
        return (SampleQuantizer.quantize(iq, to: .uc8), frames)
    }

    @Test(arguments: [SampleRate.rate2_4, .rate2_0])
    func theCoherentPassFindsMoreAndItsOutputDoesNotDependOnBlocks(rate: SampleRate) {
        let signal = Self.weakSignal(rate: rate, count: 60)
        var off = Demodulator.Tuning()
        off.coherentPasses = 0
        let whole = DemodFixtures.demodulate(signal.bytes, rate: rate, blockSamples: signal.bytes.count)
        let without = DemodFixtures.demodulate(signal.bytes, rate: rate, blockSamples: signal.bytes.count, tuning: off)
        let sent = Set(signal.frames)
        let found = Set(whole.frames.map(\.parity.frame))
        #expect(whole.demodulator.coherentSearches > 0)
        #expect(found.isSubset(of: sent), "no false frames")
        #expect(found.count > Set(without.frames.map(\.parity.frame)).count)
        // The raw samples carried between blocks: the same frames, positions and scores.
        for block in [7, 1000, 4099] {
            let cut = DemodFixtures.demodulate(signal.bytes, rate: rate, blockSamples: block)
            #expect(cut.frames == whole.frames, "blocks of \(block)")
        }
    }

    @Test func theSearchBudgetBoundsSearchesPerWindow() {
        let signal = Self.weakSignal(rate: .rate2_4, count: 60)
        var tight = Demodulator.Tuning()
        tight.coherentBudget = 3
        let limited = DemodFixtures.demodulate(signal.bytes, rate: .rate2_4, blockSamples: 5000, tuning: tight)
        // 61 000 samples: the first window of 65 536 holds them all.
        #expect(limited.demodulator.coherentSearches == 3)
    }

    @Test(arguments: SampleFormat.allCases)
    func complexSamplesAgreeWithTheMagnitudesOfEveryFormat(format: SampleFormat) {
        // The same signal in each format: |I + jQ| of the floats the coherent pass reads is the
        // magnitude the rest of the demodulator works in.
        var rng = SplitMix64(seed: 3)
        let iq = (0..<2000).map { _ in Float(rng.uniform(-0.7...0.7)) }  // |I + jQ| < 1: no clamping
        let bytes = SampleQuantizer.quantize(iq, to: format)
        let count = bytes.count / format.bytesPerSample
        var floats = [Float](repeating: 0, count: 2 * count)
        var mags = [UInt16](repeating: 0, count: count)
        bytes.withUnsafeBytes { raw in
            floats.withUnsafeMutableBufferPointer { format.complexSamples(raw.baseAddress!, count: count, into: $0.baseAddress!) }
            mags.withUnsafeMutableBufferPointer { MagnitudeConverter.convert(raw, format: format, count: count, into: $0.baseAddress!) }
        }
        for n in 0..<count {
            let m = (floats[2 * n] * floats[2 * n] + floats[2 * n + 1] * floats[2 * n + 1]).squareRoot() * 32767
            #expect(abs(m - Float(mags[n])) <= 1, "sample \(n): \(m) vs \(mags[n])")
        }
    }
}

/// Error events of more than one bit: runs of equal bits inverted together.
extension CoherentSlicerTests {
    @Test("At 2.0 MS/s the band limit makes inverting a run of equal bits (its pulses moved by half a bit) cheaper for the fit than inverting any one of its bits; every run is rated once, from two to the longest run asked for")
    func runsOfEqualBitsAreRatedAsEvents() {
        let rate = SampleRate.rate2_0
        let slicer = CoherentSlicer(sampleRate: rate)
        let reply = Self.render(Self.squitter, rate: rate, subSample: 0.25, phase: 1, frequency: 500)
        let decision = reply.iq.withUnsafeBufferPointer {
            slicer.decide($0.baseAddress!, count: $0.count / 2, start40: reply.start40, passes: 1, longestRun: 4)
        }[0]
        #expect(decision.raw == Self.squitter.raw)
        let bits = (0..<112).map { Self.squitter.bit($0 + 1) }
        // Every run of 2…4 equal bits, once, in order.
        var expected: [(Int, Int)] = []
        for k in 0..<111 {
            var j = k + 1
            while j < 112 && j - k < 4 && bits[j] == bits[k] { expected.append((k, j - k + 1)); j += 1 }
        }
        #expect(decision.runs.map { [$0.first, $0.length] } == expected.map { [$0.0, $0.1] })
        var cheaper = 0
        for run in decision.runs where run.length == 2 {
            let single = (run.first..<(run.first + run.length)).map { decision.reliability[$0] }.min()!
            #expect(run.reliability > 0)
            if run.reliability < single { cheaper += 1 }
        }
        let pairs = decision.runs.filter { $0.length == 2 }.count
        #expect(cheaper * 10 >= pairs * 9, "\(cheaper) of \(pairs) runs of two cheaper than their bits")
        // Single bits only: no runs rated.
        let plain = reply.iq.withUnsafeBufferPointer {
            slicer.decide($0.baseAddress!, count: $0.count / 2, start40: reply.start40, passes: 1)
        }[0]
        #expect(plain.runs.isEmpty && plain.raw == decision.raw)
    }

    @Test("The least reliable events mix bits and runs, least first, within the frame after its DF, as 1-based bit ranges")
    func leastReliableEventsMixBitsAndRuns() {
        var reliability = [Float](repeating: 10, count: 112)
        reliability[3] = 0.5   // in the DF: never chosen
        reliability[40] = 2
        reliability[70] = 4
        let runs = [CoherentSlicer.Run(first: 2, length: 3, reliability: 0.1),    // touches the DF
                    CoherentSlicer.Run(first: 50, length: 2, reliability: 1),
                    CoherentSlicer.Run(first: 54, length: 3, reliability: 3),
                    CoherentSlicer.Run(first: 55, length: 2, reliability: 3),      // ties: earlier first
                    CoherentSlicer.Run(first: 60, length: 2, reliability: 0.2)]   // past a short reply's end
        let decision = CoherentSlicer.Decision(raw: 0, reliability: reliability, runs: runs)
        #expect(CoherentSlicer.leastReliableEvents(decision, bitCount: 112, count: 5) == [61...62, 51...52, 41...41, 55...57, 56...57])
        #expect(CoherentSlicer.leastReliableEvents(decision, bitCount: 56, count: 3) == [51...52, 41...41, 6...6])
    }
}

extension CoherentSlicerTests {
    @Test("The coherent pass reads a reply that starts up to a sample before the position the detector gives it (it reads from the sample before)", arguments: [SampleRate.rate2_4, .rate2_0])
    func aReplyStartingBeforeTheDetectorsPositionIsRead(rate: SampleRate) {
        // The reply starts 10.6 samples after the buffer's first sample (ten of silence).
        let reply = Self.render(Self.squitter, rate: rate, subSample: 0.6, phase: 2, frequency: 1000)
        var bytes = [UInt8](repeating: 128, count: 20)
        _ = reply.iq.withUnsafeBufferPointer { SampleQuantizer.quantize($0, to: .uc8, appendingTo: &bytes) }
        var demodulator = Demodulator(sampleRate: rate)
        demodulator.rawFormat = .uc8
        demodulator.raw = bytes
        demodulator.magCount = bytes.count / 2
        // The detector's position one sample late (0.4 samples after the start): found.
        #expect(demodulator.coherent(at: 11, phase: 0, time: 0)?.frame == Self.squitter)
        // At the very start of the input there is no sample before to read.
        var late = Demodulator(sampleRate: rate)
        late.rawFormat = .uc8
        late.raw = Array(bytes.dropFirst(22))
        late.magCount = late.raw.count / 2
        #expect(late.coherent(at: 0, phase: 0, time: 0) == nil)
    }
}

/// Decision-directed timing (`CoherentSlicer.retime`).
extension CoherentSlicerTests {
    @Test("A clean reply's own pulses place it to within a twentieth of a sample from a start a quarter of a sample off either way", arguments: [SampleRate.rate2_4, .rate2_0])
    func retimingFindsACleanReplysStart(rate: SampleRate) {
        let slicer = CoherentSlicer(sampleRate: rate)
        for (sub, frequency) in [(0.1, 0.0), (0.45, 2500.0), (0.8, -2500.0)] {
            let reply = Self.render(Self.squitter, rate: rate, subSample: sub, phase: 1.0, frequency: frequency)
            for offset in [-10, 10] {
                let found = reply.iq.withUnsafeBufferPointer {
                    slicer.retime($0.baseAddress!, count: $0.count / 2, start40: reply.start40 + offset, raw: Self.squitter.raw, bitCount: 112)
                }
                #expect(abs(found - reply.start40) <= 2, "\(rate) at \(sub), \(frequency) Hz from \(offset): \(found) vs \(reply.start40)")
            }
        }
    }

    @Test("In noise the whole reply's pulses place it more surely than the preamble's four: retimed from the preamble's start, the error shrinks", arguments: [SampleRate.rate2_4, .rate2_0])
    func retimingBeatsThePreamblesStartInNoise(rate: SampleRate) {
        let slicer = CoherentSlicer(sampleRate: rate)
        var preambleError = 0, replyError = 0
        for seed in 1...40 {
            let sub = Double(seed % 8) / 8 + 0.05
            let reply = Self.render(Self.squitter, rate: rate, subSample: sub, phase: Double(seed), frequency: 1000, noiseDBFS: -21, seed: UInt64(seed))
            reply.iq.withUnsafeBufferPointer {
                guard let start = slicer.refineStart($0.baseAddress!, count: $0.count / 2, start40: reply.start40, minimumFit: 0) else { return }
                let retimed = slicer.retime($0.baseAddress!, count: $0.count / 2, start40: start.start40, raw: Self.squitter.raw, bitCount: 112)
                preambleError += abs(start.start40 - reply.start40)
                replyError += abs(retimed - reply.start40)
            }
        }
        #expect(replyError * 2 < preambleError, "\(rate): summed error \(replyError) vs \(preambleError) (fortieths, 40 replies)")
    }
}

extension CoherentSlicerTests {
    @Test("A failed coherent decision, of a format the demodulator does not take or of one it does, is read as DF17 or DF18 when that format is within two bits and the parity then holds exactly, with the changed bits counted; no further repair")
    func aMisjudgedFormatIsReadAsTheSquitterItIsNear() {
        let sent = Self.squitter.raw
        /// The decision with the given 1-based bits (MSB first) inverted.
        func decision(flipping bits: [Int]) -> CoherentSlicer.Decision {
            var raw = sent
            for b in bits { raw ^= UInt128(1) << (128 - b) }
            return CoherentSlicer.Decision(raw: raw, reliability: [Float](repeating: 1, count: 112))
        }
        var demodulator = Demodulator(sampleRate: .rate2_4)
        // DF17 (10001) with bit 2 wrong: DF25, one bit from DF17.
        let one = demodulator.check(coherent: decision(flipping: [2]), at: 0)
        #expect(one?.frame == Self.squitter && one?.correctedBits == 1)
        // Bits 2 and 4 wrong: DF27, two from DF17.
        let two = demodulator.check(coherent: decision(flipping: [2, 4]), at: 0)
        #expect(two?.frame == Self.squitter && two?.correctedBits == 2)
        #expect(demodulator.formatGuesses == 2)
        // Bits 2, 3 and 4 wrong: DF31, three from DF17 and from DF18: not guessed.
        #expect(demodulator.check(coherent: decision(flipping: [2, 3, 4]), at: 0) == nil)
        #expect(demodulator.formatGuesses == 2)
        // A format bit and a data bit wrong: the guess's parity fails, and nothing repairs it.
        #expect(demodulator.check(coherent: decision(flipping: [2, 40]), at: 0) == nil)
        #expect(demodulator.formatGuesses == 3, "DF25 is one bit from DF17, three from DF18")
        // Bit 3 wrong: DF21, a format the demodulator takes, whose parity (an address nobody
        // was heard from) fails: then read as the DF17 one bit away.
        let taken = demodulator.check(coherent: decision(flipping: [3]), at: 0)
        #expect(taken?.frame == Self.squitter && taken?.correctedBits == 1)
        #expect(demodulator.formatGuesses == 4)
        // A DF17 decision that fails is read as the DF18 two bits away, not as itself.
        #expect(demodulator.check(coherent: decision(flipping: [40, 41, 60, 70]), at: 0) == nil)
        #expect(demodulator.formatGuesses == 5)
        // The guessed frame does not introduce its address (it was changed to pass).
        #expect(!demodulator.addressFilter.contains(UInt32(Self.squitter.bits(9, 32)), at: 0))
    }
}

extension CoherentSlicerTests {
    @Test("A failed decision is retimed at its format's length, or, when near-squitters are retimed, as an extended squitter when its first bits name no format the demodulator takes but lie within two bits of DF17 or DF18")
    func retimedLengthFollowsTheFormatOrTheSquitterItIsNear() {
        #expect(Demodulator.retimedLength(downlinkFormat: 17, nearSquitters: false) == 112)
        #expect(Demodulator.retimedLength(downlinkFormat: 4, nearSquitters: true) == 56)
        #expect(Demodulator.retimedLength(downlinkFormat: 25, nearSquitters: true) == 112, "DF25: one bit from DF17")
        #expect(Demodulator.retimedLength(downlinkFormat: 25, nearSquitters: false) == nil, "near-squitters not retimed")
        #expect(Demodulator.retimedLength(downlinkFormat: 27, nearSquitters: true) == 112, "DF27: two bits from DF17")
        #expect(Demodulator.retimedLength(downlinkFormat: 31, nearSquitters: true) == nil, "DF31: three bits from DF17 and DF18")
        #expect(Demodulator.retimedLength(downlinkFormat: 12, nearSquitters: true) == nil, "DF12: four bits from DF17 and DF18")
    }
}
