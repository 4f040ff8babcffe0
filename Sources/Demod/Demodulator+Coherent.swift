import ModeS

/// The coherent pass for candidates every magnitude decision failed: which preambles it
/// takes (level, fit, energy against the noise, the quiet before a weak start), the search
/// and its retiming (`CoherentSlicer`), and the checks of its decisions.
extension Demodulator {
    /// Whether the coherent pass takes a preamble of summed pulse energy `pulse` at `s`
    /// (`allowed`: weak enough for it, `SliceKernels.coherentLevelLimit`; before the first
    /// noise floor, any is), and whether it may take the weak-start path (`weak`,
    /// `isWorthSearching`: its mean pulse under `Tuning.weakStartLevel16` sixteenths of a known
    /// floor; a weak start explains under `coherentFit` only when noise is a large part of its
    /// window, and a strong one there is a reply's data). One floor lookup for both: this runs
    /// for every candidate the magnitude decisions failed.
    @inline(__always)
    func coherentAdmission(pulse: Int32, at s: Int) -> (allowed: Bool, weak: Bool) {
        let floor = Int64(noise.level(at: carryStart + UInt64(s)))
        var allowed = true
        if let limit = kernels.coherentLevelLimit {
            // The threshold is the noise floor × levelGate.each/16 for one pulse; `pulse` sums four.
            let loud = Int64(pulseThreshold(floor: floor))
            allowed = loud == 0 || Int64(pulse) * levelGate.each < 4 * 16 * Int64(limit) * loud
        }
        guard tuning.coherentWeakFit < tuning.coherentFit else { return (allowed, false) }
        let weakLimit = Int64(pulseThreshold(floor: floor, each: tuning.weakStartLevel16))
        return (allowed, weakLimit > 0 && Int64(pulse) < 4 * weakLimit)
    }

