#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered output to a file descriptor (standard output by default), written with
/// `write(2)` in 64 KiB chunks. Owned by one command; no shared state.
struct OutputBuffer: ~Copyable {
    private var buffer: [UInt8] = []
    private let fd: Int32

    init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends `text` and a newline; writes out when the buffer is full.
    mutating func printLine(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes everything buffered. Write errors (a closed pipe) drop the output.
    mutating func flush() {
        StandardStreams.writeAll(buffer, to: fd)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { StandardStreams.writeAll(buffer, to: fd) }
}

/// One-line messages to standard error.
enum StandardStreams {
    /// Writes `flytracker: <message>` and a newline to standard error (or `fd`).
    static func error(_ message: String, to fd: Int32 = STDERR_FILENO) {
        writeAll(Array("flytracker: \(message)\n".utf8), to: fd)
    }

    /// Writes all of `bytes`, retrying short writes; gives up silently on an error.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// The system's message for an errno value.
    static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }
}
