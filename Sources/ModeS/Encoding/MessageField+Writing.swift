/// Writing bits into a 56-bit ME/MB field, numbered as Doc 9871 numbers them (field bit 1 is
/// the most significant of the 56), for the encoders.
extension MessageField {
    /// The field with bits `first…last` (1-based, inclusive, 1 ≤ first ≤ last ≤ 56) replaced
    /// by the low bits of `raw` (higher bits of `raw` are ignored). Out-of-range bit numbers
    /// leave the field unchanged.
    @inlinable
    public func setting(_ first: Int, _ last: Int, to raw: UInt64) -> MessageField {
        guard first >= 1, last <= 56, first <= last else { return self }
        let width = UInt64(truncatingIfNeeded: last - first + 1)
        let mask: UInt64 = width >= 64 ? .max : (1 &<< width) &- 1
        let shift = UInt64(truncatingIfNeeded: 56 - last)
        return MessageField((value & ~(mask &<< shift)) | ((raw & mask) &<< shift))
    }

    /// The field with bit `n` set to `on`.
    @inlinable
    public func setting(_ n: Int, _ on: Bool) -> MessageField {
        setting(n, n, to: on ? 1 : 0)
    }

    /// Writes `value` the way the register tables code signed quantities (the inverse of
    /// `signed(sign:_:_:)`): bit `sign` set for negative values and `first…last` holding
    /// value + 2^width. Values beyond the range −2^width … 2^width − 1 are clamped to it.
    @inlinable
    public func settingSigned(sign: Int, _ first: Int, _ last: Int, to value: Int) -> MessageField {
        let width = last - first + 1
        guard width >= 1, width < 63 else { return self }
        let limit = 1 << width
        let v = min(max(value, -limit), limit - 1)
        let code = v < 0 ? v + limit : v
        return setting(sign, v < 0).setting(first, last, to: UInt64(code))
    }
}