    /// The coherent pass (`CoherentSlicer`) at start sample `s` and phase index `phase`: each
    /// decision is checked like a sliced candidate (parity, the address filter, the weak-bit
    /// repairs with the bits the fit is least sure of). A decision that fails but names a
    /// format the demodulator takes is re-placed by its own pulses (`CoherentSlicer.retime`)
    /// and searched again there (`Tuning.coherentRetimes`; a reply's bits place it far more
    /// surely than its preamble: on the sweep at 2.0 MS/s and 9 dB, 494 → 621 of 1000).
    mutating func coherent(at s: Int, phase: Int, time: Double, weak: Bool = false) -> ParityResult? {
        // From one sample before the position (the carry keeps it; not at the input's start):
        // the reply may start up to a sample before where the detector put it.
        let back = s >= 1 ? 1 : 0
        let base = s - back
        let count = min(kernels.span + back, magCount - base)
        guard s >= 0, count > 0 else { return nil }
        // The preamble's samples first: most candidates stop at the start's refinement (it
        // reads under 30 samples), the rest of the reply only for a search.
        let head = min(count, 40)
        let detected40 = 40 * back + 40 * kernels.phases[phase] / kernels.resolution
        // Most candidates of a busy sky explain too little at the detector's own start for
        // either refinement below (`CoherentSlicer.fitsAtStart`, the first test of each): they
        // stop here, on a small buffer of the preamble's samples, before the reply's (over a
        // kilobyte, which the runtime takes from the heap) and the slicer's copy are set up.
        // The weak start's share is the smaller, so a start that fails it fails both.
        let least = weak ? min(tuning.coherentFit, tuning.coherentWeakFit) : tuning.coherentFit
        let fits = withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * head) { iq in
            rawSamples(from: base, count: head, into: iq.baseAddress!)
            return coherentSlicer.fitsAtStart(iq.baseAddress!, count: head, start40: detected40, minimumFit: least) != nil
        }
        guard fits else { return nil }
        let slicer = coherentSlicer
        var found: ParityResult?
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * count) { iq in
            rawSamples(from: base, count: head, into: iq.baseAddress!)
            var found40 = slicer.refineStart(iq.baseAddress!, count: head, start40: detected40, minimumFit: tuning.coherentFit)
            // A start that explains too little for `coherentFit` is looked for again with the
            // weak start's share only for a weak preamble (`weak`) where the samples before are
            // quiet (`isWorthSearching`): most failing candidates of a busy sky are strong or
            // lie inside replies, and stop at the first.
            if found40 == nil, weak, let power = noisePower(at: base), isQuietBefore(start40: detected40, at: base, power: power) {
                found40 = slicer.refineStart(iq.baseAddress!, count: head, start40: detected40, minimumFit: tuning.coherentWeakFit)
            }
            guard let refined = found40 else { return }
            // Neighbouring positions of one reply refine to (nearly) the same start: search it
            // once.
            let absolute = Int64(carryStart + UInt64(base)) * 40 + Int64(refined.start40)
            guard abs(absolute - lastCoherentStart) > 60, isWorthSearching(refined, at: base) else { return }
            lastCoherentStart = absolute
            if count > head {
                rawSamples(from: base + head, count: count - head, into: iq.baseAddress! + 2 * head)
            }
            found = search(iq.baseAddress!, count: count, start40: refined.start40, from: base, position: s, time: time).found
        }
        return found
    }

    /// The coherent search (`CoherentSlicer.decide`) of a reply starting `start40` fortieths
    /// after `iq`'s first sample (`count` interleaved samples from magnitude index `base`),
    /// each decision checked as it comes, then its decision-directed retimes
    /// (`Tuning.coherentRetimes`); each search counts against the budget of the window
    /// magnitude index `position` lies in (`coherentBudget`; for a search under a decoded
    /// reply, `overlapped`, `overlapBudget`), and none runs once it is spent. A fresh search
    /// that finds nothing is remembered (`failedSearches`): a stronger reply decoded inside it
    /// may have been what hid it (`Demodulator.decoded`).
    /// Returns what was found, and the last decision and the start it was made at.
    mutating func search(_ iq: UnsafePointer<Float>, count: Int, start40 first40: Int, from base: Int, position: Int, time: Double,
                         overlapped: Bool = false) -> (found: ParityResult?, last: CoherentSlicer.Decision?, start40: Int) {
        // The budget counts per window of absolute positions: the same whatever the blocks.
        let window = (carryStart + UInt64(position)) >> UInt64(NoiseFloor.windowShift)
        if window != coherentWindow { coherentWindow = window; coherentSearchesInWindow = 0; overlapSearchesInWindow = 0 }
        let spent: WritableKeyPath<Demodulator, Int> = overlapped ? \.overlapSearchesInWindow : \.coherentSearchesInWindow
        let budget = overlapped ? overlapBudget : coherentBudget
        guard self[keyPath: spent] < budget else { return (nil, nil, first40) }
        self[keyPath: spent] += 1
        coherentSearches &+= 1
        let slicer = coherentSlicer
        var found: ParityResult?
        // The noise power in full-scale units, for the firm decisions' repair.
        let scale = Double(MagnitudeConverter.fullScale)
        let noise = (noisePower(at: base) ?? firstWindowNoisePower(at: base)).map { Float($0 / (scale * scale)) }
        // Each decision is checked as it comes: a later pass only when this one fails.
        func search(at start40: Int) -> CoherentSlicer.Decision? {
            slicer.decide(iq, count: count, start40: start40, passes: tuning.coherentPasses,
                          longestRun: tuning.coherentErasureRun) { decision in
                found = check(coherent: decision, at: time, noise: noise)
                return found != nil
            }.last
        }
        var start40 = first40
        var last = search(at: start40)
        // Decision-directed timing (`Tuning.coherentRetimes`): where the failed decision's
        // own pulses fit best, searched again; each counts against the budget.
        for _ in 0..<tuning.coherentRetimes {
            guard found == nil, let decided = last, self[keyPath: spent] < budget else { break }
            // A near-squitter only while half the window's budget is left: where weak
            // replies crowd a window, its searches go to fresh starts first.
            guard let bitCount = Demodulator.retimedLength(downlinkFormat: decided.downlinkFormat,
                                                           nearSquitters: 2 * self[keyPath: spent] < budget) else { break }
            let better = slicer.retime(iq, count: count, start40: start40, raw: decided.raw, bitCount: bitCount)
            guard better != start40 else { break }
            start40 = better
            self[keyPath: spent] += 1
            coherentSearches &+= 1
            last = search(at: start40)
        }
        if found == nil, !overlapped, tuning.searchesOverlaps {
            rememberFailedSearch(Int64(carryStart + UInt64(base)) * 40 + Int64(first40))
        }
        return (found, last, start40)
    }

    // The read-only helpers from here to `meanPower` that the coherent pass, the candidate
    // loop and the look under decoded replies call are `mutating`, as `rawSamples` is: a
    // non-mutating method called from the demodulator's mutating paths was compiled as a
    // copy of the whole demodulator (1 280 bytes) for each call.

    /// Whether a preamble the coherent fit placed at `refined` (fortieths from magnitude index
    /// `base`) is worth a search. Its energy must be at least `coherentEnergy` times the noise's
    /// (`NoiseFloor.noisePower`; before the first floor, any is), and it must explain at least
    /// `coherentFit` of its window, or else at least `coherentWeakFit` with an energy in
    /// `coherentWeakEnergy` (noise powers) and quiet samples before it (`isQuiet`).
    /// In a weak reply the preamble's window holds much noise, so a true start often explains
    /// less than `coherentFit`; but so do the starts a failed reply's own data pulses offer,
    /// which come after its real start: the quiet before tells them apart. A strong preamble
    /// that explains little has another signal in its window, not noise: the range's top.
    mutating func isWorthSearching(_ refined: (start40: Int, fit: Float, captured: Float), at base: Int) -> Bool {
        guard let power = noisePower(at: base) else { return refined.fit >= tuning.coherentFit }
        let scale = Double(MagnitudeConverter.fullScale)
        let energy = Double(refined.captured) * scale * scale / power
        if refined.fit >= tuning.coherentFit { return energy >= Double(tuning.coherentEnergy) }
        guard refined.fit >= tuning.coherentWeakFit, tuning.coherentWeakEnergy.contains(Float(energy)) else { return false }
        return isQuietBefore(start40: refined.start40, at: base, power: power)
    }

    /// The noise power (magnitude units squared) at magnitude index `i`, from the floor in
    /// effect there (`NoiseFloor.noisePower`); nil before the first floor.
    mutating func noisePower(at i: Int) -> Double? {
        let floor = noise.level(at: carryStart + UInt64(i))
        return floor > 0 ? NoiseFloor.noisePower(floor: floor) : nil
    }

    /// The noise power the start's first reading measured, at magnitude index `i` in the
    /// input's first window (`firstWindowNoise`); nil elsewhere.
    func firstWindowNoisePower(at i: Int) -> Double? {
        guard let known = firstWindowNoise, (carryStart + UInt64(i)) >> UInt64(NoiseFloor.windowShift) == known.window else { return nil }
        return known.power
    }

    /// `isQuiet` before a start at `start40` fortieths from magnitude index `base`, up to the
    /// last sample the reply's first pulse does not reach; `power`: the noise power there.
    mutating func isQuietBefore(start40: Int, at base: Int, power: Double) -> Bool {
        isQuiet(before: base + start40 / 40 - coherentSlicer.reach, power: power)
    }

    /// Whether the `Demodulator.quietSamples` magnitudes before index `end` have a mean power
    /// under `Tuning.quietPower` times the noise's `power` (magnitude units squared); false
    /// when they reach before the carried samples (`Demodulator.lookBack`).
    mutating func isQuiet(before end: Int, power: Double) -> Bool {
        guard let mean = meanPower(before: end) else { return false }
        return mean < Double(tuning.quietPower) * power
    }

    /// The mean power (magnitude units squared) of the `Demodulator.quietSamples` magnitudes
    /// before index `end`; nil when they reach outside the carried samples.
    mutating func meanPower(before end: Int) -> Double? {
        let first = end - Demodulator.quietSamples
        guard first >= 0, end <= magCount else { return nil }
        // In integers: sixteen squares of 15-bit magnitudes stay under 2³⁴, exact, without a
        // conversion a sample.
        var sum: UInt64 = 0
        mags.withUnsafeBufferPointer { m in
            for i in first..<end { sum &+= UInt64(m[i]) &* UInt64(m[i]) }
        }
        return Double(sum) / Double(Demodulator.quietSamples)
    }

    /// Samples whose power `isQuiet` weighs: 16 (6.7 µs at 2.4 MS/s, 8 µs at 2.0).
    static let quietSamples = 16

    /// The length a failed decision whose first bits are `df` is retimed at: its format's, or
    /// with `nearSquitters` an extended squitter's when it names none the demodulator takes but
    /// lies within two bits of DF17 or DF18 (`checkMisjudgedFormat` reads it so). On the sweep
    /// (seed 1, 1000 frames), near-squitters retimed while half the window's budget is left:
    /// 2.4 MS/s 5, 6 dB 211 → 218, 524 → 537; 2.0 MS/s 8, 9 dB 344 → 349, 690 → 702 (7 dB 99 →
    /// 96; the Butterworth channel at 5 and 6 dB 39 → 35, 168 → 160). Retimed whatever the
    /// budget they read more at 2.4 MS/s (221, 543) but far fewer where the budget runs out
    /// (2.0 MS/s 7 dB 89; Butterworth 28, 150).
    static func retimedLength(downlinkFormat df: UInt64, nearSquitters: Bool) -> Int? {
        replyLength(downlinkFormat: df) ?? (nearSquitters && isNearSquitter(df) ? 112 : nil)
    }

    /// The extended squitters' formats, and how many of a decision's first five bits may be
    /// wrong for it to be read as one (`checkMisjudgedFormat`, `retimedLength`).
    static let squitterFormats: [UInt64] = [17, 18]
    static let misjudgedFormatBits = 2

    /// Whether first bits `df` lie within `misjudgedFormatBits` of DF17 or DF18.
    static func isNearSquitter(_ df: UInt64) -> Bool {
        squitterFormats.contains { (df ^ $0).nonzeroBitCount <= misjudgedFormatBits }
    }

    /// A failed decision read as an extended squitter (DF17, then DF18) whose first bits the
    /// search misjudged: the first data bits follow the preamble's last pulse, where a start a
    /// little wrong costs most (on the sweep at 2.0 MS/s and 12 dB, a quarter of the replies
    /// the search failed had only bits 0–3 wrong, each naming a format the demodulator does not
    /// take; one wrong bit can as well name one it takes: DF16, 19 and 21 are one bit from DF17,
    /// and their own checks fail first). Each squitter format within one or two bits of the
    /// decided one is tried once and taken only when its parity then holds exactly: at most two
    /// chances of 2⁻²⁴ per decision (`formatGuesses`), no repair.
    mutating func checkMisjudgedFormat(_ decision: CoherentSlicer.Decision) -> ParityResult? {
        let decided = decision.downlinkFormat
        for format in Demodulator.squitterFormats where (1...Demodulator.misjudgedFormatBits).contains((decided ^ format).nonzeroBitCount) {
            let raw = decision.raw & ~(UInt128(0x1F) << 123) & (~0 << 16) | UInt128(format) << 123
            guard let candidate = Frame(raw: raw, bitCount: 112) else { continue }
            formatGuesses &+= 1
            guard CRC24.syndrome(of: candidate) == 0 else { continue }
            // Like the other repairs, a frame whose bits were changed does not introduce its
            // address to the filter.
            return ParityResult(frame: candidate, outcome: .corrected(bits: (decided ^ format).nonzeroBitCount),
                                address: UInt32(candidate.bits(9, 32)), interrogatorID: nil)
        }
        return nil
    }

    /// One decision of the coherent pass checked like a sliced candidate: parity and the
    /// address filter, the known-aircraft repair on its least reliable bits, then the
    /// unknown-squitter repair on its least reliable error events, as many as its `hold`
    /// allows; failing those (or naming a
    /// format the demodulator does not take), as the squitter it is near
    /// (`checkMisjudgedFormat`).
    /// `noise`: the noise power there (full scale 1), nil when unknown.
    mutating func check(coherent decision: CoherentSlicer.Decision, at time: Double, noise: Float? = nil) -> ParityResult? {
        if let bitCount = Demodulator.replyLength(downlinkFormat: decision.downlinkFormat),
           let result = check(coherent: decision, bitCount: bitCount, at: time, noise: noise) { return result }
        return checkMisjudgedFormat(decision)
    }

    /// `check(coherent:at:)` for a decision of a format the demodulator takes, `bitCount` long.
    mutating func check(coherent decision: CoherentSlicer.Decision, bitCount: Int, at time: Double, noise: Float? = nil) -> ParityResult? {
        guard let candidate = decision.frame(bitCount: bitCount) else { return nil }
        let syndrome = CRC24.syndrome(of: candidate)
        if let result = addressFilter.accept(candidate, syndrome: syndrome, at: time) { return result }
        let weakest = WeakestBits(CoherentSlicer.leastReliable(decision.reliability, bitCount: bitCount, count: 5))
        if let result = repairWeakBits(candidate, syndrome: syndrome, weakest: weakest, at: time) { return result }
        guard candidate.isExtendedSquitter else { return nil }
        // One selection of events serves the hold and the repair: a looser hold's fewer events
        // are the first of the firm repair's, ranked alike.
        let ranked = CoherentSlicer.ratedLeastReliableEvents(decision, bitCount: bitCount,
                                                             count: max(tuning.strongErasureBits, tuning.steadyErasureBits, tuning.coherentErasureBits))
        let hold = self.hold(decision, bitCount: bitCount, noise: noise, ranked: ranked.reliabilities)
        switch hold {
        case .firm: strongSquitterRepairs &+= 1
        case .steady: steadySquitterRepairs &+= 1
        case .loose: squitterRepairs.coherent &+= 1
        }
        let (count, flips) = erasures(hold)
        let events = (runs: Array(ranked.runs.prefix(count)), reliabilities: Array(ranked.reliabilities.prefix(count)))
        // With the noise known, each event's reliability over the noise power is its
        // log-likelihood ratio: a pattern less likely than a random syndrome's solution is
        // refused (`Tuning.weighsRepairs`).
        var ceiling = Float.infinity
        if tuning.weighsRepairs, let noise, noise > 0 {
            ceiling = ErasureRepair.likelihoodCeiling(erasures: count, maximumFlips: flips) * noise
        }
        if let result = Demodulator.repairUnknownSquitter(candidate, syndrome: syndrome, runs: events.runs, maximumFlips: flips,
                                                          costs: events.reliabilities, ceiling: ceiling) { return result }
        return nil
    }

    /// How firmly the coherent fit holds a failed squitter decision's bits, which sets how many
    /// of its least reliable error events the repair may invert (`erasures`): a real reply's
    /// decision is held far above the noise, noise's own far under it, and a garbled weak
    /// reply's in between, where a larger repair would find false frames.
    enum Hold: Equatable {
        /// The median bit reliability under `Tuning.steadyDecisionReliability` noise powers (or
        /// the noise unknown): `coherentErasureFlips` of `coherentErasureBits`.
        case loose
        /// Between that and `strongDecisionReliability`, the firm repair's edge event under
        /// `firmEdgeReliability`: `steadyErasureFlips` of `steadyErasureBits`.
        case steady
        /// `strongErasureFlips` of `strongErasureBits`.
        case firm
    }

    /// The events a repair of a decision held so may use, and how many of them it may invert.
    func erasures(_ hold: Hold) -> (events: Int, flips: Int) {
        switch hold {
        case .loose: (tuning.coherentErasureBits, tuning.coherentErasureFlips)
        case .steady: (tuning.steadyErasureBits, tuning.steadyErasureFlips)
        case .firm: (tuning.strongErasureBits, tuning.strongErasureFlips)
        }
    }

    /// How firmly the fit holds `decision`'s bits (`Hold`): the median of its `bitCount` bits'
    /// reliabilities and, between the two gates, its `strongErasureBits`-th least reliable
    /// event (of `ranked`, the events' reliabilities least first:
    /// `CoherentSlicer.ratedLeastReliableEvents`), against the noise power `noise` (the
    /// reliabilities are squared misfits, full scale 1: noise powers once divided by it).
    /// Loose when the noise is unknown or the firm repair is off.
    func hold(_ decision: CoherentSlicer.Decision, bitCount: Int, noise: Float?, ranked: [Float]) -> Hold {
        guard let noise, noise > 0, tuning.strongErasureFlips > 0, decision.reliability.count >= bitCount else { return .loose }
        var sorted = Array(decision.reliability[0..<bitCount])
        sorted.sort()
        let median = sorted[bitCount / 2]
        if median >= tuning.strongDecisionReliability * noise { return .firm }
        guard median >= tuning.steadyDecisionReliability * noise else { return .loose }
        let edge = ranked.count >= tuning.strongErasureBits ? ranked[tuning.strongErasureBits - 1] : 0
        return edge >= tuning.firmEdgeReliability * noise ? .firm : .steady
    }
}
