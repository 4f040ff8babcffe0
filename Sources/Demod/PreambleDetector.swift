/// The preamble tests on the flag bytes of `HalfBitPlanes`, at every tested phase: the shape (each
/// of the four pulses above the quiet half bits beside it: six tests, all but `slack` must
/// hold), the level (three of the four pulses `loud`, i.e. above the noise threshold) and, for
/// phases where some position passed those, the pulse/quiet energy ratio on the energies
/// (`ratio`).
/// `detect` tests thirty-two positions per `SIMD32<UInt8>` (one AVX2 register on x86, two
/// SSE2 or NEON ones); `detect1` is its scalar twin.
///
/// Offsets (`o`) are a phase's 14 preamble places in the order of
/// `SliceKernels.preambleHalfBits`: pulses 0, 2, 7, 9 (indices 0–3), then quiet 1, 3, 4, 5, 6,
/// 8, 10–13 (indices 4–13). The six shape tests, as reads of `falls` (a half bit above the
/// next): pulse 0 > half bit 1: `falls[0]`; pulse 2 ≥ half bit 1: `1 − falls[1]`;
/// pulse 2 > half bit 3: `falls[2]`; pulse 7 ≥ half bit 6: `1 − falls[6]`; pulse 7 > half bit
/// 8: `falls[7]`; pulse 9 ≥ half bit 8: `1 − falls[8]`. So the shape holds when
/// falls[0] + falls[2] + falls[7] + 3 ≥ required + falls[1] + falls[6] + falls[8].
///
/// Both flags live in one byte per half bit (`falls` in the low nibble, `loud` in the high):
/// a sum of up to three bytes keeps the two counts apart, so the pulses 0, 2, 7 are loaded
/// once for both tests.
struct PreambleDetector {
    /// Byte-plane flag: the half bit's energy is above the next half bit's.
    static let falls: UInt8 = 0x01
    /// Byte-plane flag: the half bit's energy is above the level threshold.
    static let loud: UInt8 = 0x10

    /// Phases per sample (4 or 5).
    let phases: Int
    /// Tested phases are 0, stride, 2·stride… (`SliceKernels.detectionStride`); with a stride
    /// of 2 the untested phases between are ranked with their tested neighbours (`ranked`).
    let stride: Int
    /// Shape tests that must hold: 6 − slack.
    let required: UInt8
    /// The level the four pulses' summed energy must exceed, in the ratio's units (plane
    /// energies / 16); set per noise-floor window (`Demodulator.pulseSumThreshold`). 0: any.
    var summedAbove: Int16 = 0
    /// A lane whose preamble misses the strict ratio (the coherent pass's alone) is dropped
    /// when its later pulses fall under their quiet neighbours by this much or more, in plane
    /// units (`Demodulator.isPlausibleShape`, which the ranking applies to every phase); set
    /// per noise-floor window (`Demodulator.shapeTolerance`). 0: no such test.
    var tolerance: Int16 = 0
    /// A lane whose preamble misses the strict ratio is dropped, too, when its pulses sum to
    /// this or more (the ratio's units): too loud for the coherent pass, which refuses it
    /// (`Demodulator.coherentAdmission`); set per noise-floor window. 0: no such test.
    var loudLimit: Int16 = 0
    /// Whether lanes that miss the strict ratio face `tolerance` and `loudLimit`.
    var screensWeak: Bool { (tolerance > 0 || loudLimit > 0) && ratio != PreambleDetector.strictRatio }
    /// The pulse/quiet ratio test as `pulse · ratio.times + pulse >> ratio.shift > 2 · quiet`
    /// (sums of 4 pulses and 10 quiet half bits, energies / 16: no product overflows `Int16`):
    /// (2, 1), mean pulse above twice the mean quiet, the magnitude slicers' test
    /// (`Demodulator.evaluate` applies it per phase); (3, 15), above 5/3 of it, for weak
    /// replies the coherent pass alone reads (`Demodulator.Tuning.weakPreambles`); (3, 2), above
    /// 20/13 of it (about 1.54), for faint ones (`Demodulator.Tuning.faintPreambles`).
    var ratio: Ratio = PreambleDetector.strictRatio
    struct Ratio: Equatable {
        var times: Int16
        var shift: Int16
    }
    static let strictRatio = Ratio(times: 2, shift: 1)
    static let weakRatio = Ratio(times: 3, shift: 15)
    static let faintRatio = Ratio(times: 3, shift: 2)
    /// Whether `ratio` is the faint one: then `detect` also says which of the lanes it passed
    /// meet the weak ratio (`PhaseMasks.weakLow`, `weakHigh`), so that a faint preamble is told
    /// from a weak one without reading its energies again.
    var tellsFaint: Bool { ratio == PreambleDetector.faintRatio }

