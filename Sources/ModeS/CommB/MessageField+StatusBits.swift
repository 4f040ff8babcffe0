/// Status-bit helpers shared by the Comm-B register validators (ICAO Doc 9871 Appendix A:
/// "when the status bit is 0, all the bits of the field it qualifies shall be 0").
extension MessageField {
    /// True when the field `first…last` guarded by status bit `status` is consistent:
    /// the status bit is set, or it is clear and the value bits are all zero.
    func statusConsistent(_ status: Int, _ first: Int, _ last: Int) -> Bool {
        bit(status) || isZero(first, last)
    }
}
