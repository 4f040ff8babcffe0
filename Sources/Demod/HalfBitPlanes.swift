/// Half-bit energies for a stretch of positions, one plane per step of a sample
/// (`SliceKernels`): plane `q`, entry `j` is the energy of a half bit that starts `q` steps
/// into sample `origin + j`, i.e. `w0·m[origin + j] + w1·m[origin + j + 1]` with the plane's
/// weights (they sum to the half-bit length in steps).
///
/// Magnitudes are reduced to 12 bits (`shift`) first, so an energy (at most 6 × 4095) fits an
/// `Int16` lane. Preamble correlation and bit slicing read one entry per half bit.
///
/// Beside each energy plane, a byte plane holds what the preamble detector asks of every half
/// bit as two flags (`PreambleDetector.falls`, `.loud`): its energy is above the next half
/// bit's, and above the level threshold. The detector then tests thirty-two positions per
/// `SIMD32<UInt8>` with byte adds, both flags summed at once in separate nibbles.
///
/// `@unchecked Sendable`: the one non-Sendable member, the magnitude pointer of the current
/// `fill`, is only read during the demodulator's `screen` call that set it.
struct HalfBitPlanes: @unchecked Sendable {
    /// Right shift from 15-bit magnitudes to the 12-bit values the planes sum.
    static let shift: UInt16 = 3
    /// Positions per `fill`.
    static let length = 4096

    /// Entries per plane: the filled positions plus the reach of a whole long reply and a
    /// vector's overrun.
    let stride: Int
    private let weights: [(Int16, Int16)]
    /// The planes (`resolution` × `stride` entries), copied on write.
    private var buffer: Buffer
    /// Plane entry 0 of plane 0.
    var entries: UnsafePointer<Int16> { UnsafePointer(buffer.pointer) }
    /// One byte per sample (entry): 1 when any of the magnitudes of samples j, j+1, j+2 could
    /// make a pulse over them loud (`PreambleDetector.loudMagnitude`). Filled for the whole
    /// stretch by `fill`: the detector's pre-test reads only this.
    var hot: UnsafePointer<UInt8> { UnsafePointer(buffer.hot) }
    /// The byte planes (flags), same layout as the energies.
    var bytes: PreambleDetector.Bytes {
        PreambleDetector.Bytes(energies: buffer.pointer, flags: buffer.bytes)
    }
    /// Per plane: the plane and entry offset of the half bit that follows (`halfBitSteps` later).
    private let next: [(plane: Int, offset: Int)]
    /// The magnitude index of entry 0.
    private(set) var origin = 0
    /// Positions (from `origin`) that candidates may start at: their whole reply, and the
    /// reply one sample later, are filled.
    private(set) var usable = 0
    private let maxOffset: Int
    private let halfBitSteps: Int

    init(kernels: SliceKernels) {
        stride = HalfBitPlanes.length + kernels.span + 16
        halfBitSteps = kernels.halfBitSteps
        weights = (0..<kernels.resolution).map { kernels.weights(plane: $0) }
        buffer = Buffer(count: kernels.resolution * stride)
        maxOffset = kernels.maxOffset
        next = (0..<kernels.resolution).map { q in
            ((q + kernels.halfBitSteps) % kernels.resolution, (q + kernels.halfBitSteps) / kernels.resolution)
        }
    }

    /// Energies are valid for entries [0, energyEnd), byte planes for [0, byteEnd): both are
    /// filled on demand (`ensureEnergies`, `ensureBytes`), so stretches the detector skips
    /// cost nothing.
    private(set) var energyEnd = 0
    private(set) var byteEnd = 0
    /// Entries the magnitudes allow (`fill`).
    private var limit = 0
    private var source: UnsafePointer<UInt16>?
    private var loudAbove: Int16 = 0

    /// Forgets the filled positions (the magnitudes they came from have moved).
    mutating func invalidate() { usable = 0; origin = 0; energyEnd = 0; byteEnd = 0; limit = 0; source = nil }