    init(phases: Int, stride: Int = 1, slack: Int) {
        precondition((phases + stride - 1) / stride <= 4, "PhaseMasks holds four tested phases")
        self.phases = phases
        self.stride = stride
        required = UInt8(clamping: max(0, 6 - slack))
    }

    /// Positions per `detect` call: one `SIMD32<UInt8>` of flag bytes (one AVX2 register; two
    /// SSE2 or NEON ones).
    static let lanes = 32
    /// Plane entries one `detect` call may read from its first position: the lanes plus a
    /// preamble's span in any plane (under 32 entries at both rates).
    static let reach = lanes + 32

    /// Where `scan` stopped: at `entry`, the first block of thirty-two positions with a lane that
    /// passed (`masks`, lanes past the scan's end cleared), or one whose byte planes are not
    /// filled yet (`needsBytes`), or at the scan's end (no lane passed before it).
    struct Stop {
        var entry: Int
        var masks = PhaseMasks()
        var needsBytes = false
    }

    /// The detector over plane entries [j, end), thirty-two at a time: the pre-test on `hot`
    /// (`mayBeLoud`), then `detect`, until a lane passes. The byte planes must be filled
    /// below `filled`: a block that passes the pre-test and would read past it stops the scan
    /// (`Stop.needsBytes`), so the caller fills them only where the pre-test passes. One call
    /// covers a run of blocks, so the setup of the tests (their constants) is paid once a
    /// run rather than once a block.
    @inline(never)
    func scan(_ planes: Bytes, hot: UnsafePointer<UInt8>, from j: Int, to end: Int, filled: Int,
              pulses: (Int, Int, Int, Int), _ offsets: UnsafePointer<Int>) -> Stop {
        var j = j
        while j < end {
            let lanes = Swift.min(PreambleDetector.lanes, end &- j)
            if PreambleDetector.mayBeLoud(hot, at: j, pulses: pulses) {
                if j &+ PreambleDetector.reach > filled { return Stop(entry: j, needsBytes: true) }
                var masks = detect(planes, at: j, offsets)
                if lanes < PreambleDetector.lanes { masks.keep(lanes: lanes) }
                if masks.any != 0 { return Stop(entry: j, masks: masks) }
            }
            j &+= lanes
        }
        return Stop(entry: end)
    }

    /// Thirty-two positions at plane entry `j`, every tested phase: bit i of a phase's mask
    /// says position j + i passes. Lanes past the caller's end may read stale plane entries;
    /// the caller ignores them (each lane reads only its own position's entries).
    @inline(__always)
    func detect(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>) -> PhaseMasks {
        let flags = UnsafeRawPointer(planes.flags + j)
        let w = SliceKernels.preambleWindows
        var result = PhaseMasks()
        var p = 0, slot = 0
        while p < phases {
            defer { p &+= stride; slot &+= 1 }
            // Most phases fail everywhere: an OR of the words says so sooner than the packed
            // bits (no multiply before the branch).
            let words = PreambleDetector.words(test(flags, offsets + p &* w))
            let low = words[0] | words[1], high = words[2] | words[3]
            guard low | high != 0 else { continue }
            // The ratio only for the (few) phases with a lane that passed so far, and for each
            // sixteen positions only when one of them passed.
            let energies = UnsafeRawPointer(planes.energies + j)
            let o = offsets + p &* w
            // At most four slots: the shift stays under 64 (`&<<` tests no larger one).
            let shift = UInt64(truncatingIfNeeded: 16 &* slot)
            if low != 0 {
                let shape = PreambleDetector.pack(words[0], words[1]), passed = ratioMasks(energies, o)
                result.low |= UInt64(shape & passed.ratio) &<< shift
                result.weakLow |= UInt64(shape & passed.weak) &<< shift
            }
            if high != 0 {
                let shape = PreambleDetector.pack(words[2], words[3]), passed = ratioMasks(energies + 32, o)
                result.high |= UInt64(shape & passed.ratio) &<< shift
                result.weakHigh |= UInt64(shape & passed.weak) &<< shift
            }
        }
        return result
    }

