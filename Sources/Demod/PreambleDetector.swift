/// The preamble tests on the half-bit planes for one noise floor: at each phase, the shape
/// (each of the four pulses above the quiet half bits beside it: six tests, all but `slack`
/// must hold), the level (mean pulse magnitude above the noise threshold) and the ratio (mean
/// pulse energy above twice the mean quiet energy). `detect8` tests eight positions per
/// `SIMD8<Int16>` (SSE2 on x86, NEON on the Pi); `detect1` is its scalar twin.
///
/// Plane entries are energies of 12-bit magnitudes over at most 6 steps (≤ 24 570), so single
/// entries compare exactly in `Int16`; sums use entries divided by 16 so they fit the lanes.
/// Offsets (`o`) are a phase's 14 preamble places in the order of
/// `SliceKernels.preambleHalfBits`: pulses 0, 2, 7, 9, then quiet 1, 3, 4, 5, 6, 8, 10–13.
struct PreambleDetector {
    /// Phases per sample (4 or 5).
    let phases: Int
    let slack: Int16
    /// The level threshold: four pulse entries, each divided by 16, must sum above it.
    var threshold: Int16

    init(phases: Int, slack: Int, threshold: Int16) {
        self.phases = phases
        self.slack = Int16(clamping: slack)
        self.threshold = threshold
    }

    /// Eight positions at plane entry `e` (entries e … e+7): per phase `p`, bits 8p … 8p+7 of
    /// the result say which positions pass.
    @inline(__always)
    func detect8(_ e: UnsafePointer<Int16>, _ offsets: UnsafePointer<Int>) -> UInt64 {
        let raw = UnsafeRawPointer(e)
        let w = SliceKernels.preambleWindows
        // Most blocks pass nowhere: shape and level for every phase first, the ratio after.
        let five = phases > 4
        var m0 = candidate(raw, offsets), m1 = candidate(raw, offsets + w)
        var m2 = candidate(raw, offsets + 2 * w), m3 = candidate(raw, offsets + 3 * w)
        var m4 = five ? candidate(raw, offsets + 4 * w) : SIMDMask<SIMD8<Int16>>(repeating: false)
        guard any(m0 .| m1 .| m2 .| m3 .| m4) else { return 0 }
        if any(m0) { m0 = m0 .& ratio(raw, offsets) }
        if any(m1) { m1 = m1 .& ratio(raw, offsets + w) }
        if any(m2) { m2 = m2 .& ratio(raw, offsets + 2 * w) }
        if any(m3) { m3 = m3 .& ratio(raw, offsets + 3 * w) }
        if five && any(m4) { m4 = m4 .& ratio(raw, offsets + 4 * w) }
        return UInt64(bitmask(m0)) | UInt64(bitmask(m1)) << 8 | UInt64(bitmask(m2)) << 16
            | UInt64(bitmask(m3)) << 24 | UInt64(bitmask(m4)) << 32
    }

    // Comparisons and shifts below are against splatted vectors, not scalars: the scalar
    // forms of these operators do not lower to single instructions.

