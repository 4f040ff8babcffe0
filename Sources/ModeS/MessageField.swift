/// The 56-bit ME (extended squitter) or MB (Comm-B) field of a long frame: frame bits 33–88.
///
/// Bits are numbered 1…56 within the field, as the register tables of ICAO Doc 9871
/// Appendix A number them (field bit 1 = frame bit 33).
public struct MessageField: Hashable, Sendable {
    /// The 56 bits, right-aligned.
    public let value: UInt64

    @inlinable public init(_ value: UInt64) { self.value = value & 0x00FF_FFFF_FFFF_FFFF }

    /// Field bits `first…last` (1-based, inclusive) as an unsigned integer.
    @inlinable @inline(__always)
    public func bits(_ first: Int, _ last: Int) -> UInt64 {
        let width = last - first + 1
        return (value &>> UInt64(truncatingIfNeeded: 56 - last)) & ((1 &<< UInt64(truncatingIfNeeded: width)) &- 1)
    }

    /// Field bits `first…last` as an `Int`.
    @inlinable @inline(__always)
    public func int(_ first: Int, _ last: Int) -> Int { Int(bits(first, last)) }

    /// Field bit `n` (1-based).
    @inlinable @inline(__always)
    public func bit(_ n: Int) -> Bool { (value &>> UInt64(truncatingIfNeeded: 56 - n)) & 1 == 1 }

    /// A sign-magnitude-free two's-complement style value: bit `sign` is the sign of the
    /// `magnitude` bits that follow it, as Doc 9871 registers encode signed quantities
    /// (value = magnitude − 2^width when the sign bit is set).
    @inlinable
    public func signed(sign: Int, _ first: Int, _ last: Int) -> Int {
        let magnitude = int(first, last)
        return bit(sign) ? magnitude - (1 << (last - first + 1)) : magnitude
    }

    /// True when every bit in `first…last` is zero.
    @inlinable
    public func isZero(_ first: Int, _ last: Int) -> Bool { bits(first, last) == 0 }

    /// The ADS-B format type code, field bits 1–5.
    @inlinable public var typeCode: Int { int(1, 5) }
}
