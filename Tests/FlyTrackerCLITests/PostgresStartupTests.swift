import Foundation
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing
import Threads
@testable import FlyTrackerCLI

/// `run --db postgres://…` when the database is not there at start.
@Suite struct PostgresStartupTests {
    @Test func anUnreachableDatabaseIsReportedWithItsReasonAndRetriedWithBackOffUntilStopped() async throws {
        let port = try PostgresTestServer.freePort()
        let url = PostgresURL(host: "127.0.0.1", port: port, username: "flytracker", database: "aggregator", tls: .disable)
        let reports = Mutex<[String]>([])
        // On a thread of its own, and timed there, as `run` starts with the cooperative
        // threads idle: the suite keeps them busy, and this test times the back-off, not the
        // machine's load.
        let (store, elapsed) = await withTaskExecutorPreference(ThreadExecutor(name: "test.startup")) {
            let started = ContinuousClock.now
            let store = await PostgresStartup.open(url, attemptTimeout: .seconds(2), firstDelay: 0.2,
                                                   shouldStop: { reports.withLock { $0.count } >= 3 },
                                                   report: { line in reports.withLock { $0.append(line) } })
            return (store, ContinuousClock.now - started)
        }
        #expect(store == nil, "nothing to open; stopped")
        let lines = reports.withLock { $0 }
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("cannot use PostgreSQL at postgres://flytracker@127.0.0.1:\(port)/aggregator:") })
        #expect(lines.map { $0.components(separatedBy: "retrying in ").last ?? "" } == ["0.2 s", "0.4 s", "0.8 s"], "back-off doubles")
        #expect(elapsed < .seconds(20))
    }
}
