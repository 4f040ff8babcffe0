import RealModule

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast, deterministic generator, so simulated
/// skies, noise, benchmarks and randomised tests are the same for the same seed on every run.
/// Not for cryptography. (Generators carry their own state: no global mutable state.)
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A pair of independent standard normal values (Box–Muller).
    public mutating func normalPair() -> (Double, Double) {
        // 1 − unit() is in (0, 1], so the logarithm is finite.
        let radius = (-2 * Double.log(1 - unit())).squareRoot()
        let angle = 2 * Double.pi * unit()
        return (radius * Double.cos(angle), radius * Double.sin(angle))
    }

    /// An independent generator derived from this one's next output (for giving each
    /// aircraft or stream its own sequence).
    public mutating func split() -> SplitMix64 { SplitMix64(seed: next() ^ 0x6A09_E667_F3BC_C909) }
}
