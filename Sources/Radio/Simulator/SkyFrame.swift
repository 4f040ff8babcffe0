import Demod
import ModeS

/// One frame the sky sends: the transmission as the receiver gets it and what it was.
public struct SkyFrame: Sendable, Hashable {
    public var transmission: Transmission
    public var kind: SimulatedMessage
    /// The Comm-B register of DF20/21 frames.
    public var register: BDS?
    public var address: UInt32
    /// Start of the preamble, seconds since the start of the sky.
    public var time: Double
    /// The aircraft's true position and barometric altitude (ft) when it sent the frame.
    public var position: Coordinate
    public var altitude: Double
    /// Order of generation, to break ties between frames starting on the same tick.
    public var sequence: Int

    public var frame: Frame { transmission.frame }
    public var levelDBFS: Double { transmission.levelDBFS }
}
