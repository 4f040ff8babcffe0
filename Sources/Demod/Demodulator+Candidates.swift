import ModeS
import RealModule

/// Candidate positions: ranking of phases, slicing, parity, weak-bit repair.
extension Demodulator {
    /// Samples from a frame's start to its end.
    func frameSamples(_ bits: Int) -> Int {
        ((16 + 2 * bits) * kernels.halfBitSteps) / kernels.resolution
    }

    /// The best valid frame starting at `s` (with the phases the detector passed there) or
    /// `s + 1`, appended to `found`; returns the samples from `s` to its end, or nil when there
    /// is none. A frame whose parity held without correction is taken as it is: the next sample
    /// would give the same bits. The frame is built (timestamp, level) and counted only here,
    /// once. (Appending here instead of returning the frame: an optional frame returned through
    /// memory and copied cost the detector loop a stalled reload on every one of its calls, most
    /// of which find nothing.)
    mutating func evaluateBest(at s: Int, detected: UInt8, weak: UInt8, detector: PreambleDetector, into found: inout [DemodulatedFrame]) -> Int? {
        guard var best = evaluate(at: s, detected: detected, weak: weak, detector: detector) else { return nil }
        if best.result.correctedBits > 0 {
            let j = s + 1 - planes.origin
            let next = detector.detect1(planes.bytes, at: j, offsets.preamble)
            if next != 0, let second = evaluate(at: s + 1, detected: next, weak: detector.weakPhases(planes.bytes, at: j, offsets.preamble, among: next),
                                                detector: detector), second.score > best.score { best = second }
        }
        // Pulse energies are in steps × 12-bit magnitudes: back to full scale 1.0.
        let level = Double(best.pulse) * Double(1 << HalfBitPlanes.shift) / Double(4 * kernels.halfBitSteps) / Double(MagnitudeConverter.fullScale)
        let resolution = UInt64(kernels.resolution)
        let start = (carryStart &+ UInt64(best.start)) &* resolution &+ UInt64(kernels.phases[best.phase])
        let frame = demodulatedFrame(best.result, start: start, perSample: resolution, halfBit: UInt64(kernels.halfBitSteps),
                                     power: level * level)
        if tuning.learnsPulseShape, best.result.correctedBits == 0, pulseLearner.isLearning, carryStart + UInt64(best.start) >= learnsFrom {
            learnPulse(from: best.result.frame, at: best.start, phase: best.phase)
        }
        if tuning.searchesOverlaps && tuning.coherentPasses > 0 {
            decoded(best.result.frame, at: best.start, phase: best.phase, level: level, into: &found)
        }
        found.append(frame)
        return frameSamples(best.result.frame.bitCount)
    }

    /// At most this many replies a noise-floor window (27 ms at 2.4 MS/s) are learned from.
    static let learnedPerWindow = 8
    /// At most this many are offered a window, used or not: each offer costs a start
    /// refinement and a fit (a few hundred samples, two turns each), so a sky whose replies
    /// all fail the fit costs at most this many fits a window, about 1 200 a second.
    static let offeredPerWindow = 32

