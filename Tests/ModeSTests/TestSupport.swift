@testable import ModeS

/// Builds MB fields bit by bit, numbered as Doc 9871 numbers them (1 = MSB of the 56).
struct MBFieldBuilder {
    private(set) var value: UInt64 = 0

    init() {}

    init(_ field: MessageField) { value = field.value }

    /// Sets bits `first…last` to `raw` (right-aligned, truncated to the width).
    func setting(_ first: Int, _ last: Int, to raw: UInt64) -> MBFieldBuilder {
        let width = UInt64(last - first + 1)
        let mask: UInt64 = (1 << width) - 1
        let shift = UInt64(56 - last)
        var copy = self
        copy.value = (value & ~(mask << shift)) | ((raw & mask) << shift)
        return copy
    }

    /// Sets bit `n`.
    func setting(_ n: Int, _ on: Bool = true) -> MBFieldBuilder { setting(n, n, to: on ? 1 : 0) }

    /// Writes `v` as the register tables code signed values: bit `sign`, then `first…last`
    /// holding v + 2^width when v is negative.
    func settingSigned(sign: Int, _ first: Int, _ last: Int, to v: Int) -> MBFieldBuilder {
        let width = last - first + 1
        let negative = v < 0
        let magnitude = negative ? v + (1 << width) : v
        return setting(sign, negative).setting(first, last, to: UInt64(magnitude))
    }

    var field: MessageField { MessageField(value) }
}

/// The MB field (frame bits 33–88) of a DF20/21 frame given in hex.
func mbField(_ hex: String) throws -> MessageField { try me(hex) }

/// Builds a 56-bit ME/MB field from (first bit, last bit, value) parts, bits numbered 1…56 as
/// in Doc 9871, so synthetic messages read like the spec tables. A later part overwrites the
/// bits of an earlier one.
func field(_ parts: [(Int, Int, UInt64)]) -> MessageField {
    parts.reduce(MBFieldBuilder()) { $0.setting($1.0, $1.1, to: $1.2) }.field
}

/// The ME field (frame bits 33–88) of a DF17/18 frame given in hex.
func me(_ hex: String) throws -> MessageField { try Frame(hex: hex).messageField }
