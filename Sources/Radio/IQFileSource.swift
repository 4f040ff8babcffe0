import Demod
import Foundation

/// Samples from a recorded file or standard input, as fast as they can be read (or paced to
/// real time with `throttle`). Reads in fixed-size blocks; a trailing partial sample is
/// reported once and ignored.
public final class IQFileSource: SampleSource {
    public let format: SampleFormat
    public let sampleRate: SampleRate
    public private(set) var samplesDropped: UInt64 = 0
    /// The file's name as the user gave it ("-" is standard input), for messages.
    public let path: String
    /// Pace blocks to the sample rate (real time) instead of as fast as possible.
    public let throttle: Bool

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let blockSamples: Int
    private var nextSample: UInt64 = 0
    private var pending: [UInt8] = []
    private var finished = false
    private let started = ContinuousClock.now

    /// Opens `path` ("-" for standard input).
    public init(path: String, format: SampleFormat, sampleRate: SampleRate, throttle: Bool = false, blockSamples: Int = 1 << 18) throws(SampleSourceError) {
        self.path = path
        self.format = format
        self.sampleRate = sampleRate
        self.throttle = throttle
        self.blockSamples = max(1, blockSamples)
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY)
            guard opened >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
            var info = stat()
            if fstat(opened, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw .io(path: path, reason: "is a directory")
            }
            fd = opened
            ownsDescriptor = true
        }
    }

    deinit { if ownsDescriptor { close(fd) } }

    public func nextBlock() throws(SampleSourceError) -> SampleBlock? {
        guard !finished else { return nil }
        let wanted = blockSamples * format.bytesPerSample
        var bytes = pending
        pending.removeAll(keepingCapacity: false)
        bytes.reserveCapacity(wanted)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < wanted {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, wanted - bytes.count)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { finished = true; break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        let whole = bytes.count / format.bytesPerSample * format.bytesPerSample
        if finished && whole < bytes.count {
            let leftover = bytes.count - whole
            bytes.removeLast(leftover)
            if whole == 0 { throw .truncated(path: path, bytes: leftover) }
            pending = []
            truncatedBytes = leftover
        }
        guard whole > 0 else { return nil }
        let block = SampleBlock(bytes: bytes, format: format, firstSample: nextSample)
        nextSample += UInt64(block.sampleCount)
        if throttle { pace() }
        return block
    }

    /// Bytes of a partial sample at the end of the input that were ignored (0 when none).
    public private(set) var truncatedBytes = 0

    /// Sleeps until real time catches up with the samples delivered.
    private func pace() {
        let due = Duration.seconds(Double(nextSample) / Double(sampleRate.hertz))
        let elapsed = ContinuousClock.now - started
        if due > elapsed { Thread.sleep(forTimeInterval: Double((due - elapsed).components.attoseconds) * 1e-18 + Double((due - elapsed).components.seconds)) }
    }
}
