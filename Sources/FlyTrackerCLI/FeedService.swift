import Feeds
import ServiceLifecycle

/// The network feeds of `flytracker run` (`FeedHub`, started and bound before the group runs)
/// as a service of the run's `ServiceGroup`: it holds them open until the group shuts down
/// gracefully (after the receiver, which is later in the list, has sent its last frames), then
/// closes every listener and connection and returns once they are closed.
struct FeedService: Service {
    let hub: FeedHub

    func run() async throws {
        // Cancellation ends the wait as graceful shutdown does: either way the feeds close.
        try? await gracefulShutdown()
        await hub.shutdown()
    }
}
