import Foundation
import Store
import Threads

/// Sighting batches waiting for PostgreSQL (`PostgresStore.open(…, bufferedWrites: true)`):
/// the receiver never waits for the database, and a database that goes away mid-run loses
/// nothing until `limit` rows are queued; beyond it the oldest batches are dropped (counted,
/// and said once). One drain task writes the batches in order, retrying a failed one with
/// back-off (1 s doubling to 30 s) until it is written.
public struct SightingQueue: Sendable {
    /// Rows kept at most by default: about two hours of a busy aggregator's log.
    public static let defaultLimit = 2_000_000

    public let limit: Int
    var batches: [(sequence: Int, batch: SightingBatch)] = []
    var nextSequence = 0
    public internal(set) var rows = 0
    public internal(set) var droppedRows = 0
    /// Batches waiting.
    public var batchCount: Int { batches.count }
    var draining = false
    /// The last write failed (the database is away).
    public internal(set) var failing = false

    init(limit: Int) {
        self.limit = max(limit, 1)
    }
}

/// What the queue tells an operator (`PostgresStore.onQueueEvent`).
public enum SightingQueueEvent: Sendable, Equatable, CustomStringConvertible {
    case unavailable(reason: String, queuedRows: Int, limit: Int)
    case recovered(writtenRows: Int)
    case dropped(rows: Int, limit: Int)
    /// The server refused a batch (not for being away): it is dropped, the rest go on.
    case refused(reason: String, rows: Int)

    public var description: String {
        switch self {
        case .unavailable(let reason, let queued, let limit):
            "PostgreSQL is unavailable (\(reason)); sightings are kept in memory and written when it answers (\(queued) rows queued, at most \(limit))"
        case .recovered(let rows): "PostgreSQL answers again: \(rows) queued rows written"
        case .dropped(let rows, let limit): "the PostgreSQL queue is full (\(limit) rows): the oldest \(rows) rows were dropped"
        case .refused(let reason, let rows): "PostgreSQL refused \(rows) rows of the sighting log (\(reason)); they are dropped"
        }
    }
}

extension PostgresStore {
    /// Queues `batch` when writes are buffered; false when they are not.
    func enqueue(_ batch: SightingBatch) -> Bool {
        let (buffered, start, dropped, limit) = queue.withLock { q -> (Bool, Bool, Int, Int) in
            guard var current = q else { return (false, false, 0, 0) }
            current.batches.append((current.nextSequence, batch))
            current.nextSequence += 1
            current.rows += batch.rowCount
            var dropped = 0
            while current.rows > current.limit, current.batches.count > 1 {
                let gone = current.batches.removeFirst()
                current.rows -= gone.batch.rowCount
                dropped += gone.batch.rowCount
            }
            current.droppedRows += dropped
            let start = !current.draining
            current.draining = true
            q = current
            return (true, start, dropped, current.limit)
        }
        if dropped > 0 { onQueueEvent.withLock { $0 }?(.dropped(rows: dropped, limit: limit)) }
        if start { Task(executorPreference: executor) { await self.drain() } }
        return buffered
    }

    /// Writes queued batches in order until none is left.
    func drain() async {
        var delay = 1.0
        var writtenSinceFailure = 0
        while true {
            let next = queue.withLock { q -> (Int, SightingBatch)? in
                guard let first = q?.batches.first else { q?.draining = false; return nil }
                return (first.sequence, first.batch)
            }
            guard let (sequence, batch) = next else { return }
            do {
                _ = try await withTimeout { try await self.writeNow(batch) }
                let recovered = queue.withLock { q -> Bool in
                    if q?.batches.first?.sequence == sequence {
                        q?.batches.removeFirst()
                        q?.rows -= batch.rowCount
                    }
                    defer { q?.failing = false }
                    return q?.failing ?? false
                }
                writtenSinceFailure += batch.rowCount
                if recovered {
                    onQueueEvent.withLock { $0 }?(.recovered(writtenRows: writtenSinceFailure))
                }
                delay = 1
            } catch where !Self.isUnavailable(error) {
                // A statement the server refuses will be refused again: drop it, go on.
                queue.withLock { q in
                    if q?.batches.first?.sequence == sequence {
                        q?.batches.removeFirst()
                        q?.rows -= batch.rowCount
                        q?.droppedRows += batch.rowCount
                    }
                }
                onQueueEvent.withLock { $0 }?(.refused(reason: Self.describe(error), rows: batch.rowCount))
            } catch {
                let (first, queued, limit) = queue.withLock { q -> (Bool, Int, Int) in
                    defer { q?.failing = true }
                    return (!(q?.failing ?? true), q?.rows ?? 0, q?.limit ?? 0)
                }
                if first {
                    writtenSinceFailure = 0
                    onQueueEvent.withLock { $0 }?(.unavailable(reason: Self.describe(error), queuedRows: queued, limit: limit))
                }
                try? await Task.sleep(for: .seconds(delay))
                delay = min(delay * 2, 30)
            }
        }
    }

    /// Waits (at most `limit`, default this store's `timeout`) until the queue is written.
    /// True when it is empty. After an outage the drain retries with back-off (up to 30 s
    /// between tries), so a caller that must see the queue drained waits longer than that.
    @discardableResult
    public func flush(within limit: Duration? = nil) async -> Bool {
        let deadline = ContinuousClock.now + (limit ?? timeout)
        while ContinuousClock.now < deadline {
            if queue.withLock({ $0 == nil || $0!.batches.isEmpty }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return queue.withLock { $0 == nil || $0!.batches.isEmpty }
    }

    /// The queue's state (nil without buffered writes).
    public var queueState: SightingQueue? { queue.withLock { $0 } }

    /// Runs `operation`, failing after `limit` (default: this store's `timeout`).
    func withTimeout<T: Sendable>(_ limit: Duration? = nil, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Self.withTimeout(limit ?? timeout, operation)
    }

    /// Runs `operation`, failing with "no answer within N s" when it takes longer than `limit`
    /// (the operation is cancelled then).
    static func withTimeout<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let result = try await withDeadline(limit, operation) else {
            throw StoreError(description: "no answer within \(limit.components.seconds) s")
        }
        return result
    }
}