    /// True when a candidate at magnitude index `s` can be examined without a refill.
    @inline(__always)
    func covers(_ s: Int) -> Bool { s >= origin && s < origin + usable }

    /// Starts planes for positions from `origin`, over magnitudes `m[origin ..< available]`
    /// (which must stay in place until the next `fill` or `invalidate`): marks `hot` for the
    /// whole stretch; energies and byte planes wait for `ensureEnergies` / `ensureBytes`. Any
    /// `origin` below `available − span − 1` gives `usable ≥ 1`. `loudAbove` is the energy a
    /// half bit must exceed to be `loud`.
    mutating func fill(_ m: UnsafePointer<UInt16>, origin: Int, available: Int, loudAbove: Int16) {
        self.origin = origin
        limit = max(0, min(stride, available - origin - 1))
        usable = max(0, min(HalfBitPlanes.length, limit - maxOffset - 1))
        source = m + origin
        self.loudAbove = loudAbove
        energyEnd = 0
        byteEnd = 0
        if !isKnownUniquelyReferenced(&buffer) { buffer = Buffer(count: buffer.count) }
        let above = PreambleDetector.loudMagnitude(pulseAbove: loudAbove, halfBitSteps: halfBitSteps)
        let hotCount = max(0, limit - 2)
        let vectorEnd = hotCount & ~15
        HalfBitPlanes.markHotVector(m + origin, count: vectorEnd, above: above, into: buffer.hot)
        HalfBitPlanes.markHotScalar(m + origin, from: vectorEnd, to: hotCount, above: above, into: buffer.hot)
    }

    /// `hot` for sixteen samples per step; `count` is a multiple of 16. Magnitudes are 15-bit,
    /// so reading them as `Int16` keeps their order. Not inlined, like `classifyPlanes`: on its
    /// own the narrowing to bytes stays a pack instruction.
    @inline(never)
    static func markHotVector(_ m: UnsafePointer<UInt16>, count: Int, above: Int16, into hot: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeRawPointer(m)
        let threshold = SIMD16<Int16>(repeating: above)
        var j = 0
        while j < count {
            let x = raw.loadUnaligned(fromByteOffset: 2 &* j, as: SIMD16<Int16>.self)
            let y = raw.loadUnaligned(fromByteOffset: 2 &* j &+ 2, as: SIMD16<Int16>.self)
            let z = raw.loadUnaligned(fromByteOffset: 2 &* j &+ 4, as: SIMD16<Int16>.self)
            let loud = (x .> threshold) .| (y .> threshold) .| (z .> threshold)
            let bytes = SIMD16<UInt8>(truncatingIfNeeded: SIMD16<Int16>(repeating: 0).replacing(with: 1, where: loud))
            UnsafeMutableRawPointer(hot + j).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
            j &+= 16
        }
    }

    /// The scalar twin of `markHotVector`, for samples [from, to).
    static func markHotScalar(_ m: UnsafePointer<UInt16>, from: Int, to: Int, above: Int16, into hot: UnsafeMutablePointer<UInt8>) {
        for j in from..<max(from, to) {
            let peak = max(m[j], m[j + 1], m[j + 2])
            hot[j] = Int(peak) > Int(above) ? 1 : 0
        }
    }

    /// Entries the planes grow by at a time (energies and flags): large enough that the
    /// per-call work is small beside the entries filled, small enough that a lone candidate in
    /// a quiet stretch costs little. (256 before: each of the five planes' classification
    /// then paid its loop's setup every 256 entries, a tenth of its instructions on a busy
    /// sky; 1024 fills a quarter of a `fill` at a time: 2 % fewer instructions in all there,
    /// with fewer calls into the fill and the detector, and none more on noise.)
    static let extendStep = 1024

    /// `end` rounded up to a multiple of `extendStep`.
    private static func stepEnd(_ end: Int) -> Int { (end + extendStep - 1) & -extendStep }

    /// Makes energies valid for entries below `end` (and a little beyond, in steps of
    /// `extendStep`).
    @inline(__always)
    mutating func ensureEnergies(upTo end: Int) {
        if end > energyEnd { extendEnergies(to: end) }
    }

