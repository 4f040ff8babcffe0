import RealModule

/// Repair of bit errors at positions a receiver marked as unreliable, by solving the parity
/// equations over GF(2): erasure decoding of the Mode S CRC (Annex 10 Vol IV §3.1.2.3.3).
///
/// The code is linear: inverting bit `p` changes a frame's syndrome by `CRC24.syndrome(ofBit:
/// p)`. Given `n` candidate positions (the least reliable bits, least first) and a syndrome
/// `s`, an error pattern confined to them is a subset `x` with Σ xᵢ·cᵢ = s, cᵢ the positions'
/// syndromes: 24 equations in `n` unknowns, solved by Gaussian elimination in O(24·n) word
/// operations whatever `n` (trying every subset would cost 2ⁿ).
///
/// **False-accept bound.** Positions become pivots in the order given and one that depends on
/// earlier ones is dropped, so each syndrome has at most one solution, and the solver repairs
/// at most `Σ_{k=1…t} C(n, k)` syndromes with at most `t` bits. A candidate that is not a reply
/// has a syndrome spread evenly over the 2²⁴ values, so it becomes a frame with valid parity
/// with probability at most that sum / 2²⁴ (`falseAcceptBound`): 31 / 2²⁴ ≈ 1.8 × 10⁻⁶ for
/// n = t = 5.
///
/// No heap: the echelon basis is three fixed-size vectors on the stack.
public struct ErasureRepair: Sendable {
    /// Frame length (56 or 112).
    public let bitCount: Int
    /// Echelon basis keyed by leading syndrome bit: `rows[b]` has leading bit `b` (0: none);
    /// `high[b]`/`low[b]` are the frame bits (left-aligned halves of `Frame.raw`) whose
    /// inversions add up to it.
    @usableFromInline var rows = SIMD32<UInt32>()
    @usableFromInline var high = SIMD32<UInt64>()
    @usableFromInline var low = SIMD32<UInt64>()
    /// `events[b]`: which of the given events (bit i: the i-th) add up to `rows[b]`.
    @usableFromInline var events = SIMD32<UInt64>()
    /// How many of the positions given are independent (became pivots).
    public var rank: Int { count }
    @usableFromInline var count = 0

    /// Eliminates the syndromes of `positions` (1-based frame bit numbers, preferred pivots
    /// first; at most 24 are independent).
    /// (Inlinable: the demodulator calls it for every candidate that fails parity as a
    /// squitter, and a generic call across modules would not be specialised.)
    @inlinable
    public init<S: Sequence<Int>>(positions: S, bitCount: Int) {
        self.bitCount = bitCount
        var index = 0
        for p in positions {
            defer { index += 1 }
            guard index < 64, p >= 1, p <= bitCount else { continue }
            eliminate(CRC24.syndrome(ofBit: p, bitCount: bitCount), UInt128(1) << UInt128(128 - p), event: index)
        }
    }

    /// Eliminates the syndromes of error events that each invert a run of bits (1-based frame
    /// bit ranges, preferred pivots first; the first 64 are used): a solution is a set of
    /// events, and `repair` counts events, not bits. Single positions are runs of one.
    @inlinable
    public init<S: Sequence<ClosedRange<Int>>>(runs: S, bitCount: Int) {
        self.bitCount = bitCount
        var index = 0
        for run in runs {
            defer { index += 1 }
            guard index < 64, run.lowerBound >= 1, run.upperBound <= bitCount else { continue }
            var v: UInt32 = 0
            var mask: UInt128 = 0
            for p in run {
                v ^= CRC24.syndrome(ofBit: p, bitCount: bitCount)
                mask |= UInt128(1) << UInt128(128 - p)
            }
            eliminate(v, mask, event: index)
        }
    }

