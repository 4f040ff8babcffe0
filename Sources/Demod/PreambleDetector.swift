/// The preamble tests on the byte planes of `HalfBitPlanes`, at every phase: the shape (each
/// of the four pulses above the quiet half bits beside it: six tests, all but `slack` must
/// hold) and the level (every pulse `loud`, i.e. above the noise threshold). `detect16` tests
/// sixteen positions per `SIMD16<UInt8>` (SSE2 on x86, NEON on the Pi); `detect1` is its
/// scalar twin. The pulse/quiet energy ratio and the ranking of phases follow on the energies
/// of the positions that pass (`Demodulator.evaluate`).
///
/// Offsets (`o`) are a phase's 14 preamble places in the order of
/// `SliceKernels.preambleHalfBits`: pulses 0, 2, 7, 9 (indices 0–3), then quiet 1, 3, 4, 5, 6,
/// 8, 10–13 (indices 4–13). The six shape tests, as byte-plane reads:
/// pulse 0 > half bit 1: `falls[0]`; pulse 2 > half bit 1: `rises[1]`; pulse 2 > half bit 3:
/// `falls[2]`; pulse 7 > half bit 6: `rises[6]`; pulse 7 > half bit 8: `falls[7]`;
/// pulse 9 > half bit 8: `rises[8]`.
struct PreambleDetector {
    /// Phases per sample (4 or 5).
    let phases: Int
    /// Shape tests that must hold: 6 − slack.
    let required: UInt8

    init(phases: Int, slack: Int) {
        self.phases = phases
        required = UInt8(clamping: max(0, 6 - slack))
    }

    /// Sixteen positions at plane entry `j`: per phase `p`, bits 16p … 16p+15 of the result
    /// say which positions pass.
    @inline(__always)
    func detect16(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>) -> UInt128 {
        let falls = UnsafeRawPointer(planes.falls + j), rises = UnsafeRawPointer(planes.rises + j)
        let loud = UnsafeRawPointer(planes.loud + j)
        let w = SliceKernels.preambleWindows
        var result: UInt128 = 0
        for p in 0..<phases {
            // 0/1 per lane, read as two words: packing bits is then one multiply per word.
            let pass = SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: test(falls, rises, loud, offsets + p &* w))
            let words = unsafeBitCast(pass, to: SIMD2<UInt64>.self)
            guard words[0] | words[1] != 0 else { continue }
            let bits = UInt128(PreambleDetector.pack(words[0]) | PreambleDetector.pack(words[1]) << 8)
            result |= bits << UInt128(16 &* p)
        }
        return result
    }

    /// Eight bytes of 0 or 1 (lane i in byte i, little endian) to eight bits (lane i in bit i):
    /// the multiply places each byte's bit in the top byte without carries.
    @inline(__always)
    static func pack(_ word: UInt64) -> UInt64 { (word &* 0x0102_0408_1020_4080) >> 56 }

    /// The byte planes' base pointers (`HalfBitPlanes.falls`, `rises`, `loud`).
    struct Bytes {
        let falls: UnsafePointer<UInt8>
        let rises: UnsafePointer<UInt8>
        let loud: UnsafePointer<UInt8>
    }

    /// Shape and level at one phase for sixteen positions.
    @inline(__always)
    func test(_ falls: UnsafeRawPointer, _ rises: UnsafeRawPointer, _ loud: UnsafeRawPointer,
              _ o: UnsafePointer<Int>) -> SIMDMask<SIMD16<Int8>> {
        @inline(__always) func load(_ plane: UnsafeRawPointer, _ i: Int) -> SIMD16<UInt8> {
            plane.loadUnaligned(fromByteOffset: o[i], as: SIMD16<UInt8>.self)
        }
        let shape = load(falls, 0) &+ load(rises, 4) &+ load(falls, 1) &+ load(rises, 8) &+ load(falls, 2) &+ load(rises, 9)
        let level = load(loud, 0) &+ load(loud, 1) &+ load(loud, 2) &+ load(loud, 3)
        // Comparisons against splatted vectors: the scalar forms do not lower to one instruction.
        return (shape .>= SIMD16<UInt8>(repeating: required)) .& (level .>= SIMD16<UInt8>(repeating: 3))
    }

    /// The scalar twin of `detect16` for the first `lanes` positions.
    func detectLanes(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>, lanes: Int) -> UInt128 {
        var result: UInt128 = 0
        for lane in 0..<lanes {
            let set = detect1(planes, at: j + lane, offsets)
            for p in 0..<phases where set & (1 << UInt8(p)) != 0 {
                result |= 1 << UInt128(16 * p + lane)
            }
        }
        return result
    }

    /// One position (plane entry `j`): the set of phases (bit p) that pass.
    @inline(__always)
    func detect1(_ planes: Bytes, at j: Int, _ offsets: UnsafePointer<Int>) -> UInt8 {
        let falls = planes.falls + j, rises = planes.rises + j, loud = planes.loud + j
        var set: UInt8 = 0
        for p in 0..<phases {
            let o = offsets + p * SliceKernels.preambleWindows
            let shape = falls[o[0]] + rises[o[4]] + falls[o[1]] + rises[o[8]] + falls[o[2]] + rises[o[9]]
            let level = loud[o[0]] + loud[o[1]] + loud[o[2]] + loud[o[3]]
            if shape >= required && level >= 3 { set |= 1 << UInt8(p) }
        }
        return set
    }
}
