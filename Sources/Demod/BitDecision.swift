import ModeS

/// A bit decision for `Demodulator.slice`: how a bit's margin (positive for a 1) is formed from
/// the half-bit energies of `HalfBitPlanes` at the places `o` of one phase
/// (`SliceKernels.bitOffsets`). The plain decision is tried first; the two equalisers only for
/// candidates that fail parity (`Demodulator.evaluate`). Generic callers are specialised, so
/// each decision costs only its own arithmetic.
protocol BitDecision {
    func margin(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ k: Int) -> Int32
}

/// The first half's energy minus the second's.
struct PlainDecision: BitDecision {
    @inline(__always)
    func margin(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ k: Int) -> Int32 { Demodulator.margin(e, o, k) }
}

/// The plain margin less the share of it that the neighbouring half bits leak in through the
/// receiver's band limit: a band-limited pulse spills about `c16`/16 of its energy into the
/// next half bit on either side, so the first half of bit k carries c·(the half before it) and
/// the second half c·(the half after it); subtracting c·(before − after) undoes that to first
/// order (a linear equaliser on the half-bit energies).
struct EqualizedDecision: BitDecision {
    let c16: Int32
    @inline(__always)
    func margin(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ k: Int) -> Int32 {
        let before = k > 0 ? Int32(e[o[2 &* k &- 1]]) : 0
        let after = k < 111 ? Int32(e[o[2 &* k &+ 2]]) : 0
        return Demodulator.margin(e, o, k) &- (c16 &* (before &- after)) >> 4
    }
}

/// Decision-directed equalisation: through a band limit, each half bit's energy carries
/// `forward` (plane units) from the half bit before it when that one holds a pulse, and
/// `backward` from the half bit after it. With the neighbours' bits taken from a tentative
/// slicing (b), bit k's margin (first half − second half) is ±P plus
/// forward·(1 − b[k−1]) − backward·b[k+1] from its neighbours (the half before bit k holds a
/// pulse when bit k−1 is 0, the half after it when bit k+1 is 1), and −forward (a 1) or
/// +backward (a 0) from its own pulse spilling into its other half. Subtracting the
/// neighbours' share and (backward − forward)/2 centres the two outcomes on zero again: this
/// re-opens the eye where runs of equal bits (a 1 MHz pulse train that the filter flattens)
/// close it. The spills are measured on each candidate's own preamble, so an unfiltered signal
/// gets none; equal spills (`symmetricSpill`) are the steadier estimate, separate ones
/// (`spills`) follow a sampling instant off the pulse centres.
struct DirectedDecision: BitDecision {
    let forward: Int32
    let backward: Int32
    /// The tentative bits as the frame holds them (bit k of the reply at bit 63 − k of
    /// `high`, then of `low`), and their count.
    let high: UInt64
    let low: UInt64
    let count: Int

    init(spills: (forward: Int32, backward: Int32), tentative: Frame) {
        forward = spills.forward
        backward = spills.backward
        high = tentative.high
        low = tentative.low
        count = tentative.bitCount
    }

    /// One spill for both directions, from the preamble at places `o` (order of
    /// `SliceKernels.preambleHalfBits`). The quiet half bits next to one pulse (3, 6, 10) carry
    /// one spill each and the two between pulses (1, 8) two, each above the noise that the far
    /// quiet half bits (4, 5, 11, 12, 13) hold alone: 2·(E3 + E6 + E10) + E1 + E8 is 10 spills
    /// and 8 noise means, so the spill is (that − 8/5 · the far sum) / 10; never below 0.
    @inline(__always)
    static func symmetricSpill(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>) -> Int32 {
        @inline(__always) func at(_ i: Int) -> Int32 { Int32(e[o[i]]) }
        let near = (at(5) &+ at(8) &+ at(10)) &* 2 &+ at(4) &+ at(9)
        let far = at(6) &+ at(7) &+ at(11) &+ at(12) &+ at(13)
        return max(0, (near &* 5 &- far &* 8) / 50)
    }

    /// Separate spills: forward from the half bits after a pulse (3 and 10), backward from the
    /// one before a pulse (6), each less the far quiet half bits' mean; never below 0.
    @inline(__always)
    static func spills(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>) -> (forward: Int32, backward: Int32) {
        @inline(__always) func at(_ i: Int) -> Int32 { Int32(e[o[i]]) }
        let far = (at(6) &+ at(7) &+ at(11) &+ at(12) &+ at(13)) / 5
        return (max(0, (at(5) &+ at(10)) / 2 &- far), max(0, at(8) &- far))
    }

    @inline(__always)
    func margin(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ k: Int) -> Int32 {
        // Frame bit numbers are 1-based: bit k of the reply is frame bit k + 1. Before bit 0
        // the preamble is quiet (as after a 1); after the last bit the air is (as before a 0).
        @inline(__always) func bit(_ i: Int) -> Int32 {
            Int32(truncatingIfNeeded: i < 64 ? high >> UInt64(63 &- i) : low >> UInt64(127 &- i)) & 1
        }
        let before: Int32 = k > 0 ? 1 &- bit(k &- 1) : 0
        let after: Int32 = k &+ 1 < count ? bit(k &+ 1) : 0
        return Demodulator.margin(e, o, k) &- forward &* before &+ backward &* after &- (backward &- forward) >> 1
    }
}
