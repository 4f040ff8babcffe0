import Foundation
import PostgresStore

/// `run --db postgres://…` at start: a receiver should not give up because its database
/// is not up yet (both started at boot, or the server restarting). Each failed attempt is
/// reported with the server's reason and the wait before the next (2 s doubling to 30 s).
enum PostgresStartup {
    /// The opened store (buffered writes), or nil when `shouldStop` said so first.
    static func open(_ url: PostgresURL, attemptTimeout: Duration = .seconds(5), firstDelay: Double = 2,
                     shouldStop: () -> Bool, report: (String) -> Void) async -> PostgresStore? {
        var delay = firstDelay
        while !shouldStop() {
            do {
                return try await PostgresStore.open(url, timeout: attemptTimeout, bufferedWrites: true)
            } catch {
                report("\(error); retrying in \(delay < 10 ? String(format: "%.1f", delay) : String(Int(delay))) s")
                let until = Date().addingTimeInterval(delay)
                while Date() < until {
                    if shouldStop() { return nil }
                    try? await Task.sleep(for: .milliseconds(50))
                }
                delay = min(delay * 2, 30)
            }
        }
        return nil
    }
}
