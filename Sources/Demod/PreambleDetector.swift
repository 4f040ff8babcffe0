/// The preamble tests on the flag bytes of `HalfBitPlanes`, at every tested phase: the shape (each
/// of the four pulses above the quiet half bits beside it: six tests, all but `slack` must
/// hold), the level (three of the four pulses `loud`, i.e. above the noise threshold) and, for
/// phases where some position passed those, the pulse/quiet energy ratio on the energies.
/// `detect16` tests sixteen positions per `SIMD16<UInt8>` (SSE2 on x86, NEON on the Pi);
/// `detect1` is its scalar twin.
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

    init(phases: Int, stride: Int = 1, slack: Int) {
        precondition((phases + stride - 1) / stride <= 4, "PhaseMasks holds four tested phases")
        self.phases = phases
        self.stride = stride
        required = UInt8(clamping: max(0, 6 - slack))
    }

    /// Sixteen positions at plane entry `j`, every tested phase: the result holds phase p's
    /// mask (bit i: position j + i passes).
    @inline(__always)
    func detect16(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>) -> PhaseMasks {
        let flags = UnsafeRawPointer(planes.flags + j)
        let w = SliceKernels.preambleWindows
        var result = PhaseMasks(stride: stride)
        var p = 0
        while p < phases {
            defer { p &+= stride }
            // Most phases fail everywhere: an OR of the two halves says so sooner than the
            // packed bits (no multiply before the branch).
            let words = PreambleDetector.words(test(flags, offsets + p &* w))
            guard words[0] | words[1] != 0 else { continue }
            // The ratio only for the (few) phases with a lane that passed so far, and for each
            // half of eight positions only when one of them passed.
            let energies = UnsafeRawPointer(planes.energies + j)
            let o = offsets + p &* w
            let low = words[0] == 0 ? 0 : UInt16(truncatingIfNeeded: PreambleDetector.pack(words[0])) & ratioMask(energies, o)
            let high = words[1] == 0 ? 0 : UInt16(truncatingIfNeeded: PreambleDetector.pack(words[1])) & ratioMask(energies + 16, o)
            result.set(phase: p, low | high << 8)
        }
        return result
    }

    /// The ratio for eight positions: mean pulse energy above twice the mean quiet energy
    /// (5·P > 4·Q over the 4 pulses and 10 quiet half bits), on energies divided by 16 so the
    /// sums fit `Int16` lanes; bit i for position i.
    @inline(__always)
    func ratioMask(_ e: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> UInt16 {
        @inline(__always) func load(_ i: Int) -> SIMD8<Int16> {
            e.loadUnaligned(fromByteOffset: o[i] &* 2, as: SIMD8<Int16>.self) &>> SIMD8<Int16>(repeating: 4)
        }
        let pulse = load(0) &+ load(1) &+ load(2) &+ load(3)
        var quiet = load(4) &+ load(5) &+ load(6) &+ load(7) &+ load(8)
        quiet &+= load(9) &+ load(10) &+ load(11) &+ load(12) &+ load(13)
        return PreambleDetector.bits((pulse &* SIMD8<Int16>(repeating: 5)) &>> SIMD8<Int16>(repeating: 1) .> quiet &<< SIMD8<Int16>(repeating: 1))
    }

    /// Sixteen lanes as 0 or 1 bytes, read as two words (lanes 0–7, 8–15); `pack` turns a
    /// word into eight bits.
    @inline(__always)
    static func words(_ mask: SIMDMask<SIMD16<Int8>>) -> SIMD2<UInt64> {
        unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: mask), to: SIMD2<UInt64>.self)
    }

    /// Eight lanes to eight bits.
    @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD8<Int16>>) -> UInt16 {
        let bytes = SIMD8<UInt8>(truncatingIfNeeded: SIMD8<Int16>(repeating: 0).replacing(with: 1, where: mask))
        return UInt16(truncatingIfNeeded: pack(unsafeBitCast(bytes, to: UInt64.self)))
    }

    /// The scalar twin of `ratioMask` for one position.
    @inline(__always)
    func ratio1(_ e: UnsafePointer<Int16>, _ o: UnsafePointer<Int>) -> Bool {
        var pulse: Int16 = 0, quiet: Int16 = 0
        for i in 0..<4 { pulse &+= e[o[i]] >> 4 }
        for i in 4..<SliceKernels.preambleWindows { quiet &+= e[o[i]] >> 4 }
        return (pulse &* 5) >> 1 > quiet << 1
    }

    /// Eight bytes of 0 or 1 (lane i in byte i, little endian) to eight bits (lane i in bit i):
    /// the multiply places each byte's bit in the top byte without carries.
    @inline(__always)
    static func pack(_ word: UInt64) -> UInt64 { (word &* 0x0102_0408_1020_4080) >> 56 }

    /// The planes' base pointers (`HalfBitPlanes`): energies and the flag bytes.
    struct Bytes {
        let energies: UnsafePointer<Int16>
        let flags: UnsafePointer<UInt8>
    }

    /// Shape and level at one phase for sixteen positions.
    @inline(__always)
    func test(_ flags: UnsafeRawPointer, _ o: UnsafePointer<Int>) -> SIMDMask<SIMD16<Int8>> {
        @inline(__always) func load(_ i: Int) -> SIMD16<UInt8> {
            flags.loadUnaligned(fromByteOffset: o[i], as: SIMD16<UInt8>.self)
        }
        @inline(__always) func splat(_ v: UInt8) -> SIMD16<UInt8> { SIMD16<UInt8>(repeating: v) }
        let pulses = load(0) &+ load(1) &+ load(2)
        let held = (pulses & splat(0x0F)) &+ splat(3)
        let needed = ((load(4) &+ load(8) &+ load(9)) & splat(0x0F)) &+ splat(required)
        let level = (pulses & splat(0xF0)) &+ (load(3) & splat(0xF0))
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

    /// The scalar twin of `detect16` for the first `lanes` positions.
    func detectLanes(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>, lanes: Int) -> PhaseMasks {
        var result = PhaseMasks(stride: stride)
        for lane in 0..<lanes {
            let set = detect1(planes, at: j + lane, offsets)
            for p in 0..<phases where set & (1 << UInt8(p)) != 0 {
                result.set(phase: p, 1 << UInt16(lane))
            }
        }
        return result
    }

    /// The detector's result for sixteen positions: per tested phase, a 16-bit mask (bit i:
    /// position i passed), all in one word so the detector loop keeps it in a register (a
    /// vector of masks written lane by lane went through memory, and its reload stalled).
    struct PhaseMasks: Equatable {
        /// Slot `p / stride` holds phase p's mask, 16 bits per slot (at most 4 tested phases).
        private(set) var word: UInt64 = 0
        let stride: Int

        init(stride: Int) { self.stride = stride }

        /// Phase p's mask; 0 for a phase that is not tested.
        subscript(phase: Int) -> UInt16 {
            guard phase % stride == 0, phase / stride < 4 else { return 0 }
            return UInt16(truncatingIfNeeded: word >> UInt64(16 * (phase / stride)))
        }

        /// Adds passes to phase p's mask (p a tested phase).
        @inline(__always)
        mutating func set(phase: Int, _ mask: UInt16) {
            word |= UInt64(mask) << UInt64(16 &* (phase / stride))
        }

        /// Positions that passed at any phase.
        var any: UInt16 {
            let half = word | word >> 32
            return UInt16(truncatingIfNeeded: half | half >> 16)
        }

        /// The phases (bit p) that passed at position `lane`.
        @inline(__always)
        func phases(atLane lane: Int) -> UInt8 {
            var set: UInt8 = 0
            var slot = 0
            var rest = word >> UInt64(lane)
            while rest != 0 {
                if rest & 1 != 0 { set |= 1 << UInt8(slot &* stride) }
                rest >>= 16
                slot += 1
            }
            return set
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

    /// The pre-test for sixteen positions at entry `j`: whether any of them could have three
    /// of its four preamble pulses loud at some phase. A pulse's energy is at most
    /// halfBitSteps × the larger 12-bit magnitude of the two samples it covers, and those lie
    /// within three samples from `pulses` (⌊pulse × halfBitSteps / resolution⌋) whatever the
    /// phase: so a loud pulse needs `hot` there. Never false for a position the detector
    /// would pass.
    @inline(__always)
    static func mayBeLoud(_ hot: UnsafePointer<UInt8>, at j: Int, pulses: (Int, Int, Int, Int)) -> Bool {
        let raw = UnsafeRawPointer(hot + j)
        @inline(__always) func load(_ a: Int) -> SIMD16<UInt8> { raw.loadUnaligned(fromByteOffset: a, as: SIMD16<UInt8>.self) }
        let count = load(pulses.0) &+ load(pulses.1) &+ load(pulses.2) &+ load(pulses.3)
        // Any lane, from the OR of two words (no multiply before the caller's branch).
        let w = words(count .>= SIMD16<UInt8>(repeating: 3))
        return w[0] | w[1] != 0
    }

    /// The magnitude a sample must exceed for a pulse over it to be loud (energy above
    /// `pulseAbove`): 8·(⌊pulseAbove / halfBitSteps⌋ + 1) − 1; `Int16.max` when none can.
    static func loudMagnitude(pulseAbove: Int16, halfBitSteps: Int) -> Int16 {
        let needed = (Int(pulseAbove) / halfBitSteps + 1) << Int(HalfBitPlanes.shift)
        return Int16(clamping: needed - 1)
    }
}
