@preconcurrency import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT/SIGTERM turned into a flag the receiver loop polls, plus an action (stopping the
/// dongle, which unblocks a waiting read). The default handlers are replaced so the program
/// ends cleanly: outputs flushed, files written, USB released.
final class StopSignal: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    // Created once in `init`, only cancelled in `deinit`: never mutated concurrently.
    private let sources: [any DispatchSourceSignal]
    /// Run at the first signal (`init`'s action, then those given to `onStop`).
    private let actions: Mutex<[@Sendable () -> Void]>

    /// Installs the handlers; `action` runs once, on a background queue, at the first signal.
    init(action: @escaping @Sendable () -> Void = {}) {
        actions = Mutex([action])
        let queue = DispatchQueue(label: "flytracker.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for source in sources {
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if !self.flag.exchange(true, ordering: .acquiringAndReleasing) {
                    for run in self.actions.withLock({ $0 }) { run() }
                }
            }
            source.resume()
        }
    }

    /// True once a signal arrived (or `stop()` was called).
    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Adds an action for the first signal (once something to stop exists).
    func onStop(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    /// Sets the flag without a signal.
    func stop() { flag.store(true, ordering: .releasing) }

    deinit { for source in sources { source.cancel() } }
}