    /// Offers a reply decoded with clean parity to the pulse learner (`PulseLearner`); when a
    /// solve is due, the coherent pass takes the new response.
    mutating func learnPulse(from frame: Frame, at s: Int, phase: Int) {
        let window = (carryStart + UInt64(s)) >> UInt64(NoiseFloor.windowShift)
        if window != learningWindow { learningWindow = window; learnedInWindow = 0; offeredInWindow = 0 }
        guard learnedInWindow < Demodulator.learnedPerWindow, offeredInWindow < Demodulator.offeredPerWindow else { return }
        let count = min(kernels.span, magCount - s)
        guard s >= 0, count > 0 else { return }
        offeredInWindow += 1
        pulseOffers &+= 1
        let used = withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * count) { iq -> Bool in
            rawSamples(from: s, count: count, into: iq.baseAddress!)
            guard let refined = coherentSlicer.refineStart(iq.baseAddress!, count: count, start40: 40 * kernels.phases[phase] / kernels.resolution,
                                                           minimumFit: 0.5) else { return false }
            // Placed by all its pulses, not the preamble's four: a weak reply's preamble
            // places it a tenth of a sample off often enough to blur what is learned.
            let start40 = coherentSlicer.retime(iq.baseAddress!, count: count, start40: refined.start40, raw: frame.raw, bitCount: frame.bitCount)
            let scale = Double(MagnitudeConverter.fullScale)
            return pulseLearner.observe(iq.baseAddress!, count: count, start40: start40, frame: frame, slicer: coherentSlicer,
                                        noise: (noisePower(at: s) ?? 0) / (scale * scale))
        }
        guard used else { return }
        learnedInWindow += 1
        if pulseLearner.isDue, let learned = pulseLearner.solve() {
            pulseResponse = learned
            coherentSlicer = CoherentSlicer(sampleRate: sampleRate, response: learned)
        }
    }

    /// A candidate that passed parity: the result, where it was sliced and how clearly.
    struct Accepted {
        var result: ParityResult
        /// Start sample (magnitude index) and phase index.
        var start: Int
        var phase: Int
        /// The preamble's summed pulse energy (plane units): the signal level.
        var pulse: Int32
        /// Where its bits were sliced: the plane entry of its start and its phase's bit places.
        var entry: UnsafePointer<Int16>
        var bits: UnsafePointer<Int>
        /// Summed bit margins (`margins`): how clearly it was received, to choose between two
        /// candidates. Summed only when two are compared (the planes keep the entries until
        /// the detector loop refills them, after the frame is built): most accepted candidates
        /// never are, and summing every one was 2 % of a dense sky's instructions.
        var score: Int { Demodulator.margins(entry, bits: bits, count: result.frame.bitCount) }
    }

    /// The frame of `result` whose preamble starts at `start` (absolute, in 1/`perSample` of a
    /// sample, a half bit being `halfBit` of them), received at `power` (linear, full scale 1.0;
    /// at least 10⁻¹²): timestamped at the end of bit 56 (12 MHz), counted in the statistics.
    /// Every frame the demodulator emits is built here: sliced (`evaluateBest`, steps) or read
    /// under another reply (`hiddenFrame`, fortieths).
    mutating func demodulatedFrame(_ result: ParityResult, start: UInt64, perSample: UInt64, halfBit: UInt64, power: Double) -> DemodulatedFrame {
        let power = max(power, 1e-12)
        let endOfBit56 = start &+ 128 &* halfBit
        let frame = DemodulatedFrame(
            received: ReceivedFrame(frame: result.frame, timestamp: endOfBit56 &* sampleRate.ticksPerSample / perSample, signal: 10 * Double.log10(power)),
            parity: result, sampleIndex: start / perSample)
        count(frame, power: power)
        return frame
    }

    /// Adds an emitted frame, received at `power` (linear, full scale 1.0), to the statistics.
    mutating func count(_ frame: DemodulatedFrame, power: Double) {
        switch frame.parity.correctedBits {
        case 0: statistics.accepted.0 += 1
        case 1: statistics.accepted.1 += 1
        default: statistics.accepted.2 += 1
        }
        statistics.signalPowerSum += power
        statistics.peakSignalPower = max(statistics.peakSignalPower, power)
        if (frame.received.signal ?? -100) > -3 { statistics.strongSignals += 1 }
    }

    /// The candidate at `s` from the tested phases the detector passed there (`detected`),
    /// ranked with their neighbours (`PreambleDetector.ranked`). With faint preambles
    /// (`Tuning.faintPreambles`) only the phases that also meet the weak ratio (`weak`, from
    /// the detector) are: the magnitude slicers see what they saw without them, and a position
    /// where none does is a faint preamble, searched by the coherent pass alone when the
    /// samples before it are quiet.
    /// (Any other detector's `weak` is `detected`, never empty: its candidates take the first
    /// path.)
    mutating func evaluate(at s: Int, detected: UInt8, weak: UInt8, detector: PreambleDetector) -> Accepted? {
        if weak != 0 { return evaluate(at: s, phases: detector.ranked(weak)) }
        // From 18 samples before the position: the reply may start up to a sample before it.
        if tuning.faintNeedsQuiet {
            guard let power = noisePower(at: s), isQuiet(before: s - 2, power: power) else { return nil }
        }
        return evaluate(at: s, phases: detector.ranked(detected), coherentOnly: true)
    }

    /// Tries the phases `phases` at start sample `s` (a magnitude index the planes cover);
    /// returns the best-scoring candidate that passes parity. `coherentOnly`: the magnitude
    /// slicers skip it (a faint preamble).
    mutating func evaluate(at s: Int, phases: UInt8, coherentOnly: Bool = false) -> Accepted? {
        planes.ensureEnergies(upTo: s - planes.origin + kernels.maxOffset + 2)
        let e = planes.entries + (s - planes.origin)
        // Most candidates of a busy sky have no plausible phase: they stop here, before the
        // slicing's call.
        let ranking = Demodulator.rank(e, phases: phases, preamble: offsets.preamble, tolerance: shapeTolerance)
        guard ranking.count > 0 else { return nil }
        return evaluate(at: s, ranking: ranking, entry: e, preamble: offsets.preamble, bits: offsets.bits, coherentOnly: coherentOnly)
    }

    /// The phases of a candidate ranked by preamble correlation (`Demodulator.rank`).
    struct Ranking {
        /// Best first once sorted: score << 3 | phase index, `count` of them.
        var ranked: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
        /// Per phase index: the preamble's summed pulse energy (plane units).
        var pulses: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
        /// Phases whose mean pulse energy is above twice the mean quiet (5·P > 4·Q, the
        /// detector's strict ratio on full energies): the only ones the magnitude slicers
        /// read when weak preambles are let through (`Tuning.weakPreambles`).
        var strict: UInt8 = 0
        var count = 0
    }

    /// The phases `phases` at the plane entry `e` whose preamble shape is plausible
    /// (`isPlausibleShape`, with `tolerance` > 0), scored by correlation, unsorted.
    @inline(__always)
    static func rank(_ e: UnsafePointer<Int16>, phases: UInt8, preamble: UnsafePointer<Int>, tolerance: Int32) -> Ranking {
        var r = Ranking()
        var set = phases
        while set != 0 {
            let index = set.trailingZeroBitCount
            set &= set &- 1
            let o = preamble + index * SliceKernels.preambleWindows
            if tolerance > 0, !Demodulator.isPlausibleShape(e, o, tolerance: tolerance) { continue }
            var pulse: Int32 = 0, quiet: Int32 = 0
            for j in 0..<4 { pulse &+= Int32(e[o[j]]) }
            for j in 4..<SliceKernels.preambleWindows { quiet &+= Int32(e[o[j]]) }
            let score = (pulse &* 5 &- quiet &* 2) >> 3
            if pulse &* 5 > quiet &* 4 { r.strict |= 1 << UInt8(index) }
            let count = r.count
            withUnsafeMutableBytes(of: &r.ranked) { $0.storeBytes(of: score << 3 | Int32(index), toByteOffset: count * 4, as: Int32.self) }
            withUnsafeMutableBytes(of: &r.pulses) { $0.storeBytes(of: pulse, toByteOffset: index * 4, as: Int32.self) }
            r.count += 1
        }
        return r
    }

    /// The candidate at start sample `s` (plane entry `e`) with its phases ranked (`ranking`,
    /// at least one): slices the best few, then the equalisers and the coherent pass.
    mutating func evaluate(at s: Int, ranking: Ranking, entry e: UnsafePointer<Int16>,
                           preamble: UnsafePointer<Int>, bits: UnsafePointer<Int>, coherentOnly: Bool = false) -> Accepted? {
        var ranked = ranking.ranked
        var pulses = ranking.pulses
        let strict = ranking.strict, count = ranking.count
        statistics.preambles += 1
        // Best first (insertion sort of at most five).
        withUnsafeMutableBytes(of: &ranked) { raw in
            let r = raw.bindMemory(to: Int32.self)
            for i in 1..<max(1, count) {
                var j = i
                while j > 0 && r[j] > r[j - 1] { r.swapAt(j, j - 1); j -= 1 }
            }
        }
        var best: Accepted?
        let time = Double(carryStart + UInt64(s)) / Double(sampleRate.hertz)
        // With weak preambles let through (`Tuning.weakPreambles`), a candidate whose
        // best-ranked phase fails the strict ratio is the coherent pass's alone (slicing the
        // other phases instead read three frames fewer of modes1.bin). Without, every phase
        // the detector passed met the strict ratio already.
        let weakLetThrough = tuning.weakPreambles && tuning.coherentPasses > 0
        let top = withUnsafeBytes(of: &ranked) { Int($0.load(fromByteOffset: 0, as: Int32.self) & 7) }
        var strong = !coherentOnly && (!weakLetThrough || strict & (1 << UInt8(top)) != 0)
        // The magnitude slicers' level gate, where the detector's was weaker (`strictLevel`):
        // three of the four pulses loud and their sum, as the detector tests them.
        if strong, weakLetThrough, let level = strictLevel {
            let o = preamble + top * SliceKernels.preambleWindows
            var loud = 0
            var sum: Int16 = 0
            for j in 0..<4 {
                loud &+= e[o[j]] > level.pulse ? 1 : 0
                sum &+= e[o[j]] >> 4
            }
            strong = loud >= 3 && sum > level.summed
        }
        for rank in 0..<(strong ? min(count, tuning.phasesSliced) : 0) {
            let packed = withUnsafeBytes(of: &ranked) { $0.load(fromByteOffset: rank * 4, as: Int32.self) }
            let index = Int(packed & 7)
            let pulse = withUnsafeBytes(of: &pulses) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
            let phaseBits = bits + index * 224
            guard let candidate = slice(e, bits: phaseBits, pulse: pulse, decision: PlainDecision()) else {
                if rank == 0 && !kernels.slicesPastNoReply { break }
                continue
            }
            var accepted = check(candidate, e, bits: phaseBits, decision: PlainDecision(), at: time)
            // With partial shapes not equalised (`Tuning.equalizesPartialShapes`), only a phase
            // whose preamble has the full shape (all six pulse-above-neighbour tests) is sliced
            // again; the shape is read only for a candidate that failed.
            if accepted == nil, tuning.equalizer16 > 0 || directedPasses > 0,
               equalizesPartialShapes || Demodulator.hasFullShape(e, preamble + index * SliceKernels.preambleWindows) {
                equalizedCandidates &+= 1
                if tuning.equalizer16 > 0,
                   let second = slice(e, bits: phaseBits, pulse: pulse, decision: EqualizedDecision(c16: tuning.equalizer16)), second != candidate {
                    accepted = check(second, e, bits: phaseBits, decision: EqualizedDecision(c16: tuning.equalizer16), at: time)
                }
                if accepted == nil, directedPasses > 0 {
                    accepted = directed(e, bits: phaseBits, preamble: preamble + index * SliceKernels.preambleWindows,
                                        pulse: pulse, tentative: candidate, at: time)
                }
            }
            guard let result = accepted else {
                if ParityCheck.isAddressParity(candidate.downlinkFormat) {
                    statistics.unknownAddress += 1
                } else {
                    statistics.bad += 1
                }
                continue
            }
            let taken = Accepted(result: result, start: s, phase: index, pulse: pulse, entry: e, bits: phaseBits)
            if let current = best, current.score >= taken.score { continue }
            best = taken
            // A clean decode at the best-correlated phase is as good as it gets.
            if result.correctedBits == 0 && rank == 0 { break }
        }
        if best == nil, tuning.coherentPasses > 0 {
            let packed = withUnsafeBytes(of: &ranked) { $0.load(fromByteOffset: 0, as: Int32.self) }
            let index = Int(packed & 7)
            let pulse = withUnsafeBytes(of: &pulses) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
            let admission = coherentAdmission(pulse: pulse, at: s)
            if admission.allowed, let result = coherent(at: s, phase: index, time: time, weak: admission.weak) {
                best = Accepted(result: result, start: s, phase: index, pulse: pulse, entry: e, bits: bits + index * 224)
            }
        }
        return best
    }

    /// Whether the preamble at the places `o` (one phase's, in the order of
    /// `SliceKernels.preambleHalfBits`) has the full shape: each of the four pulses above the
    /// quiet half bits beside it, the detector's six tests (`PreambleDetector`) on the energies.
    @inline(__always)
    static func hasFullShape(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>) -> Bool {
        let p0 = e[o[0]], p2 = e[o[1]], p7 = e[o[2]], p9 = e[o[3]]
        let h1 = e[o[4]], h3 = e[o[5]], h6 = e[o[8]], h8 = e[o[9]]
        return (p0 > h1) && (p2 >= h1) && (p2 > h3) && (p7 >= h6) && (p7 > h8) && (p9 >= h8)
    }

    /// Whether the later pulses of the preamble at the places `o` fall under their quiet
    /// neighbours by less than `tolerance` (plane units) wherever they do: pulse 2 against half
    /// bit 1, pulse 7 against half bits 6 and 8, pulse 9 against half bit 8
    /// (`Tuning.shapeTolerance16`). Pulses 0 and 2 against the half bit after them may fall
    /// short by any amount: a reply's tail or a FRUIT pulse there hides them, not the reply.
    @inline(__always)
    static func isPlausibleShape(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, tolerance: Int32) -> Bool {
        let p2 = Int32(e[o[1]]), p7 = Int32(e[o[2]]), p9 = Int32(e[o[3]])
        let h1 = Int32(e[o[4]]), h6 = Int32(e[o[8]]), h8 = Int32(e[o[9]])
        return max(h1 - p2, h6 - p7, h8 - min(p7, p9)) < tolerance
    }

    /// Decision-directed slicing of a candidate that failed parity (`DirectedDecision`), first
    /// with one spill for both directions, then (if still failing) with separate forward and
    /// backward spills: each up to `directedPasses` passes, each pass taking the
    /// neighbours' bits from the one before (the first from `start`, the plain slicing).
    mutating func directed(_ e: UnsafePointer<Int16>, bits phaseBits: UnsafePointer<Int>, preamble: UnsafePointer<Int>,
                           pulse: Int32, tentative start: Frame, at time: Double) -> ParityResult? {
        let spill = DirectedDecision.symmetricSpill(e, preamble)
        // A spill under a sixteenth of one pulse changes too few margins to be worth a pass.
        guard spill &* 64 >= pulse else { return nil }
        if let result = directed(e, bits: phaseBits, spills: (spill, spill), pulse: pulse, tentative: start, at: time) { return result }
        let separate = DirectedDecision.spills(e, preamble)
        guard separate != (spill, spill) else { return nil }
        return directed(e, bits: phaseBits, spills: separate, pulse: pulse, tentative: start, at: time)
    }

    /// The passes of `directed` with one pair of spills. Passes that change bits are checked
    /// for parity; the last, or the one where the bits settle, also gets the weak-bit repairs
    /// (they cost more than a parity check, and earlier passes' bits are still moving).
    mutating func directed(_ e: UnsafePointer<Int16>, bits phaseBits: UnsafePointer<Int>, spills: (forward: Int32, backward: Int32),
                           pulse: Int32, tentative start: Frame, at time: Double) -> ParityResult? {
        var tentative = start
        let passes = directedPasses
        for pass in 1...max(passes, 1) {
            let decision = DirectedDecision(spills: spills, tentative: tentative)
            guard let next = slice(e, bits: phaseBits, pulse: pulse, decision: decision) else { return nil }
            let settled = next == tentative
            // Settled at once: the plain slicing, already checked in full.
            if settled && pass == 1 { return nil }
            if settled || pass == passes { return check(next, e, bits: phaseBits, decision: decision, at: time) }
            if let accepted = addressFilter.accept(next, at: time) { return accepted }
            tentative = next
        }
        return nil
    }

    /// Parity, correction and weak-bit repair of a sliced candidate.
    mutating func check<D: BitDecision>(_ candidate: Frame, _ e: UnsafePointer<Int16>, bits: UnsafePointer<Int>, decision: D, at time: Double) -> ParityResult? {
        let syndrome = CRC24.syndrome(of: candidate)
        if let result = addressFilter.accept(candidate, syndrome: syndrome, at: time) { return result }
        let weakest = Demodulator.weakestBits(e, bits: bits, count: candidate.bitCount, decision: decision, slots: Demodulator.weakSlots(for: candidate, unknownRepairBits: tuning.unknownRepairBits))
        if let result = repairWeakBits(candidate, syndrome: syndrome, weakest: weakest, at: time) { return result }
        if candidate.isExtendedSquitter { squitterRepairs.magnitude &+= 1 }
        return repairUnknownSquitter(candidate, syndrome: syndrome, weakest: weakest)
    }

    /// Slices the bits after a preamble; nil for a format with no defined length, or when
    /// too many of the first bits are too weak to be a reply (`pulse` is the preamble's
    /// summed pulse energy: a data pulse of the same reply carries about a quarter of it).
    /// Only bits: the margins that rank candidates (`margins`) are summed for the few that
    /// pass parity.
    @inline(__always)
    func slice<D: BitDecision>(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, pulse: Int32, decision: D) -> Frame? {
        Demodulator.slice(e, bits: o, pulse: pulse, decision: decision, weakBitLimit: tuning.weakBitLimit)
    }

    /// `slice` with the tuning's `weakBitLimit` given: a static function, so the demodulator's
    /// mutating paths call it without copying the whole demodulator (an 864-byte copy and a
    /// retain of each of its buffers a call, as a non-mutating method was compiled).
    static func slice<D: BitDecision>(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, pulse: Int32, decision: D,
                                      weakBitLimit: Int) -> Frame? {
        @inline(__always) func bit(_ k: Int) -> Int32 { decision.margin(e, o, k) }
        /// 1 when `v` is positive, without a branch (a bit is a coin toss to the branch
        /// predictor): the sign of −v.
        @inline(__always) func one(_ v: Int32) -> UInt64 { UInt64(UInt32(bitPattern: 0 &- v) >> 31) }
        var high: UInt64 = 0
        // A bit is weak when its two halves differ by less than a third of a pulse.
        let weakLimit = pulse.magnitude / 12
        var weak = 0
        // The first five bits say how long the frame is.
        for k in 0..<5 {
            let v = bit(k)
            high = high << 1 | one(v)
            weak &+= v.magnitude < weakLimit ? 1 : 0
        }
        guard let bitCount = Demodulator.replyLength(downlinkFormat: high) else { return nil }
        for k in 5..<24 {
            let v = bit(k)
            high = high << 1 | one(v)
            weak &+= v.magnitude < weakLimit ? 1 : 0
        }
        if weak > weakBitLimit { return nil }
        /// Bit k as 0 or 1.
        @inline(__always) func value(_ k: Int) -> UInt64 { one(bit(k)) }
        for k in 24..<min(bitCount, 64) { high = high << 1 | value(k) }
        var low: UInt64 = 0
        if bitCount == 112 {
            for k in 64..<112 { low = low << 1 | value(k) }
            low <<= 16
        } else {
            high <<= 8
        }
        return Frame(raw: UInt128(high) << 64 | UInt128(low), bitCount: bitCount)
    }

    /// The length in bits of a reply of downlink format `df` (its first five bits), or nil for
    /// a format the demodulator does not take. DF24 (Comm-D, a quarter of all bit patterns) is
    /// left out: it is rare on the air and would let through a flood of noise candidates.
    @inline(__always)
    static func replyLength(downlinkFormat df: UInt64) -> Int? {
        switch df {
        case 0, 4, 5, 11: 56
        case 16, 17, 18, 19, 20, 21: 112
        default: nil
        }
    }

    /// Bit k's margin: the energy of its first half minus its second half (plane units, at
    /// the places `o` of one phase); positive for a 1.
    @inline(__always)
    static func margin(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ k: Int) -> Int32 {
        Int32(e[o[2 &* k]]) &- Int32(e[o[2 &* k &+ 1]])
    }

    /// The summed bit margins of a frame sliced with these places: how clearly it was
    /// received, to choose between candidates.
    static func margins(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, count: Int) -> Int {
        var sum = 0
        for k in 0..<count { sum &+= Int(Demodulator.margin(e, o, k).magnitude) }
        return sum
    }
}
