#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Key presses from a terminal on standard input, for `run --interactive`: the terminal is put
/// in raw mode (no echo, no line buffering) while it runs, and restored by `restore()`. A
/// thread of its own reads the bytes; `take()` hands over those that came. Nothing happens
/// when standard input is not a terminal.
final class TerminalKeys: Sendable {
    private let saved: termios?
    private let pending = Mutex<[UInt8]>([])
    private let stopped = Atomic<Bool>(false)

    init() {
        guard isatty(STDIN_FILENO) == 1 else { saved = nil; return }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { saved = nil; return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 1   // reads return after 0.1 s with or without a key
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        saved = original
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64)
            while !stopped.load(ordering: .relaxed) {
                let n = read(STDIN_FILENO, &buffer, buffer.count)
                if n > 0 { pending.withLock { $0.append(contentsOf: buffer[0..<n]) } } else if n < 0 && errno != EINTR && errno != EAGAIN { break }
            }
        }
        thread.start()
    }

    /// The bytes typed since the last call.
    func take() -> [UInt8] { pending.withLock { keys in defer { keys = [] }; return keys } }

    /// Puts the terminal back as it was (idempotent).
    func restore() {
        guard !stopped.exchange(true, ordering: .relaxed), var original = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }
}
