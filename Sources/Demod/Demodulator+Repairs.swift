import ModeS

/// The soft repairs of a candidate that failed parity: its weakest bits (smallest margins),
/// the known-aircraft repair over subsets of them (`flipWeakBits`, Gray-code order) and the
/// unknown-squitter repair by erasures (`ErasureRepair`).
extension Demodulator {
    /// The `slots` weakest bits (smallest margins) after the DF of a sliced candidate, weakest
    /// first: 1, 3, or any other count for all five; the slots after them read as unused.
    /// Only a candidate that failed its parity check needs them, and only as many as its
    /// repairs try (`weakSlots(for:)`): the known-aircraft repair of an address/parity reply
    /// inverts only the weakest, so most failed candidates of a busy sky need one pass of
    /// minima.
    static func weakestBits<D: BitDecision>(_ e: UnsafePointer<Int16>, bits o: UnsafePointer<Int>, count: Int, decision: D,
                                            slots: Int = 5) -> WeakestBits {
        // Each bit as one key, margin above bit number (margins < 2¹⁶, bit numbers < 2⁸), so
        // equal margins rank the earlier bit first; the smallest keys are kept sorted with
        // minimum/maximum only (no branch on the data): each slot keeps the smaller of itself
        // and what the slot before let through. The first n slots of a longer list are the
        // same keys, so fewer slots give the same weakest bits.
        var k0 = UInt32.max, k1 = UInt32.max, k2 = UInt32.max, k3 = UInt32.max, k4 = UInt32.max
        @inline(__always) func key(_ k: Int) -> UInt32 { decision.margin(e, o, k).magnitude << 8 | UInt32(k + 1) }
        @inline(__always) func keep(_ slot: inout UInt32, _ carry: inout UInt32) {
            let larger = max(slot, carry)
            slot = min(slot, carry)
            carry = larger
        }
        switch slots {
        case 1:
            for k in 5..<count { k0 = min(k0, key(k)) }
        case 3:
            for k in 5..<count {
                var carry = key(k)
                keep(&k0, &carry); keep(&k1, &carry); keep(&k2, &carry)
            }
        default:
            for k in 5..<count {
                var carry = key(k)
                keep(&k0, &carry); keep(&k1, &carry); keep(&k2, &carry); keep(&k3, &carry); keep(&k4, &carry)
            }
        }
        // The keys are in order; an unused key (fewer bits or slots) reads as bit 0.
        @inline(__always) func bit(_ key: UInt32) -> Int { key == .max ? 0 : Int(key & 0xFF) }
        return WeakestBits(bits: (bit(k0), bit(k1), bit(k2), bit(k3), bit(k4)))
    }

    /// How many weakest bits the repairs of a failed candidate try (`check`): the
    /// known-aircraft repair's (`knownRepairBits`), and for an extended squitter also the
    /// unknown-squitter repair's (`unknownRepairBits`: `Tuning.unknownRepairBits`, at most
    /// five). Static: a method of the demodulator called from its mutating paths was compiled
    /// as a copy of the whole demodulator (1 280 bytes) a call, once a failed candidate.
    static func weakSlots(for candidate: Frame, unknownRepairBits: Int) -> Int {
        let known = Demodulator.knownRepairBits(for: candidate)
        return candidate.isExtendedSquitter ? max(known, unknownRepairBits) : known
    }

    /// The weakest bits the known-aircraft repair (`repairWeakBits`) inverts subsets of: the
    /// parity of an address/parity reply *is* its address, so every variant tried is one more
    /// chance for noise to land on one of the known addresses (up to 4 096 of 2^24): those try
    /// only the single weakest bit; the other formats three.
    static func knownRepairBits(for candidate: Frame) -> Int {
        ParityCheck.isAddressParity(candidate.downlinkFormat) ? 1 : 3
    }

    /// The five bits (1-based frame bit numbers, after the DF) with the smallest margins,
    /// weakest first; 0 marks an unused slot (the used ones are a prefix).
    struct WeakestBits {
        var bits: (Int, Int, Int, Int, Int)

        /// The first five of `order` (1-based bit numbers, weakest first; fewer: 0 after).
        init(_ order: [Int]) {
            func bit(_ i: Int) -> Int { i < order.count ? order[i] : 0 }
            bits = (bit(0), bit(1), bit(2), bit(3), bit(4))
        }

        init(bits: (Int, Int, Int, Int, Int)) { self.bits = bits }

        /// The bits in use among the first `limit`, weakest first.
        func prefix(_ limit: Int) -> some Sequence<Int> {
            (0..<count(upTo: limit)).lazy.map { self[$0] }
        }

        /// Slots in use among the first `limit`.
        func count(upTo limit: Int) -> Int {
            var n = 0
            while n < min(limit, 5) && self[n] != 0 { n += 1 }
            return n
        }

        subscript(_ i: Int) -> Int {
            switch i {
            case 0: bits.0
            case 1: bits.1
            case 2: bits.2
            case 3: bits.3
            default: bits.4
            }
        }
    }

