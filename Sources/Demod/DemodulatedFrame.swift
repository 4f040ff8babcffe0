import ModeS

/// A frame the demodulator found and whose parity checked out (any correction applied).
public struct DemodulatedFrame: Sendable, Hashable {
    /// Bits, 12 MHz timestamp (end of bit 56) and signal level in dBFS.
    public var received: ReceivedFrame
    /// The parity outcome, so later stages need not check again.
    public var parity: ParityResult
    /// Sample index of the preamble start (whole samples since the source started).
    public var sampleIndex: UInt64
}
