#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor line by line with bounded memory: a line longer than `limit`
/// bytes is returned truncated to `limit + 1` bytes with its full length, so a 10 MB line of
/// garbage costs a fixed buffer, not 10 MB.
struct LineReader {
    struct Line {
        /// The line's bytes without the newline (at most `limit + 1` of them).
        var bytes: [UInt8]
        /// The full length of the line in bytes.
        var length: Int
        /// 1-based line number.
        var number: Int
    }

    enum ReadError: Error { case system(errno: Int32) }

    private let fd: Int32
    private let limit: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var eof = false
    private var lineNumber = 0

    init(fd: Int32, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    /// The next line, or nil at end of input.
    mutating func next() throws(ReadError) -> Line? {
        var line: [UInt8] = []
        var length = 0
        while true {
            if start == end {
                if eof { break }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw .system(errno: errno)
                }
                if n == 0 { eof = true; break }
                start = 0
                end = n
            }
            if let nl = buffer[start..<end].firstIndex(of: 10) {
                append(buffer[start..<nl], to: &line, length: &length)
                start = nl + 1
                lineNumber += 1
                return Line(bytes: line, length: length, number: lineNumber)
            }
            append(buffer[start..<end], to: &line, length: &length)
            start = end
        }
        guard length > 0 else { return nil }
        lineNumber += 1
        return Line(bytes: line, length: length, number: lineNumber)
    }

    private func append(_ chunk: ArraySlice<UInt8>, to line: inout [UInt8], length: inout Int) {
        let room = limit + 1 - line.count
        if room > 0 { line.append(contentsOf: chunk.prefix(room)) }
        length += chunk.count
    }
}
