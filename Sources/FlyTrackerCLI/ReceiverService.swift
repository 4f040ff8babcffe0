import Foundation
import ServiceLifecycle

/// The receiver of `flytracker run` (capture or replay, demodulation, the table and the
/// outputs) as a service of the run's `ServiceGroup`.
///
/// The receiver loop is synchronous and CPU-bound (the demodulator), so it runs on a thread of
/// its own, not on one of Swift concurrency's few cooperative threads; the service awaits its
/// end. At graceful shutdown or cancellation it asks the loop to stop (`stop`: the flag the loop
/// polls, and the dongle stopped so that a waiting read returns); the loop then decodes the
/// last frames and writes its files, as before, and the service returns. When the loop ends
/// on its own (end of a file), the group shuts the other services down.
struct ReceiverService: Service {
    /// Resolves to true once the services the receiver feeds are up (the web server bound),
    /// false if they failed: then the receiver does not start. Nil: start at once.
    let ready: AsyncStream<Bool>?
    let work: @Sendable () -> Void
    let stop: @Sendable () -> Void

    func run() async throws {
        if let ready {
            var up = false
            for await bound in ready { up = bound; break }
            guard up, !Task.isCancelled else { return }
        }
        let work = work
        await withTaskCancellationOrGracefulShutdownHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    work()
                    done.resume()
                }
            }
        } onCancelOrGracefulShutdown: { stop() }
    }
}
