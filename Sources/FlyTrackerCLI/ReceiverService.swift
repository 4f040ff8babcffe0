import Foundation
import ServiceLifecycle
import Threads

/// The receiver of `flytracker run` (capture or replay, demodulation, the table and the
/// outputs) as a service of the run's `ServiceGroup`.
///
/// The receiver loop is CPU-bound (the demodulator) and a live source's read waits for the
/// capture thread, so it runs on a thread of its own (a `ThreadExecutor`), not on one of
/// Swift concurrency's few cooperative threads; it awaits only to hand a second over to the
/// sighting log or to pace a replay. At graceful shutdown or cancellation it asks the loop to
/// stop (`stop`: the flag the loop polls, and the dongle stopped so that a waiting read
/// returns); the loop then decodes the last frames and writes its files, as before, and the
/// service returns. When the loop ends on its own (end of a file), the group shuts the other
/// services down.
struct ReceiverService: Service {
    /// Resolves to true once the services the receiver feeds are up (the web server bound),
    /// false if they failed: then the receiver does not start. Nil: start at once.
    let ready: AsyncStream<Bool>?
    let work: @Sendable () async -> Void
    let stop: @Sendable () -> Void

    func run() async throws {
        if let ready {
            var up = false
            for await bound in ready { up = bound; break }
            guard up, !Task.isCancelled else { return }
        }
        let work = work
        let thread = ThreadExecutor(name: "flytracker.receiver")
        defer { thread.stop() }
        await withTaskCancellationOrGracefulShutdownHandler {
            await withTaskExecutorPreference(thread) { await work() }
        } onCancelOrGracefulShutdown: { stop() }
    }
}
