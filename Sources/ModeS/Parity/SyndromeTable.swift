/// Syndromes of correctable error patterns, for one frame length.
///
/// A table maps the syndrome of a 1-bit error at every position, and of every 2-bit error,
/// to the bit positions to invert. Syndromes that two different patterns share are marked
/// ambiguous and never corrected. The tables are built once (`static let`) and are read-only.
public struct SyndromeTable: Sendable {
    /// Bit positions (1-based) to invert; `second` is 0 for a 1-bit error.
    public struct Fix: Hashable, Sendable {
        public let first: UInt8
        public let second: UInt8
        /// Number of bits the fix inverts.
        public var bitCount: Int { second == 0 ? 1 : 2 }
    }

    /// Frame length the table was built for (56 or 112).
    public let frameBits: Int
    /// Open addressing, linear probing: `keys[i]` is a syndrome (`empty` when unused) and
    /// `fixes[i]` its fix. A lookup is a multiply, a shift and a probe or two: it runs for
    /// every candidate frame the demodulator slices, where a `Dictionary` lookup (hashing
    /// included) cost several times more.
    @usableFromInline let keys: [UInt32]
    @usableFromInline let fixes: [Fix]
    /// log2 of the slot count.
    @usableFromInline let bits: Int
    /// One bit per 16-bit hash of the held syndromes (8 KB, stays in the first-level cache):
    /// most syndromes looked up are of noise and belong to no error pattern, and a clear bit
    /// says so without touching the larger table.
    @usableFromInline let present: [UInt64]
    /// An unused slot (syndromes have 24 bits).
    @usableFromInline static let empty = UInt32.max

    /// Marker for a syndrome shared by two error patterns.
    private static let ambiguous = Fix(first: 0, second: 0)

    /// Builds the table for `frameBits`, covering errors in bits `firstBit…frameBits`, with
    /// 2-bit errors when `twoBit` is true. Bits 1–5 (the DF) are excluded by callers: an error
    /// there changes the format and the frame length, so it cannot be corrected in place.
    public init(frameBits: Int, firstBit: Int = 6, twoBit: Bool) {
        self.frameBits = frameBits
        var singles: [Int: UInt32] = [:]
        for i in firstBit...frameBits {
            singles[i] = CRC24.syndrome(ofBit: i, bitCount: frameBits)
        }
        var table: [UInt32: Fix] = [:]
        func add(_ syndrome: UInt32, _ fix: Fix) {
            if let existing = table[syndrome], existing != fix {
                table[syndrome] = SyndromeTable.ambiguous
            } else {
                table[syndrome] = fix
            }
        }
        for i in firstBit...frameBits { add(singles[i]!, Fix(first: UInt8(i), second: 0)) }
        if twoBit {
            for i in firstBit...frameBits {
                for j in (i + 1)...max(i + 1, frameBits) where j <= frameBits {
                    add(singles[i]! ^ singles[j]!, Fix(first: UInt8(i), second: UInt8(j)))
                }
            }
        }
        var bits = 4
        while (1 << bits) < 2 * table.count { bits += 1 }
        var keys = [UInt32](repeating: SyndromeTable.empty, count: 1 << bits)
        var fixes = [Fix](repeating: SyndromeTable.ambiguous, count: 1 << bits)
        for (syndrome, fix) in table {
            var slot = SyndromeTable.slot(syndrome, bits: bits)
            while keys[slot] != SyndromeTable.empty { slot = (slot + 1) & ((1 << bits) - 1) }
            keys[slot] = syndrome
            fixes[slot] = fix
        }
        self.bits = bits
        self.keys = keys
        self.fixes = fixes
        var present = [UInt64](repeating: 0, count: 1 << 10)
        for syndrome in table.keys {
            let h = SyndromeTable.slot(syndrome, bits: 16)
            present[h >> 6] |= 1 << UInt64(h & 63)
        }
        self.present = present
    }

    /// The first slot to probe for a syndrome (Fibonacci hashing).
    @inlinable
    static func slot(_ syndrome: UInt32, bits: Int) -> Int {
        Int((syndrome &* 0x9E37_79B1) >> UInt32(32 - bits))
    }

    /// The error pattern with this syndrome, or nil when none (or more than one) matches.
    @inlinable
    public func fix(for syndrome: UInt32) -> Fix? {
        guard let fix = lookup(syndrome), fix.first != 0 else { return nil }
        return fix
    }

    @usableFromInline
    func lookup(_ syndrome: UInt32) -> Fix? {
        let h = SyndromeTable.slot(syndrome, bits: 16)
        guard present[h >> 6] & (1 << UInt64(h & 63)) != 0 else { return nil }
        return keys.withUnsafeBufferPointer { k in
            let mask = k.count - 1
            var slot = SyndromeTable.slot(syndrome, bits: bits)
            while true {
                let key = k[slot]
                if key == syndrome { return fixes[slot] }
                if key == SyndromeTable.empty { return nil }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Number of distinct syndromes in the table (for tests).
    public var count: Int { keys.lazy.filter { $0 != SyndromeTable.empty }.count }

    /// 1- and 2-bit errors in 112-bit frames.
    public static let long = SyndromeTable(frameBits: 112, twoBit: true)
    /// 1- and 2-bit errors in 56-bit frames.
    public static let short = SyndromeTable(frameBits: 56, twoBit: true)
}
