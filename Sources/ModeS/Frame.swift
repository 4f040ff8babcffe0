/// A Mode S downlink frame: 56 bits (short) or 112 bits (long), exactly as received.
///
/// Bits are numbered as ICAO Annex 10 Vol IV §3.1.2 and Doc 9871 number them: bit 1 is the
/// first bit transmitted (the most significant bit of the first byte). The frame is stored
/// left-aligned in a `UInt128`, so a short frame occupies bits 1…56 and the rest are zero.
/// Frames are plain values: no allocation, cheap to copy and compare.
public struct Frame: Hashable, Sendable {
    /// Bits 1–64 (bit 1 is the most significant bit).
    public let high: UInt64
    /// Bits 65–128 (zero beyond the frame's length).
    public let low: UInt64
    /// 56 or 112.
    public let bitCount: Int

    /// The bits, left-aligned: bit 1 is the most significant bit of `raw`.
    @inlinable public var raw: UInt128 { UInt128(high) << 64 | UInt128(low) }

    /// Number of bits in a short frame (DF 0–15).
    public static let shortBits = 56
    /// Number of bits in a long frame (DF 16–24).
    public static let longBits = 112

    /// Creates a frame from left-aligned bits; `bitCount` must be 56 or 112.
    /// Bits beyond `bitCount` are cleared.
    public init?(raw: UInt128, bitCount: Int) {
        guard bitCount == Frame.shortBits || bitCount == Frame.longBits else { return nil }
        self.bitCount = bitCount
        let masked = raw & (UInt128.max << UInt128(128 - bitCount))
        high = UInt64(truncatingIfNeeded: masked >> 64)
        low = UInt64(truncatingIfNeeded: masked)
    }

    /// Creates a frame from 7 or 14 bytes in transmission order.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        let count = bytes.count
        guard count == 7 || count == 14 else { return nil }
        var value: UInt128 = 0
        for byte in bytes { value = (value << 8) | UInt128(byte) }
        value <<= UInt128(128 - count * 8)
        self.init(raw: value, bitCount: count * 8)
    }

    /// Number of bytes: 7 or 14.
    @inlinable public var byteCount: Int { bitCount / 8 }

    /// True for 112-bit frames.
    @inlinable public var isLong: Bool { bitCount == Frame.longBits }

    /// Bits `first…last` (1-based, inclusive, at most 64 of them) as an unsigned integer.
    @inlinable @inline(__always)
    public func bits(_ first: Int, _ last: Int) -> UInt64 {
        let width = UInt64(truncatingIfNeeded: last - first + 1)
        if last <= 64 {
            return (high &<< UInt64(truncatingIfNeeded: first - 1)) &>> (64 &- width)
        }
        if first > 64 {
            return (low &<< UInt64(truncatingIfNeeded: first - 65)) &>> (64 &- width)
        }
        // Straddles the two words: the tail of `high` followed by the head of `low`.
        let lowCount = UInt64(truncatingIfNeeded: last - 64)
        let head = (high &<< UInt64(truncatingIfNeeded: first - 1)) &>> (64 &- (width &- lowCount))
        return head &<< lowCount | low &>> (64 &- lowCount)
    }

    /// Bit `n` (1-based).
    @inlinable @inline(__always)
    public func bit(_ n: Int) -> Bool { bits(n, n) == 1 }

    /// Byte `index` (0-based) in transmission order.
    @inlinable
    public func byte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: bits(index * 8 + 1, index * 8 + 8))
    }

    /// The downlink format, bits 1–5. Every frame whose first two bits are `11` is DF24
    /// (Annex 10 Vol IV §3.1.2.3.2.1.2), whatever bits 3–5 hold.
    @inlinable
    public var downlinkFormat: Int {
        let df = Int(bits(1, 5))
        return df >= 24 ? 24 : df
    }

    /// An extended squitter: DF17 (from a transponder) or DF18 (non-transponder devices, TIS-B,
    /// ADS-R), whose parity is clean (Annex 10 Vol IV §3.1.2.8.6, §3.1.2.8.7).
    @inlinable
    public var isExtendedSquitter: Bool {
        let df = downlinkFormat
        return df == 17 || df == 18
    }

    /// The last 24 bits: the AP or PI field (parity overlaid with address or interrogator id).
    @inlinable
    public var parityField: UInt32 { UInt32(bits(bitCount - 23, bitCount)) }

    /// Expected frame length in bits for a downlink format: DF 0–15 are short, 16–24 long
    /// (Annex 10 Vol IV §3.1.2.3.2.1.2).
    @inlinable
    public static func bitCount(forDownlinkFormat df: Int) -> Int {
        df < 16 ? shortBits : longBits
    }

    /// The same frame with bit `n` (1-based) inverted.
    @inlinable
    public func flipping(bit n: Int) -> Frame {
        Frame(raw: raw ^ (UInt128(1) << UInt128(128 - n)), bitCount: bitCount)!
    }

    /// The 56-bit ME / MB field, bits 33–88 of a long frame (zero for a short frame).
    @inlinable
    public var messageField: MessageField {
        isLong ? MessageField(bits(33, 88)) : MessageField(0)
    }
}
