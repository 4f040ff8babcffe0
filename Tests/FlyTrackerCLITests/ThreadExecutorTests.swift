import Foundation
import Testing
import Threads

@Suite("A thread of its own for synchronous work")
struct ThreadExecutorTests {
    @Test("ThreadExecutor.run gives each work a thread of its own: more blocking works at once than the cooperative pool has threads all run together; results and errors come back")
    func blockingWorkRunsOffTheCooperativePool() async throws {
        // Each work waits (up to 10 s) until all have started. On the cooperative pool (as many
        // threads as cores) the last ones could not start until the first gave up.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let started = NSCondition()
        nonisolated(unsafe) var running = 0
        let allTogether = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<count {
                group.addTask {
                    try await ThreadExecutor.run(name: "test.blocking.\(i)") {
                        started.lock()
                        defer { started.unlock() }
                        running += 1
                        started.broadcast()
                        let deadline = Date(timeIntervalSinceNow: 10)
                        while running < count { if !started.wait(until: deadline) { return false } }
                        return true
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allTogether, "\(count) blocking works ran at once")
        #expect(try await ThreadExecutor.run(name: "test.value") { 6 * 7 } == 42)
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await ThreadExecutor.run(name: "test.failing") { () throws -> Int in throw Failure() } }
    }
}
