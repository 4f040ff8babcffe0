import Demod
import Foundation

/// Samples from a recorded file or standard input, as fast as they can be read (the receiver
/// loop paces them for `--throttle`). Reads straight into fixed-size blocks; a trailing
/// partial sample is reported once and ignored.
public final class IQFileSource: SampleSource {
    public let format: SampleFormat
    public let sampleRate: SampleRate
    public private(set) var samplesDropped: UInt64 = 0
    /// The file's name as the user gave it ("-" is standard input), for messages.
    public let path: String

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let blockSamples: Int
    private var nextSample: UInt64 = 0
    private var finished = false

    /// Opens `path` ("-" for standard input).
    public init(path: String, format: SampleFormat, sampleRate: SampleRate, blockSamples: Int = 1 << 18) throws(SampleSourceError) {
        self.path = path
        self.format = format
        self.sampleRate = sampleRate
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
        // Read straight into the block's bytes until it is full or the input ends (no zero
        // fill first: every byte kept was read).
        var failure: SampleSourceError?
        var filled = 0
        let wanted = blockSamples * format.bytesPerSample
        var bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            // The buffer may be larger than asked for: read only a block.
            while filled < wanted {
                let n = read(fd, buffer.baseAddress! + filled, wanted - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .io(path: path, reason: String(cString: strerror(errno)))
                    break
                }
                if n == 0 { finished = true; break }
                filled += n
            }
            count = filled
        }
        if let failure { throw failure }
        let whole = filled / format.bytesPerSample * format.bytesPerSample
        if whole < filled {
            if whole == 0 { throw .truncated(path: path, bytes: filled) }
            truncatedBytes = filled - whole
        }
        guard whole > 0 else { return nil }
        bytes.removeLast(filled - whole)
        let block = SampleBlock(bytes: bytes, format: format, firstSample: nextSample)
        nextSample += UInt64(block.sampleCount)
        return block
    }

    /// Bytes of a partial sample at the end of the input that were ignored (0 when none).
    public private(set) var truncatedBytes = 0
}