    /// Shape and level at one phase (`o`: its 14 preamble offsets).
    @inline(__always)
    func candidate(_ raw: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> SIMDMask<SIMD8<Int16>> {
        let one = SIMD8<Int16>(repeating: 1), zero = SIMD8<Int16>(repeating: 0), four = SIMD8<Int16>(repeating: 4)
        let p0 = load(raw, o, 0), p2 = load(raw, o, 1), p7 = load(raw, o, 2), p9 = load(raw, o, 3)
        let q1 = load(raw, o, 4), q3 = load(raw, o, 5), q6 = load(raw, o, 8), q8 = load(raw, o, 9)
        var fails = zero.replacing(with: one, where: p0 .<= q1)
        fails &+= zero.replacing(with: one, where: p2 .<= q1)
        fails &+= zero.replacing(with: one, where: p2 .<= q3)
        fails &+= zero.replacing(with: one, where: p7 .<= q6)
        fails &+= zero.replacing(with: one, where: p7 .<= q8)
        fails &+= zero.replacing(with: one, where: p9 .<= q8)
        let level = (p0 &>> four) &+ (p2 &>> four) &+ (p7 &>> four) &+ (p9 &>> four)
        return (fails .<= SIMD8<Int16>(repeating: slack)) .& (level .> SIMD8<Int16>(repeating: threshold))
    }

    /// The ratio at one phase: mean pulse energy above twice the mean quiet energy
    /// (5·P > 4·Q over 4 pulses and 10 quiet half bits), on entries divided by 16.
    @inline(__always)
    func ratio(_ raw: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> SIMDMask<SIMD8<Int16>> {
        let one = SIMD8<Int16>(repeating: 1), four = SIMD8<Int16>(repeating: 4)
        let pulse = (load(raw, o, 0) &>> four) &+ (load(raw, o, 1) &>> four) &+ (load(raw, o, 2) &>> four) &+ (load(raw, o, 3) &>> four)
        var quiet = (load(raw, o, 4) &>> four) &+ (load(raw, o, 5) &>> four) &+ (load(raw, o, 6) &>> four) &+ (load(raw, o, 7) &>> four)
        quiet &+= (load(raw, o, 8) &>> four) &+ (load(raw, o, 9) &>> four) &+ (load(raw, o, 10) &>> four)
        quiet &+= (load(raw, o, 11) &>> four) &+ (load(raw, o, 12) &>> four) &+ (load(raw, o, 13) &>> four)
        return ((pulse &* SIMD8<Int16>(repeating: 5)) &>> one) .> (quiet &<< one)
    }

    /// The scalar twin of `detect8` for the first `lanes` positions.
    func detectLanes(_ e: UnsafePointer<Int16>, _ offsets: UnsafePointer<Int>, lanes: Int) -> UInt64 {
        var result: UInt64 = 0
        for lane in 0..<lanes {
            let set = detect1(e + lane, offsets)
            for p in 0..<phases where set & (1 << UInt8(p)) != 0 {
                result |= 1 << UInt64(8 * p + lane)
            }
        }
        return result
    }

    /// One position: the set of phases (bit p) that pass the shape, level and ratio tests.
    @inline(__always)
    func detect1(_ e: UnsafePointer<Int16>, _ offsets: UnsafePointer<Int>) -> UInt8 {
        var set: UInt8 = 0
        for p in 0..<phases {
            let o = offsets + p * SliceKernels.preambleWindows
            let p0 = e[o[0]], p2 = e[o[1]], p7 = e[o[2]], p9 = e[o[3]]
            let q1 = e[o[4]], q3 = e[o[5]], q6 = e[o[8]], q8 = e[o[9]]
            var fails: Int16 = 0
            if p0 <= q1 { fails += 1 }
            if p2 <= q1 { fails += 1 }
            if p2 <= q3 { fails += 1 }
            if p7 <= q6 { fails += 1 }
            if p7 <= q8 { fails += 1 }
            if p9 <= q8 { fails += 1 }
            let level = (p0 >> 4) + (p2 >> 4) + (p7 >> 4) + (p9 >> 4)
            guard fails <= slack && level > threshold else { continue }
            var pulse: Int16 = 0, quiet: Int16 = 0
            for i in 0..<4 { pulse += e[o[i]] >> 4 }
            for i in 4..<SliceKernels.preambleWindows { quiet += e[o[i]] >> 4 }
            if (pulse &* 5) >> 1 > quiet << 1 { set |= 1 << UInt8(p) }
        }
        return set
    }

    @inline(__always)
    func load(_ raw: UnsafeRawPointer, _ o: UnsafePointer<Int>, _ i: Int) -> SIMD8<Int16> {
        raw.loadUnaligned(fromByteOffset: o[i] &* 2, as: SIMD8<Int16>.self)
    }

    @inline(__always)
    func bitmask(_ mask: SIMDMask<SIMD8<Int16>>) -> UInt32 {
        let weights = SIMD8<UInt16>(1, 2, 4, 8, 16, 32, 64, 128)
        return UInt32(SIMD8<UInt16>(repeating: 0).replacing(with: weights, where: mask).wrappedSum())
    }
}
