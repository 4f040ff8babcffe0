/// Half-bit energies for a stretch of positions, one plane per step of a sample
/// (`SliceKernels`): plane `q`, entry `j` is the energy of a half bit that starts `q` steps
/// into sample `origin + j`, i.e. `w0·m[origin + j] + w1·m[origin + j + 1]` with the plane's
/// weights (they sum to the half-bit length in steps).
///
/// Magnitudes are reduced to 12 bits (`shift`) first, so an energy (at most 6 × 4095) fits an
/// `Int16` lane and the preamble detector compares eight positions per 128-bit vector.
/// Preamble correlation and bit slicing then read one entry per half bit.
struct HalfBitPlanes {
    /// Right shift from 15-bit magnitudes to the 12-bit values the planes sum.
    static let shift: UInt16 = 3
    /// Positions filled per refill.
    static let length = 4096

    /// Entries per plane: the filled positions plus the reach of a whole long reply and a
    /// vector's overrun.
    let stride: Int
    private let weights: [(Int16, Int16)]
    /// The planes (`resolution` × `stride` entries), copied on write.
    private var buffer: Buffer
    /// Plane entry 0 of plane 0.
    var entries: UnsafePointer<Int16> { UnsafePointer(buffer.pointer) }
    /// The magnitude index of entry 0.
    private(set) var origin = 0
    /// Positions (from `origin`) that candidates may start at: their whole reply, and the
    /// reply one sample later, are filled.
    private(set) var usable = 0
    private let maxOffset: Int

    init(kernels: SliceKernels) {
        stride = HalfBitPlanes.length + kernels.span + 16
        weights = (0..<kernels.resolution).map { kernels.weights(plane: $0) }
        buffer = Buffer(count: kernels.resolution * stride)
        maxOffset = kernels.maxOffset
    }

    /// Forgets the filled positions (the magnitudes they came from have moved).
    mutating func invalidate() { usable = 0; origin = 0 }

    /// True when a candidate at magnitude index `s` can be examined without a refill.
    @inline(__always)
    func covers(_ s: Int) -> Bool { s >= origin && s < origin + usable }

    /// Fills the planes for positions from `origin`, reading magnitudes `m[origin ..< available]`
    /// (entries past what they allow are left as they were and never read: positions beyond
    /// `usable` need a refill). Any `origin` below `available − span − 1` gives `usable ≥ 1`.
    mutating func fill(_ m: UnsafePointer<UInt16>, origin: Int, available: Int) {
        self.origin = origin
        let n = max(0, min(stride, available - origin - 1))
        usable = max(0, min(HalfBitPlanes.length, n - maxOffset - 1))
        if !isKnownUniquelyReferenced(&buffer) { buffer = Buffer(count: buffer.count) }
        let out = buffer.pointer
        let vectorEnd = n & ~7
        HalfBitPlanes.fillVector(m + origin, count: vectorEnd, into: out, stride: stride, weights: weights)
        HalfBitPlanes.fillScalar(m + origin, from: vectorEnd, to: n, into: out, stride: stride, weights: weights)
    }

    /// Eight entries per step (`SIMD8<Int16>`: SSE2 on x86, NEON on the Pi); `count` is a
    /// multiple of 8.
    static func fillVector(_ m: UnsafePointer<UInt16>, count: Int, into out: UnsafeMutablePointer<Int16>,
                           stride: Int, weights: [(Int16, Int16)]) {
        let raw = UnsafeRawPointer(m)
        let shift = SIMD8<UInt16>(repeating: HalfBitPlanes.shift)
        var j = 0
        while j < count {
            let a = SIMD8<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 2 * j, as: SIMD8<UInt16>.self) &>> shift)
            let b = SIMD8<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 2 * j + 2, as: SIMD8<UInt16>.self) &>> shift)
            for (q, w) in weights.enumerated() {
                let e = a &* SIMD8<Int16>(repeating: w.0) &+ b &* SIMD8<Int16>(repeating: w.1)
                UnsafeMutableRawPointer(out + q * stride + j).storeBytes(of: e, as: SIMD8<Int16>.self)
            }
            j += 8
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
        let pointer: UnsafeMutablePointer<Int16>
        let count: Int
        init(count: Int) {
            self.count = count
            pointer = .allocate(capacity: count)
            pointer.initialize(repeating: 0, count: count)
        }
        deinit { pointer.deallocate() }
    }
}
