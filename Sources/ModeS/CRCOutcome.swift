/// How the frame passed the parity check.
public enum CRCOutcome: Hashable, Sendable {
    /// Parity matched as received.
    case ok
    /// Parity matched after inverting this many bits.
    case corrected(bits: Int)
    /// An address/parity format: the address is the CRC remainder.
    case parity
}