    /// Reduces event `index` (syndrome `v`, frame bits `mask`) by the basis and keeps it as a
    /// new pivot row if anything is left (dropped when it depends on earlier events).
    @inlinable
    mutating func eliminate(_ syndrome: UInt32, _ mask: UInt128, event index: Int) {
        var v = syndrome
        var h = UInt64(truncatingIfNeeded: mask >> 64), l = UInt64(truncatingIfNeeded: mask)
        var e = UInt64(1) << UInt64(index)
        while v != 0 {
            let lead = 31 - v.leadingZeroBitCount
            if rows[lead] == 0 {
                rows[lead] = v
                high[lead] = h
                low[lead] = l
                events[lead] = e
                count += 1
                return
            }
            v ^= rows[lead]
            h ^= high[lead]
            l ^= low[lead]
            e ^= events[lead]
        }
    }

    /// The frame bits to invert (left-aligned like `Frame.raw`) so that a frame with this
    /// syndrome gets a zero one, or nil when no set of the independent events does (0 for a
    /// zero syndrome).
    @inlinable
    public func solve(syndrome: UInt32) -> UInt128? {
        solveEvents(syndrome: syndrome)?.mask
    }

    /// `solve`, with the events the solution inverts (bit i: the i-th given).
    @inlinable
    public func solveEvents(syndrome: UInt32) -> (mask: UInt128, events: UInt64)? {
        var s = syndrome & 0xFF_FFFF
        var h: UInt64 = 0, l: UInt64 = 0, e: UInt64 = 0
        while s != 0 {
            let lead = 31 - s.leadingZeroBitCount
            guard rows[lead] != 0 else { return nil }
            s ^= rows[lead]
            h ^= high[lead]
            l ^= low[lead]
            e ^= events[lead]
        }
        return (UInt128(h) << 64 | UInt128(l), e)
    }

    /// `solve`, when the solution inverts 1 to `maximumFlips` of the events (for positions:
    /// bits): the mask and how many bits it inverts.
    @inlinable
    public func repair(syndrome: UInt32, maximumFlips: Int) -> (mask: UInt128, flips: Int)? {
        repair(syndrome: syndrome, maximumFlips: maximumFlips, costs: [], ceiling: .infinity)
    }

    /// `repair`, refused also when the events the solution inverts cost more than `ceiling`
    /// in all (`costs[i]`: the i-th given event's; events past its end cost nothing). With
    /// each event's cost its log-likelihood ratio (how much less likely the received signal
    /// is with that event inverted), the sum says how unlikely the whole error pattern is:
    /// `likelihoodCeiling` is where it becomes less likely than a random syndrome's solution.
    @inlinable
    public func repair(syndrome: UInt32, maximumFlips: Int, costs: [Float], ceiling: Float) -> (mask: UInt128, flips: Int)? {
        guard let (mask, events) = solveEvents(syndrome: syndrome) else { return nil }
        let used = events.nonzeroBitCount
        guard used > 0, used <= maximumFlips, mask != 0 else { return nil }
        var cost: Float = 0
        var rest = events
        while rest != 0 {
            let i = rest.trailingZeroBitCount
            rest &= rest &- 1
            if i < costs.count { cost += costs[i] }
        }
        guard cost <= ceiling else { return nil }
        return (mask, mask.nonzeroBitCount)
    }

    /// The summed log-likelihood ratio (natural log) at which an error pattern among
    /// `erasures` events, at most `maximumFlips` of them, is as likely as a random syndrome's
    /// having a solution (`falseAcceptBound`): −ln(bound). 8.8 for 4 of 16, 10.3 for 3 of 15,
    /// 10.9 for 3 of 12.
    public static func likelihoodCeiling(erasures n: Int, maximumFlips t: Int) -> Float {
        Float(-Double.log(falseAcceptBound(erasures: n, maximumFlips: t)))
    }

    /// The probability that a random syndrome (a candidate that is not a reply) has a
    /// solution of 1 to `maximumFlips` events among `erasures` events (positions or runs): Σ_{k=1…t} C(n, k) / 2²⁴,
    /// an upper bound (dependent positions only lower it).
    public static func falseAcceptBound(erasures n: Int, maximumFlips t: Int) -> Double {
        var sum = 0.0, term = 1.0
        for k in stride(from: 1, through: min(t, n), by: 1) {
            term = term * Double(n - k + 1) / Double(k)
            sum += term
        }
        return sum / Double(1 << 24)
    }
}