    /// The first variant of `candidate` (whose syndrome is `base`) with a subset of the first
    /// `count` weakest bits inverted that `accept` takes, with the number of bits inverted. `accept` gets the
    /// variant's syndrome and a function that builds the variant (only a syndrome that may
    /// pass needs the frame). Every non-empty subset is tried once, in Gray-code order, so
    /// each differs from the one before in one bit: the code is linear, so the syndrome
    /// changes by that bit's syndrome and the frame by one bit.
    static func flipWeakBits(_ candidate: Frame, syndrome base: UInt32, _ w: WeakestBits, count: Int,
                      accept: (UInt32, () -> Frame) -> ParityResult?) -> (ParityResult, Int)? {
        guard count > 0 else { return nil }
        var syndrome = base
        let raw = candidate.raw
        var mask: UInt128 = 0
        var flipped = 0
        for i in 1..<(1 << count) {
            let changed = w[i.trailingZeroBitCount]
            let bit = UInt128(1) << UInt128(128 - changed)
            mask ^= bit
            flipped += mask & bit == 0 ? -1 : 1
            syndrome ^= CRC24.syndrome(ofBit: changed, bitCount: candidate.bitCount)
            if let result = accept(syndrome, { Frame(raw: raw ^ mask, bitCount: candidate.bitCount)! }) { return (result, flipped) }
        }
        return nil
    }

    /// Soft-decision repair of an extended squitter (DF17/18) from an address not known yet:
    /// the parity equations are solved on its least reliable bits (`positions`, least first)
    /// over GF(2) (`ErasureRepair`), and the solution taken only when it inverts at most
    /// `maximumFlips` of them and leaves the parity holding exactly (no further correction). A
    /// real reply with a few bit errors has them where the bits are least sure; noise has no
    /// such structure, and a candidate that is not a reply passes with probability at most
    /// `ErasureRepair.falseAcceptBound`: 31 / 2²⁴ ≈ 1.8 × 10⁻⁶ for the magnitude path's five
    /// weakest bits (any subset), the bound stated and measured in the README.
    static func repairUnknownSquitter<S: Sequence<Int>>(_ candidate: Frame, syndrome: UInt32, positions: S, maximumFlips: Int) -> ParityResult? {
        guard candidate.isExtendedSquitter, maximumFlips > 0 else { return nil }
        return repairUnknownSquitter(candidate, syndrome: syndrome, solver: ErasureRepair(positions: positions, bitCount: candidate.bitCount),
                                     maximumFlips: maximumFlips)
    }

    /// `repairUnknownSquitter` over error events that each invert a run of bits (the coherent
    /// pass's least reliable bits and runs of equal bits, `CoherentSlicer.leastReliableEvents`):
    /// at most `maximumFlips` events, the same bound per event as per position.
    /// `costs` and `ceiling`: the events' log-likelihood ratios, and the most the inverted
    /// ones may sum to (`ErasureRepair.repair(syndrome:maximumFlips:costs:ceiling:)`).
    static func repairUnknownSquitter(_ candidate: Frame, syndrome: UInt32, runs: [ClosedRange<Int>], maximumFlips: Int,
                                      costs: [Float] = [], ceiling: Float = .infinity) -> ParityResult? {
        guard candidate.isExtendedSquitter, maximumFlips > 0 else { return nil }
        return repairUnknownSquitter(candidate, syndrome: syndrome, solver: ErasureRepair(runs: runs, bitCount: candidate.bitCount),
                                     maximumFlips: maximumFlips, costs: costs, ceiling: ceiling)
    }

    private static func repairUnknownSquitter(_ candidate: Frame, syndrome: UInt32, solver: ErasureRepair, maximumFlips: Int,
                                              costs: [Float] = [], ceiling: Float = .infinity) -> ParityResult? {
        guard let (mask, flips) = solver.repair(syndrome: syndrome, maximumFlips: maximumFlips, costs: costs, ceiling: ceiling),
              let frame = Frame(raw: candidate.raw ^ mask, bitCount: candidate.bitCount) else { return nil }
        return ParityResult(frame: frame, outcome: .corrected(bits: flips), address: UInt32(frame.bits(9, 32)), interrogatorID: nil)
    }

    /// `repairUnknownSquitter` on the magnitude path: any subset of the
    /// `tuning.unknownRepairBits` weakest bits.
    @inline(__always)
    func repairUnknownSquitter(_ candidate: Frame, syndrome: UInt32, weakest w: WeakestBits) -> ParityResult? {
        Demodulator.repairUnknownSquitter(candidate, syndrome: syndrome, positions: w.prefix(tuning.unknownRepairBits), maximumFlips: tuning.unknownRepairBits)
    }

    /// After a failed parity check: inverts every non-empty subset of the three weakest bits
    /// (of an address/parity reply: only the weakest) and accepts the result only for an
    /// address already known (multi-bit repairs must not invent aircraft). Returns the
    /// repaired result with the total bits changed.
    @inline(__always)
    func repairWeakBits(_ candidate: Frame, syndrome: UInt32, weakest w: WeakestBits, at time: Double) -> ParityResult? {
        Demodulator.repairWeakBits(candidate, syndrome: syndrome, weakest: w, known: addressFilter.at(time))
    }

    /// `repairWeakBits` against the addresses known at the candidate's time.
    static func repairWeakBits(_ candidate: Frame, syndrome: UInt32, weakest w: WeakestBits, known: AddressFilter.Snapshot) -> ParityResult? {
        let addressParity = ParityCheck.isAddressParity(candidate.downlinkFormat)
        return flipWeakBits(candidate, syndrome: syndrome, w, count: w.count(upTo: knownRepairBits(for: candidate))) { syndrome, variant in
            // An address/parity reply's syndrome is its address: look it up before building.
            if addressParity && !known.contains(syndrome) { return nil }
            guard let result = ParityCheck.check(variant(), syndrome: syndrome, known: known), known.contains(result.address) else { return nil }
            return result
        }.map { result, flipped in
            ParityResult(frame: result.frame, outcome: .corrected(bits: flipped + result.correctedBits),
                         address: result.address, interrogatorID: result.interrogatorID)
        }
    }
}
