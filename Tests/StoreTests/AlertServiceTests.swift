import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import Services
@testable import Store

/// The alerts of a running receiver as a service: what it is handed is delivered in order,
/// it ends when the receiver hands over no more, and a graceful shutdown cuts the retries.
@Suite("Alert service", .serialized)
struct AlertServiceTests {
    @Test("queued batches are delivered in order, and the service ends when the queue is finished")
    func deliversQueuedBatches() async throws {
        let server = ScriptedServer(statuses: [200])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, first) = try await AlertDispatcherTests.setUp(port: port)
        let second = try AlertDispatcherTests.another(first, after: 1, kind: .closestApproach, in: db)
        let service = AlertService(dispatcher: AlertDispatcher(database: db, retryDelays: [.milliseconds(10)]))
        service.queue.yield([first])
        service.queue.yield([second])
        service.queue.finish()
        try await service.run()
        let kinds = try server.bodies.map { try JSONDecoder().decode(WebhookPayload.self, from: Data($0.utf8)).event.kind }
        #expect(kinds == [.firstSeen, .closestApproach])
        #expect(try await db.deliveryLog.deliveries().allSatisfy(\.success))
    }

    @Test("a graceful shutdown stops the retries of the delivery in progress; the alert is left for the next start")
    func shutdownCutsRetries() async throws {
        let server = ScriptedServer(statuses: [500])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, event) = try await AlertDispatcherTests.setUp(port: port)
        let service = AlertService(dispatcher: AlertDispatcher(database: db, retryDelays: [.seconds(90), .seconds(90)]))
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        service.queue.yield([event])
        // The first attempt answered and logged: the dispatcher now waits 90 s for the next.
        for _ in 0..<500 where try await db.deliveryLog.deliveries().isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.bodies.count == 1, "the first attempt")
        let asked = ContinuousClock.now
        await group.triggerGracefulShutdown()
        try await running.value
        // Well before the next try (a loaded machine may take seconds to schedule the shutdown).
        #expect(ContinuousClock.now - asked < .seconds(45), "not the 90 s until the next try")
        #expect(try await db.deliveryLog.deliveries().map(\.attempt) == [1], "one failed attempt logged (the next start recovers it: AlertDispatcherTests)")
    }
}
