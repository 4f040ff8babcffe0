import Store

/// The sighting log on PostgreSQL: the batch written by `SightingLogRepository.write` (one
/// transaction of statements on natural keys, the same as SQLite's), at once or, with
/// buffered writes, from the queue (`SightingQueue`) that outlasts the server's absence.
extension PostgresStore {
    /// Writes `batch` now (or, with buffered writes, queues it and returns at once: the
    /// events then come back without ids).
    public func write(_ batch: SightingBatch) async throws -> SightingWriteResult {
        guard !batch.isEmpty else { return SightingWriteResult() }
        if enqueue(batch) { return SightingWriteResult(events: batch.events.map(\.1)) }
        return try await writeNow(batch)
    }

    /// The seam for the sighting log's writes: unlike `sql`, it tries while the server is
    /// known to be away, for the queue's drain is what notices that it is back.
    var writerSQL: any SQLDatabase {
        PostgresSQLDatabase(client: client, logger: logger, timeout: timeout, isAway: { false }, url: url)
    }

    /// One transaction, at most `timeout`.
    func writeNow(_ batch: SightingBatch) async throws -> SightingWriteResult {
        do {
            return try await withTimeout { try await SightingLogRepository(self.writerSQL).write(batch) }
        } catch {
            throw Self.reason(error)
        }
    }
}
