import ModeS
import RealModule

/// Candidate positions: ranking of phases, slicing, parity, weak-bit repair.
extension Demodulator {
    /// Samples from a frame's start to its end.
    func frameSamples(_ bits: Int) -> Int {
        ((16 + 2 * bits) * kernels.halfBitSteps) / kernels.resolution
    }

    /// The best valid frame starting at `s` (with the detector's phase set) or `s + 1`, or nil.
    /// A frame whose parity held without correction is taken as it is: the next sample would
    /// give the same bits. The frame is built (timestamp, level) and counted only here, once.
    mutating func evaluateBest(at s: Int, phases: UInt8, detector: PreambleDetector) -> DemodulatedFrame? {
        guard var best = evaluate(at: s, phases: phases) else { return nil }
        if best.result.correctedBits > 0 {
            let next = detector.detect1(planes.bytes, at: s + 1 - planes.origin, offsets.preamble)
            if next != 0, let second = evaluate(at: s + 1, phases: detector.ranked(next)), second.score > best.score { best = second }
        }
        // Pulse energies are in steps × 12-bit magnitudes: back to full scale 1.0.
        let level = Double(best.pulse) * Double(1 << HalfBitPlanes.shift) / Double(4 * kernels.halfBitSteps) / Double(MagnitudeConverter.fullScale)
        let power = max(level * level, 1e-12)
        let steps = UInt64(best.start) &* UInt64(kernels.resolution) &+ UInt64(kernels.phases[best.phase])
        let endOfBit56 = carryStart &* UInt64(kernels.resolution) &+ steps &+ UInt64(128 * kernels.halfBitSteps)
        let ticks = endOfBit56 &* sampleRate.ticksPerSample / UInt64(kernels.resolution)
        let frame = DemodulatedFrame(
            received: ReceivedFrame(frame: best.result.frame, timestamp: ticks, signal: 10 * Double.log10(power)),
            parity: best.result, sampleIndex: carryStart + UInt64(best.start), score: best.score)
        count(frame, power: power)
        return frame
    }

    /// A candidate that passed parity: the result, where it was sliced and how clearly.
    struct Accepted {
        var result: ParityResult
        /// Start sample (magnitude index) and phase index.
        var start: Int
        var phase: Int
        /// The preamble's summed pulse energy (plane units): the signal level.
        var pulse: Int32
        /// Summed bit margins (`margins`).
        var score: Int
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

    /// Tries the detector's phases at start sample `s` (a magnitude index the planes cover);
    /// returns the best-scoring candidate that passes parity.
    mutating func evaluate(at s: Int, phases: UInt8) -> Accepted? {
        planes.ensureEnergies(upTo: s - planes.origin + kernels.maxOffset + 2)
        return evaluate(at: s, phases: phases, entry: planes.entries + (s - planes.origin),
                 preamble: offsets.preamble, bits: offsets.bits)
    }

    mutating func evaluate(at s: Int, phases: UInt8, entry e: UnsafePointer<Int16>,
                           preamble: UnsafePointer<Int>, bits: UnsafePointer<Int>) -> Accepted? {
        // Rank the phases by preamble correlation; slice only the best few.
        var ranked: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)  // packed: score << 3 | index
        var pulses: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
        var count = 0
        var set = phases
        while set != 0 {
            let index = set.trailingZeroBitCount
            set &= set &- 1
            let o = preamble + index * SliceKernels.preambleWindows
            var pulse: Int32 = 0, quiet: Int32 = 0
            for j in 0..<4 { pulse &+= Int32(e[o[j]]) }
            for j in 4..<SliceKernels.preambleWindows { quiet &+= Int32(e[o[j]]) }
            let score = (pulse &* 5 &- quiet &* 2) >> 3
            withUnsafeMutableBytes(of: &ranked) { $0.storeBytes(of: score << 3 | Int32(index), toByteOffset: count * 4, as: Int32.self) }
            withUnsafeMutableBytes(of: &pulses) { $0.storeBytes(of: pulse, toByteOffset: index * 4, as: Int32.self) }
            count += 1
        }
        guard count > 0 else { return nil }
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
        for rank in 0..<min(count, tuning.phasesSliced) {
            let packed = withUnsafeBytes(of: &ranked) { $0.load(fromByteOffset: rank * 4, as: Int32.self) }
            let index = Int(packed & 7)
            let pulse = withUnsafeBytes(of: &pulses) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
            let phaseBits = bits + index * 224
            guard let candidate = slice(e, bits: phaseBits, pulse: pulse) else {
                if rank == 0 && !kernels.slicesPastNoReply { break }
                continue
            }
            guard let result = addressFilter.accept(candidate, at: time)
                    ?? repairWeakBits(candidate, weakest: weakestBits(e, bits: phaseBits, count: candidate.bitCount), at: time)
                    ?? experimentUnknown(candidate, weakest: weakestBits(e, bits: phaseBits, count: candidate.bitCount), at: time) else {
                if ParityCheck.isAddressParity(candidate.downlinkFormat) {
                    statistics.unknownAddress += 1
                } else {
                    statistics.bad += 1
                }
                continue
            }
            let score = margins(e, bits: phaseBits, count: candidate.bitCount)
            if let current = best, current.score >= score { continue }
            best = Accepted(result: result, start: s, phase: index, pulse: pulse, score: score)
            // A clean decode at the best-correlated phase is as good as it gets.
            if result.correctedBits == 0 && rank == 0 { break }
        }
        return best
    }

