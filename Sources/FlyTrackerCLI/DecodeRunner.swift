import Feeds
import ModeS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The I/O loop of `flytracker decode`, on plain file descriptors so tests can drive it:
/// lines in, JSON Lines out, `flytracker: line N: why` for every line that is not a frame.
struct DecodeRunner {
    var reference: Coordinate?
    /// Farthest plausible position from `reference`, NM.
    var maxRange = DecodeSession.defaultMaxRange

    /// Decodes everything on `input`. Returns false only when `input` could not be read.
    func run(input: Int32, output: Int32, errors: Int32, inputName: String) -> Bool {
        var reader = LineReader(fd: input, limit: AVRLine.maximumLength)
        var session = DecodeSession(reference: reference, maxRange: maxRange)
        var out = OutputBuffer(fd: output)
        while true {
            let line: LineReader.Line?
            do {
                line = try reader.next()
            } catch {
                out.flush()
                if case .system(let code) = error {
                    StandardStreams.error("cannot read \(inputName): \(StandardStreams.describe(errno: code))", to: errors)
                }
                return false
            }
            guard let line else { break }
            let text = String(decoding: line.bytes, as: UTF8.self)
            do {
                if line.length > AVRLine.maximumLength && text.utf8.contains(where: { $0 > 32 }) {
                    // The reader kept only a prefix: report the real length.
                    throw DecodeLineError.malformed(.tooLong(bytes: line.length))
                }
                if let fields = try session.decode(line: Substring(text)) {
                    out.printLine(fields.json)
                }
            } catch {
                out.flush()
                StandardStreams.error("line \(line.number): \(error)", to: errors)
            }
        }
        out.flush()
        return true
    }
}
