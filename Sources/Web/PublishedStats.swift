import Synchronization

/// A stats.json document the receiver loop replaces every second (`publish`) and the
/// server reads. Starts as `{}`.
public final class PublishedStats: StatsSource {
    private let document = Mutex("{}")

    public init() {}

    public func publish(_ text: String) {
        document.withLock { $0 = text }
    }

    public func statsDocument(now: Double) -> String {
        document.withLock { $0 }
    }
}
