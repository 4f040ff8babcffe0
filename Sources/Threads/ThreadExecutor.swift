import Foundation

/// A task executor with a thread of its own, for async work that must not run on Swift's few
/// shared cooperative threads: the receiver (`ReceiverService`: the demodulator is CPU-bound,
/// and a live source's read waits for the capture thread), and `PostgresStore`'s client, whose
/// synchronous API (a thread waiting on a semaphore) must never need a pool thread to make
/// progress. Run a task on it with `Task(executorPreference:)` or
/// `withTaskExecutorPreference(_:operation:)`; `stop()` ends the thread once its queue is empty.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    public init(name: String) {
        let thread = Thread { [self] in runLoop() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the queue is empty.
    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` on a thread of its own, started for it and ended after it: for long
    /// synchronous, CPU-bound work called from async code (the benchmarks), which must not hold
    /// one of Swift's few cooperative threads while it runs.
    public static func run<T: Sendable>(name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let executor = ThreadExecutor(name: name)
        defer { executor.stop() }
        // A task of its own, awaited here (its body starts on the preferred executor; a
        // closure run under `withTaskExecutorPreference` would start where it is called).
        return try await Task(executorPreference: executor) { try work() }.value
    }

    private func runLoop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
