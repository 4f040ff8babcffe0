import Synchronization

/// Hands the table's latest snapshot from the decoder's task to any number of readers.
/// The decoder calls `publish` (about once a second); readers call `current` and get an
/// immutable value that no later write can change. One lock held for a pointer swap.
public final class SnapshotPublisher: Sendable {
    private let latest: Mutex<TableSnapshot>

    public init(_ initial: TableSnapshot = .empty) {
        latest = Mutex(initial)
    }

    public func publish(_ snapshot: TableSnapshot) {
        latest.withLock { $0 = snapshot }
    }

    public var current: TableSnapshot {
        latest.withLock { $0 }
    }
}