    /// Slices the bits after a preamble; nil for a format with no defined length, or when
    /// too many of the first bits are too weak to be a reply (`pulse` is the preamble's
    /// summed pulse energy: a data pulse of the same reply carries about a quarter of it).
    /// Only bits: the margins that rank candidates (`margins`) are summed for the few that
    /// pass parity.
    func slice(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, pulse: Int32) -> Frame? {
        @inline(__always) func bit(_ k: Int) -> Int32 { Demodulator.margin(e, o, k) }
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
        let bitCount: Int
        // DF24 (Comm-D, a quarter of all bit patterns) is left out: it is rare on the air and
        // would let through a flood of noise candidates.
        switch high {
        case 0, 4, 5, 11: bitCount = 56
        case 16, 17, 18, 19, 20, 21: bitCount = 112
        default: return nil
        }
        for k in 5..<24 {
            let v = bit(k)
            high = high << 1 | one(v)
            weak &+= v.magnitude < weakLimit ? 1 : 0
        }
        if weak > tuning.weakBitLimit { return nil }
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

    /// Bit k's margin: the energy of its first half minus its second half (plane units, at
    /// the places `o` of one phase); positive for a 1.
    @inline(__always)
    static func margin(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ k: Int) -> Int32 {
        Int32(e[o[2 &* k]]) &- Int32(e[o[2 &* k &+ 1]])
    }

    /// The summed bit margins of a frame sliced with these places: how clearly it was
    /// received, to choose between candidates.
    func margins(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, count: Int) -> Int {
        var sum = 0
        for k in 0..<count { sum &+= Int(Demodulator.margin(e, o, k).magnitude) }
        return sum
    }

    /// The three weakest bits (smallest margins) after the DF of a sliced candidate: only a
    /// candidate that failed its parity check needs them.
    func weakestBits(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, count: Int) -> WeakestBits {
        // Each bit as one key, margin above bit number (margins < 2¹⁶, bit numbers < 2⁸), so
        // equal margins rank the earlier bit first; the three smallest keys are kept sorted
        // with minimum/maximum only (no branch on the data).
        var k0 = UInt32.max, k1 = UInt32.max, k2 = UInt32.max
        for k in 5..<count {
            let margin = Demodulator.margin(e, o, k).magnitude
            let key = margin << 8 | UInt32(k + 1)
            let carry = max(k0, key)
            k0 = min(k0, key)
            k2 = min(k2, max(k1, carry))
            k1 = min(k1, carry)
        }
        // The keys are already in order; an unused key (fewer than three bits) reads as bit 0.
        @inline(__always) func bit(_ key: UInt32) -> Int { key == .max ? 0 : Int(key & 0xFF) }
        return WeakestBits(bits: (bit(k0), bit(k1), bit(k2)))
    }

    mutating func experimentUnknown(_ candidate: Frame, weakest w: WeakestBits, at time: Double) -> ParityResult? {
        guard tuning.repairsUnknown > 0, candidate.bitCount == 112, [17, 18].contains(candidate.downlinkFormat) else { return nil }
        if tuning.repairsUnknown & 1 != 0, let r = ParityCheck.check(candidate), r.correctedBits == 1 { addressFilter.record(r.address, at: time); return r }
        if tuning.repairsUnknown & 2 != 0 {
            let base = CRC24.syndrome(of: candidate)
            let bits = [w.bits.0, w.bits.1, w.bits.2].filter { $0 != 0 }
            for subset in 1..<(1 << bits.count) {
                var f = candidate; var syn = base; var n = 0
                for i in 0..<bits.count where subset & (1 << i) != 0 { f = f.flipping(bit: bits[i]); syn ^= CRC24.syndrome(ofBit: bits[i], bitCount: 112); n += 1 }
                if syn == 0 { addressFilter.record(UInt32(f.bits(9, 32)), at: time); return ParityResult(frame: f, outcome: .corrected(bits: n), address: UInt32(f.bits(9, 32)), interrogatorID: nil) }
            }
        }
        return nil
    }

    /// The three bits (1-based frame bit numbers, after the DF) with the smallest margins,
    /// weakest first; 0 marks an unused slot (the used ones are a prefix).
    struct WeakestBits {
        var bits: (Int, Int, Int)
    }

    /// After a failed parity check: inverts every non-empty subset of the three weakest bits
    /// and accepts the result only for an address already known (multi-bit repairs must not
    /// invent aircraft). Returns the repaired result with the total bits changed.
    func repairWeakBits(_ candidate: Frame, weakest w: WeakestBits, at time: Double) -> ParityResult? {
        // The weakest bits fill from the first slot, so the used ones are a prefix (no
        // array: this runs for every candidate that fails parity).
        let count = w.bits.0 == 0 ? 0 : w.bits.1 == 0 ? 1 : w.bits.2 == 0 ? 2 : 3
        guard count > 0 else { return nil }
        @inline(__always) func bit(_ i: Int) -> Int { i == 0 ? w.bits.0 : i == 1 ? w.bits.1 : w.bits.2 }
        let known = addressFilter.at(time)
        // The code is linear: each variant's syndrome is the candidate's XOR its flipped bits'.
        let base = CRC24.syndrome(of: candidate)
        for subset in 1..<(1 << count) {
            var frame = candidate
            var syndrome = base
            var flipped = 0
            for i in 0..<count where subset & (1 << i) != 0 {
                frame = frame.flipping(bit: bit(i))
                syndrome ^= CRC24.syndrome(ofBit: bit(i), bitCount: candidate.bitCount)
                flipped += 1
            }
            guard let result = ParityCheck.check(frame, syndrome: syndrome, known: known), known.contains(result.address) else { continue }
            return ParityResult(frame: result.frame, outcome: .corrected(bits: flipped + result.correctedBits),
                                address: result.address, interrogatorID: result.interrogatorID)
        }
        return nil
    }
}
