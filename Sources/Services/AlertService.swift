import ServiceLifecycle
import Store

/// The webhook alerts of a running receiver, as a service of its `ServiceGroup`: it first
/// delivers what earlier runs left undelivered (`AlertDispatcher.recover`), then each batch
/// of journal events the receiver hands over (`queue`), in order, one batch at a time.
///
/// The hand-over is an `AsyncStream` with a bound: a receiver never waits for a webhook, and
/// if webhooks are so slow that `capacity` batches wait, the newest batches are not queued
/// (they stay in the journal, and the next start's `recover` sends them). At graceful
/// shutdown the delivery in progress is cancelled between attempts; nothing is fired and
/// forgotten, and what was not delivered is recovered at the next start.
public struct AlertService: Service {
    public let dispatcher: AlertDispatcher
    private let batches: AsyncStream<[JournalEventRecord]>
    /// Where the receiver hands over journal events; `finish()` it when no more will come.
    public let queue: AsyncStream<[JournalEventRecord]>.Continuation

    /// Batches that may wait for delivery.
    public static let capacity = 1_000

    public init(dispatcher: AlertDispatcher, capacity: Int = AlertService.capacity) {
        self.dispatcher = dispatcher
        (batches, queue) = AsyncStream.makeStream(of: [JournalEventRecord].self, bufferingPolicy: .bufferingOldest(capacity))
    }

    public func run() async throws {
        let dispatcher = dispatcher, batches = batches
        await cancelWhenGracefulShutdown {
            await dispatcher.recover()
            for await batch in batches {
                if Task.isCancelled { break }
                await dispatcher.deliver(batch)
            }
        }
    }
}
