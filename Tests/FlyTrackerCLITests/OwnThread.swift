import Foundation

/// Runs blocking work (a whole `flytracker run` of several seconds) on a thread of its own
/// and waits for it without holding one of Swift concurrency's cooperative threads: on a
/// 2-core machine there are two, and the suite's web servers answer their requests on them.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