    /// Makes the byte planes valid for entries below `end`.
    @inline(__always)
    mutating func ensureBytes(upTo end: Int) {
        if end > byteEnd { extendBytes(to: end) }
    }

    private mutating func extendEnergies(to end: Int) {
        guard let source else { return }
        let target = min(limit, HalfBitPlanes.stepEnd(end))
        guard target > energyEnd else { return }
        let vectorEnd = energyEnd + ((target - energyEnd) & ~15)
        HalfBitPlanes.fillVector(source, from: energyEnd, count: vectorEnd - energyEnd, into: buffer.pointer, stride: stride, weights: weights)
        HalfBitPlanes.fillScalar(source, from: vectorEnd, to: target, into: buffer.pointer, stride: stride, weights: weights)
        energyEnd = target
    }

    private mutating func extendBytes(to end: Int) {
        // A byte entry compares an energy with one up to two entries further on.
        let wanted = HalfBitPlanes.stepEnd(end)
        extendEnergies(to: wanted + 2)
        let target = min(max(0, energyEnd - 2), wanted)
        guard target > byteEnd else { return }
        HalfBitPlanes.classifyPlanes(buffer.pointer, flags: buffer.bytes, stride: stride, next: next, from: byteEnd, to: target, loudAbove: loudAbove)
        byteEnd = target
    }

    /// Flags for every plane (`next`: each plane's following half bit), entries [start, end):
    /// `classifyVector` sixteen at a time, `classifyScalar` for a tail (only at the end of the
    /// magnitudes). Not inlined: compiled on its own, the narrowing in `classifyVector` stays a
    /// pack instruction.
    @inline(never)
    static func classifyPlanes(_ energies: UnsafeMutablePointer<Int16>, flags: UnsafeMutablePointer<UInt8>, stride: Int,
                               next: [(plane: Int, offset: Int)], from start: Int, to end: Int, loudAbove: Int16) {
        let vectorEnd = start &+ ((end &- start) & ~15)
        next.withUnsafeBufferPointer { next in
            for q in 0..<next.count {
                let base = q &* stride
                let e = UnsafePointer(energies + base), f = UnsafePointer(energies + (next[q].plane &* stride &+ next[q].offset))
                classifyVector(e, following: f, from: start, count: vectorEnd &- start, loudAbove: loudAbove, into: flags + base)
                if vectorEnd < end { classifyScalar(e, following: f, from: vectorEnd, to: end, loudAbove: loudAbove, into: flags + base) }
            }
        }
    }