    /// The ratio for sixteen positions: mean pulse energy above `ratio`'s multiple of the mean
    /// quiet energy (strict: twice, 2.5·P > 2·Q over the 4 pulses and 10 quiet half bits), and the
    /// pulses' sum above `summedAbove`, on energies divided by 16 so the sums fit `Int16`
    /// lanes; bit i for position i.
    @inline(__always)
    func ratioMask(_ e: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> UInt16 {
        let (pulse, quiet) = PreambleDetector.sums(e, o)
        return PreambleDetector.bits(passes(pulse, quiet, ratio))
    }

    /// `ratioMask`, and the lanes that meet the weak ratio too: for a faint detector
    /// (`tellsFaint`) a subset (3·P > 2·Q implies 3·P + P/4 > 2·Q), the sums read once for
    /// both; for any other the same lanes.
    @inline(__always)
    func ratioMasks(_ e: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> (ratio: UInt16, weak: UInt16) {
        let (pulse, quiet) = PreambleDetector.sums(e, o)
        var passed = passes(pulse, quiet, ratio)
        var weak = tellsFaint ? passes(pulse, quiet, PreambleDetector.weakRatio) : passed
        if screensWeak {
            // Most weak preambles of a busy sky lie in other replies' data, which fills their
            // quiet half bits, or are loud: dropped here, not one by one in the ranking or the
            // coherent pass's admission.
            var kept = tolerance > 0 ? plausible(e, o) : SIMDMask<SIMD16<Int16>>(repeating: true)
            if loudLimit > 0 { kept = kept .& (pulse .< SIMD16<Int16>(repeating: loudLimit)) }
            kept = kept .| passes(pulse, quiet, PreambleDetector.strictRatio)
            passed = passed .& kept
            weak = weak .& kept
        }
        return (PreambleDetector.bits(passed), PreambleDetector.bits(weak))
    }

    /// Sixteen positions' later pulses (2, 7, 9) against their quiet neighbours (half bits 1,
    /// 6, 8): each falls under them by less than `tolerance` (`Demodulator.isPlausibleShape`,
    /// which the scalar twin calls: pulse 7 and 9 against half bit 8 is its
    /// `h8 − min(p7, p9)`).
    @inline(__always)
    func plausible(_ e: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> SIMDMask<SIMD16<Int16>> {
        @inline(__always) func load(_ i: Int) -> SIMD16<Int16> {
            e.loadUnaligned(fromByteOffset: o[i] &* 2, as: SIMD16<Int16>.self)
        }
        let p2 = load(1), p7 = load(2), p9 = load(3), h1 = load(4), h6 = load(8), h8 = load(9)
        let limit = SIMD16<Int16>(repeating: tolerance)
        // Energies are under 2¹⁵ / 1.3: no difference wraps.
        return ((h1 &- p2) .< limit) .& ((h6 &- p7) .< limit) .& ((h8 &- p7) .< limit) .& ((h8 &- p9) .< limit)
    }

    /// Sixteen positions' summed pulse and quiet energies (plane energies / 16, see `ratioMask`).
    @inline(__always)
    static func sums(_ e: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> (pulse: SIMD16<Int16>, quiet: SIMD16<Int16>) {
        @inline(__always) func load(_ i: Int) -> SIMD16<Int16> {
            e.loadUnaligned(fromByteOffset: o[i] &* 2, as: SIMD16<Int16>.self) &>> SIMD16<Int16>(repeating: 4)
        }
        let pulse = load(0) &+ load(1) &+ load(2) &+ load(3)
        var quiet = load(4) &+ load(5) &+ load(6) &+ load(7) &+ load(8)
        quiet &+= load(9) &+ load(10) &+ load(11) &+ load(12) &+ load(13)
        return (pulse, quiet)
    }

    /// The lanes whose sums meet `ratio` and whose pulses sum above `summedAbove`.
    @inline(__always)
    func passes(_ pulse: SIMD16<Int16>, _ quiet: SIMD16<Int16>, _ ratio: Ratio) -> SIMDMask<SIMD16<Int16>> {
        let weighed = pulse &* SIMD16<Int16>(repeating: ratio.times) &+ pulse &>> SIMD16<Int16>(repeating: ratio.shift)
        return (weighed .> quiet &<< SIMD16<Int16>(repeating: 1)) .& (pulse .> SIMD16<Int16>(repeating: summedAbove))
    }

    /// Sixteen lanes of a mask as bits (lane i in bit i).
    @inline(__always)
    static func bits(_ passed: SIMDMask<SIMD16<Int16>>) -> UInt16 {
        // Read as four words of four lanes (lanes 4i to 4i + 3 in word i, lane k of a word in
        // its bits 16k to 16k + 15, all ones or zero): each lane keeps one bit, lane k of word
        // i its bit 16k + 4i + k, so the OR of the words holds lane 4i + k at bit 4i + k of
        // its 16-bit field k, and the OR of the four fields is the mask. ANDs, ORs and shifts
        // only: a multiply placing the bits is compiled, for the four words at once, as 64-bit
        // vector multiplies built of 32-bit ones, about twenty instructions a mask.
        let spread: UInt64 = 0x0008_0004_0002_0001
        let w = unsafeBitCast(passed, to: SIMD4<UInt64>.self) & SIMD4<UInt64>(spread, spread << 4, spread << 8, spread << 12)
        let pair = w.lowHalf | w.highHalf
        let fields = pair[0] | pair[1]
        let folded = fields | fields >> 32
        return UInt16(truncatingIfNeeded: folded | folded >> 16)
    }

    /// Thirty-two lanes as 0 or 1 bytes, read as four words (lanes 0–7, 8–15, 16–23, 24–31);
    /// `pack` turns two words into sixteen bits. (A mask's lanes are all-ones bytes; the
    /// stdlib's `replacing(with:where:)` and `&` on `SIMD32<UInt8>` are lane loops, its `&` on
    /// `SIMD4<UInt64>` one instruction.)
    @inline(__always)
    static func words(_ mask: SIMDMask<SIMD32<Int8>>) -> SIMD4<UInt64> {
        unsafeBitCast(mask, to: SIMD4<UInt64>.self) & SIMD4<UInt64>(repeating: 0x0101_0101_0101_0101)
    }

    /// `a & b` for byte vectors, through 64-bit lanes (see `words`).
    @inline(__always)
    static func and(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        unsafeBitCast(unsafeBitCast(a, to: SIMD4<UInt64>.self) & unsafeBitCast(b, to: SIMD4<UInt64>.self), to: SIMD32<UInt8>.self)
    }

    /// The scalar twin of `ratioMask` for one position.
    @inline(__always)
    func ratio1(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>) -> Bool {
        ratio1(e, o, ratio)
    }

    /// `ratio1` with another ratio (`weakPhases` tells a faint preamble from a weak one with it).
    @inline(__always)
    func ratio1(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>, _ ratio: Ratio) -> Bool {
        var pulse: Int16 = 0, quiet: Int16 = 0
        for i in 0..<4 { pulse &+= e[o[i]] >> 4 }
        for i in 4..<SliceKernels.preambleWindows { quiet &+= e[o[i]] >> 4 }
        guard pulse &* ratio.times &+ pulse >> ratio.shift > quiet << 1 && pulse > summedAbove else { return false }
        guard screensWeak else { return true }
        let strict = PreambleDetector.strictRatio
        if pulse &* strict.times &+ pulse >> strict.shift > quiet << 1 { return true }
        if loudLimit > 0 && pulse >= loudLimit { return false }
        return tolerance == 0 || Demodulator.isPlausibleShape(e, o, tolerance: Int32(tolerance))
    }

    /// Sixteen bytes of 0 or 1 (lane i in byte i of `low`, lane 8 + i in byte i of `high`,
    /// little endian) to sixteen bits (lane i in bit i): the multiply places each byte's bit in
    /// the top byte without carries.
    @inline(__always)
    static func pack(_ low: UInt64, _ high: UInt64) -> UInt16 {
        UInt16(truncatingIfNeeded: (low &* 0x0102_0408_1020_4080) >> 56 | ((high &* 0x0102_0408_1020_4080) >> 56) << 8)
    }

    /// The planes' base pointers (`HalfBitPlanes`): energies and the flag bytes.
    struct Bytes {
        let energies: UnsafePointer<Int16>
        let flags: UnsafePointer<UInt8>
    }

    /// Shape and level at one phase for thirty-two positions.
    @inline(__always)
    func test(_ flags: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> SIMDMask<SIMD32<Int8>> {
        @inline(__always) func load(_ i: Int) -> SIMD32<UInt8> {
            flags.loadUnaligned(fromByteOffset: o[i], as: SIMD32<UInt8>.self)
        }
        @inline(__always) func splat(_ v: UInt8) -> SIMD32<UInt8> { SIMD32<UInt8>(repeating: v) }
        @inline(__always) func and(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> { PreambleDetector.and(a, b) }
        let pulses = load(0) &+ load(1) &+ load(2)
        let held = and(pulses, splat(0x0F)) &+ splat(3)
        let needed = and(load(4) &+ load(8) &+ load(9), splat(0x0F)) &+ splat(required)
        let level = and(pulses, splat(0xF0)) &+ and(load(3), splat(0xF0))
        // Comparisons against splatted vectors: the scalar forms do not lower to one instruction.
        return (held .>= needed) .& (level .>= splat(3 &* PreambleDetector.loud))
    }

    /// The phases to rank and slice at a position whose detected set is `set` (bit p: phase
    /// p passed): the set itself, and with a stride of 2 each detected phase's neighbours too.
    @inline(__always)
    func ranked(_ set: UInt8) -> UInt8 {
        guard stride == 2 else { return set }
        return (set | set << 1 | set >> 1) & UInt8(truncatingIfNeeded: (1 << phases) - 1)
    }

    /// The scalar twin of `detect` for the first `lanes` positions.
    func detectLanes(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>, lanes: Int) -> PhaseMasks {
        var result = PhaseMasks()
        for lane in 0..<lanes {
            let set = detect1(planes, at: j + lane, offsets)
            let weak = weakPhases(planes, at: j + lane, offsets, among: set)
            for p in Swift.stride(from: 0, to: phases, by: stride) where set & (1 << UInt8(p)) != 0 {
                let bit = UInt64(1) << UInt64(16 * (p / stride) + lane % 16)
                if lane < 16 { result.low |= bit } else { result.high |= bit }
                if weak & (1 << UInt8(p)) != 0 {
                    if lane < 16 { result.weakLow |= bit } else { result.weakHigh |= bit }
                }
            }
        }
        return result
    }

    /// Of the phases `set` that passed at entry `j`, those whose preamble meets the weak ratio
    /// too (for a faint detector, `tellsFaint`; for any other, all of them): the scalar twin
    /// of `PhaseMasks.weakLow`, `weakHigh`.
    func weakPhases(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>, among set: UInt8) -> UInt8 {
        guard tellsFaint else { return set }
        var weak: UInt8 = 0
        var rest = set
        while rest != 0 {
            let p = rest.trailingZeroBitCount
            rest &= rest &- 1
            if ratio1(planes.energies + j, offsets + p * SliceKernels.preambleWindows, PreambleDetector.weakRatio) { weak |= 1 << UInt8(p) }
        }
        return weak
    }

    /// Phase p's mask in `masks` (bit i: position i passed); 0 for a phase that is not tested.
    func mask(_ masks: PhaseMasks, phase: Int) -> UInt32 {
        guard phase % stride == 0, phase < phases else { return 0 }
        let shift = UInt64(16 * (phase / stride))
        return UInt32(UInt16(truncatingIfNeeded: masks.low >> shift)) | UInt32(UInt16(truncatingIfNeeded: masks.high >> shift)) << 16
    }

    /// The phases (bit p) that passed at position `lane`.
    @inline(__always)
    func phases(_ masks: PhaseMasks, atLane lane: Int) -> UInt8 {
        phases(low: masks.low, high: masks.high, atLane: lane)
    }

    /// The phases (bit p) that passed at position `lane` and meet the weak ratio (`tellsFaint`).
    @inline(__always)
    func weakPhases(_ masks: PhaseMasks, atLane lane: Int) -> UInt8 {
        phases(low: masks.weakLow, high: masks.weakHigh, atLane: lane)
    }

    @inline(__always)
    func phases(low: UInt64, high: UInt64, atLane lane: Int) -> UInt8 {
        var set: UInt8 = 0
        var p = 0
        var rest = (lane < 16 ? low : high) >> UInt64(lane & 15)
        while rest != 0 {
            if rest & 1 != 0 { set |= 1 << UInt8(p) }
            rest >>= 16
            p &+= stride
        }
        return set
    }

    /// The detector's result for thirty-two positions: per tested phase (slot p / stride, at
    /// most four), a 16-bit mask of lanes 0–15 in `low` and of lanes 16–31 in `high`: two
    /// words, so the detector loop keeps them in registers (a vector of masks written lane by
    /// lane went through memory, and its reload stalled).
    struct PhaseMasks: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        /// The same for the lanes that meet the weak ratio too (a faint detector's,
        /// `tellsFaint`; any other's are `low` and `high`).
        var weakLow: UInt64 = 0
        var weakHigh: UInt64 = 0

        /// Clears the lanes from `lanes` on (0 < `lanes` < 32), in every phase.
        mutating func keep(lanes: Int) {
            let lowLanes = UInt64(truncatingIfNeeded: (1 << Swift.min(lanes, 16)) - 1)
            let highLanes = UInt64(truncatingIfNeeded: (1 << Swift.max(lanes - 16, 0)) - 1)
            /// A sixteen-lane mask in each of the four slots.
            func spread(_ m: UInt64) -> UInt64 { m | m << 16 | m << 32 | m << 48 }
            low &= spread(lowLanes); weakLow &= spread(lowLanes)
            high &= spread(highLanes); weakHigh &= spread(highLanes)
        }

        /// Positions that passed at any phase (bit i: position i).
        var any: UInt32 {
            @inline(__always) func fold(_ w: UInt64) -> UInt32 {
                let half = w | w >> 32
                return UInt32(UInt16(truncatingIfNeeded: half | half >> 16))
            }
            return fold(low) | fold(high) << 16
        }
    }

    /// One position (plane entry `j`): the set of phases (bit p) that pass.
    @inline(__always)
    func detect1(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>) -> UInt8 {
        let flags = planes.flags + j
        var set: UInt8 = 0
        for p in Swift.stride(from: 0, to: phases, by: stride) {
            let o = offsets + p * SliceKernels.preambleWindows
            /// 1 when half bit `i` (of `o`) carries `flag`.
            @inline(__always) func has(_ flag: UInt8, _ i: Int) -> UInt8 { flags[o[i]] & flag == 0 ? 0 : 1 }
            let falls = PreambleDetector.falls, loud = PreambleDetector.loud
            let held = has(falls, 0) + has(falls, 1) + has(falls, 2) + 3
            let needed = has(falls, 4) + has(falls, 8) + has(falls, 9) + required
            let level = has(loud, 0) + has(loud, 1) + has(loud, 2) + has(loud, 3)
            if held >= needed && level >= 3 && ratio1(planes.energies + j, o) { set |= 1 << UInt8(p) }
        }
        return set
    }

    /// The pre-test for thirty-two positions at entry `j`: whether any of them could have three
    /// of its four preamble pulses loud at some phase. A pulse's energy is at most
    /// halfBitSteps × the larger 12-bit magnitude of the two samples it covers, and those lie
    /// within three samples from `pulses` (⌊pulse × halfBitSteps / resolution⌋) whatever the
    /// phase: so a loud pulse needs `hot` there. Never false for a position the detector
    /// would pass.
    @inline(__always)
    static func mayBeLoud(_ hot: UnsafePointer<UInt8>, at j: Int, pulses: (Int, Int, Int, Int)) -> Bool {
        let raw = UnsafeRawPointer(hot + j)
        @inline(__always) func load(_ a: Int) -> SIMD32<UInt8> { raw.loadUnaligned(fromByteOffset: a, as: SIMD32<UInt8>.self) }
        let count = load(pulses.0) &+ load(pulses.1) &+ load(pulses.2) &+ load(pulses.3)
        // Any lane, from the OR of the words (no multiply before the caller's branch).
        let w = words(count .>= SIMD32<UInt8>(repeating: 3))
        return (w[0] | w[1]) | (w[2] | w[3]) != 0
    }

    /// The magnitude a sample must exceed for a pulse over it to be loud (energy above
    /// `pulseAbove`): 8·(⌊pulseAbove / halfBitSteps⌋ + 1) − 1; `Int16.max` when none can.
    static func loudMagnitude(pulseAbove: Int16, halfBitSteps: Int) -> Int16 {
        let needed = (Int(pulseAbove) / halfBitSteps + 1) << Int(HalfBitPlanes.shift)
        return Int16(clamping: needed - 1)
    }
}
