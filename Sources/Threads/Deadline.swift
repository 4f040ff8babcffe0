/// Runs `operation` for at most `limit`: its result, or nil when the time ran out first (the
/// operation is then cancelled; one that does not notice cancellation ends in its own time,
/// unawaited). The one time limit of the project's async calls: a store's statements
/// (`PostgresStore`), the receiver's aircraft-database lookups.
public func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