    /// Sixteen byte-plane entries per step, `count` (a multiple of 16) from `start`: each
    /// comparison's lanes (all ones or zero) narrow to bytes in one pack, then keep their flag.
    @inline(__always)
    static func classifyVector(_ e: UnsafePointer<Int16>, following f: UnsafePointer<Int16>, from start: Int = 0, count: Int,
                               loudAbove: Int16, into flags: UnsafeMutablePointer<UInt8>) {
        let er = UnsafeRawPointer(e), fr = UnsafeRawPointer(f)
        let threshold = SIMD16<Int16>(repeating: loudAbove)
        let falls = SIMD16<UInt8>(repeating: PreambleDetector.falls), loud = SIMD16<UInt8>(repeating: PreambleDetector.loud)
        var j = start
        let end = start &+ count
        while j < end {
            let a = er.loadUnaligned(fromByteOffset: 2 &* j, as: SIMD16<Int16>.self)
            let b = fr.loadUnaligned(fromByteOffset: 2 &* j, as: SIMD16<Int16>.self)
            let fell = SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(a .> b, to: SIMD16<Int16>.self))
            let high = SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(a .> threshold, to: SIMD16<Int16>.self))
            UnsafeMutableRawPointer(flags + j).storeBytes(of: (fell & falls) | (high & loud), as: SIMD16<UInt8>.self)
            j &+= 16
        }
    }

    /// The scalar twin of `classifyVector`, for entries [from, to).
    static func classifyScalar(_ e: UnsafePointer<Int16>, following f: UnsafePointer<Int16>, from: Int, to: Int, loudAbove: Int16,
                               into flags: UnsafeMutablePointer<UInt8>) {
        for j in from..<max(from, to) {
            flags[j] = (e[j] > f[j] ? PreambleDetector.falls : 0) | (e[j] > loudAbove ? PreambleDetector.loud : 0)
        }
    }

    /// Sixteen entries per step (`SIMD16<Int16>`: one AVX2 register, two SSE2 or NEON ones),
    /// `count` (a multiple of 16) from `start`. Plane q's weights are plane 0's moved by q steps from the first sample to
    /// the second (`SliceKernels.weights`), so each plane is the previous one plus b − a.
    static func fillVector(_ m: UnsafePointer<UInt16>, from start: Int = 0, count: Int, into out: UnsafeMutablePointer<Int16>,
                           stride: Int, weights: [(Int16, Int16)]) {
        // A constant plane count lets the compiler unroll the per-plane stores.
        switch weights.count {
        case 5: fillVector(m, from: start, count: count, into: out, stride: stride, weights: weights, planes: 5)
        case 4: fillVector(m, from: start, count: count, into: out, stride: stride, weights: weights, planes: 4)
        default: fillVector(m, from: start, count: count, into: out, stride: stride, weights: weights, planes: weights.count)
        }
    }

    @inline(__always)
    private static func fillVector(_ m: UnsafePointer<UInt16>, from start: Int, count: Int, into out: UnsafeMutablePointer<Int16>,
                                   stride: Int, weights: [(Int16, Int16)], planes: Int) {
        let raw = UnsafeRawPointer(m)
        let shift = SIMD16<UInt16>(repeating: HalfBitPlanes.shift)
        let w0 = SIMD16<Int16>(repeating: weights[0].0), w1 = SIMD16<Int16>(repeating: weights[0].1)
        let target = UnsafeMutableRawPointer(out)
        var j = start
        let end = start &+ count
        while j < end {
            let a = SIMD16<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 2 &* j, as: SIMD16<UInt16>.self) &>> shift)
            let b = SIMD16<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 2 &* j &+ 2, as: SIMD16<UInt16>.self) &>> shift)
            let step = b &- a
            var e = a &* w0 &+ b &* w1
            target.storeBytes(of: e, toByteOffset: 2 &* j, as: SIMD16<Int16>.self)
            var offset = 2 &* j
            for _ in 1..<planes {
                e &+= step
                offset &+= 2 &* stride
                target.storeBytes(of: e, toByteOffset: offset, as: SIMD16<Int16>.self)
            }
            j &+= 16
        }
    }

    /// The scalar twin of `fillVector`, for entries [from, to).
    static func fillScalar(_ m: UnsafePointer<UInt16>, from: Int, to: Int, into out: UnsafeMutablePointer<Int16>,
                           stride: Int, weights: [(Int16, Int16)]) {
        for j in from..<max(from, to) {
            let a = Int16(m[j] >> shift), b = Int16(m[j + 1] >> shift)
            for (q, w) in weights.enumerated() {
                out[q * stride + j] = a &* w.0 &+ b &* w.1
            }
        }
    }

    /// Owns the plane memory (one allocation for the demodulator's life).
    final class Buffer: @unchecked Sendable {
        /// Energies: `count` entries.
        let pointer: UnsafeMutablePointer<Int16>
        /// `hot`: one entry per plane entry.
        let hot: UnsafeMutablePointer<UInt8>
        /// Byte planes (flags): `count` entries.
        let bytes: UnsafeMutablePointer<UInt8>
        let count: Int
        init(count: Int) {
            self.count = count
            pointer = .allocate(capacity: count)
            pointer.initialize(repeating: 0, count: count)
            bytes = .allocate(capacity: count)
            bytes.initialize(repeating: 0, count: count)
            hot = .allocate(capacity: count)
            hot.initialize(repeating: 0, count: count)
        }
        deinit { pointer.deallocate(); bytes.deallocate(); hot.deallocate() }
    }
}
