import Demod

/// Why a sample source stopped or failed.
public enum SampleSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Opening or reading failed; `path` is the file or device, `reason` the system's words.
    case io(path: String, reason: String)
    /// The input ended in the middle of a sample: `bytes` left over were ignored.
    case truncated(path: String, bytes: Int)
    /// Anything else a source wants to say, already phrased for the user.
    case message(String)

    public var description: String {
        switch self {
        case .io(let path, let reason): "cannot read \(path): \(reason)"
        case .truncated(let path, let bytes): "\(path) ends in the middle of a sample (\(bytes) bytes ignored)"
        case .message(let text): text
        }
    }
}

/// Where samples come from: a dongle, a file, the simulator. A source is read by one
/// consumer (the demodulator loop), one block at a time.
public protocol SampleSource: AnyObject {
    /// The layout of the bytes in every block.
    var format: SampleFormat { get }
    /// Samples per second.
    var sampleRate: SampleRate { get }
    /// The next block, waiting for it if needed; nil at the end of the stream (a file's end,
    /// a stopped dongle). Blocks arrive in order; `firstSample` jumps forward over drops.
    func nextBlock() throws(SampleSourceError) -> SampleBlock?
    /// Samples the source had to drop because the consumer fell behind.
    var samplesDropped: UInt64 { get }
}
