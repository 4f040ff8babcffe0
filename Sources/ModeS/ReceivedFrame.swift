/// A frame as a source delivers it: the bits, when it arrived and how strong it was.
/// Every source (dongle, file, simulator, network) ends in this value.
public struct ReceivedFrame: Hashable, Sendable {
    public var frame: Frame
    /// 12 MHz counter at the end of bit 56 of the frame (FORMATS.md, Beast); 0 = unknown.
    public var timestamp: UInt64
    /// Signal level, dBFS; nil when unknown.
    public var signal: Double?

    public init(frame: Frame, timestamp: UInt64 = 0, signal: Double? = nil) {
        self.frame = frame
        self.timestamp = timestamp
        self.signal = signal
    }

    /// Ticks of the 12 MHz timestamp clock per second.
    public static let ticksPerSecond: Double = 12_000_000

    /// The timestamp in seconds, or nil when unknown.
    public var seconds: Double? { timestamp == 0 ? nil : Double(timestamp) / ReceivedFrame.ticksPerSecond }
}
