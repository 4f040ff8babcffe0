import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing
import Tracking
@testable import Web

/// The real server on loopback.
@Suite("Web: live server")
struct LiveServerTests {
    /// A 60 s read timeout (the test client's default is 15 s): under the whole suite's load on
    /// two cores a first byte can take that long, which is the machine, not the server.
    static func get(_ path: String, port: Int) async throws -> TestClient.Response {
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))) { client in
            try await client.execute(TestClient.Request(path, method: .get))
        }
    }

    /// Alone this takes about half a second; inside the full suite on a 2-core machine (the
    /// demodulator's sweeps, PostgreSQL servers and hundreds of tests at once) it took 11–16 s,
    /// which is the machine's load, not the server's. The bound still fails a server that
    /// serialised its clients behind something slow.
    @Test("200 concurrent clients all get a complete aircraft.json, well within 60 s")
    func concurrentClients() async throws {
        let app = try Sky.app()
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let start = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, Int).self) { group in
                for i in 0..<200 {
                    let path = ["/data/aircraft.json", "/api/aircraft?type=B73*", "/api/aircraft/4840d6", "/", "/api/aircraft?squawk=9"][i % 5]
                    group.addTask {
                        let response = try await Self.get(path, port: port)
                        return (response.head.status, response.body?.readableBytes ?? 0)
                    }
                }
                var all: [(HTTPResponse.Status, Int)] = []
                for try await s in group { all.append(s) }
                return all
            }
            #expect(statuses.count == 200)
            #expect(statuses.filter { $0.0 == .ok }.count == 160)
            #expect(statuses.filter { $0.0 == .badRequest }.count == 40)
            #expect(statuses.allSatisfy { $0.1 > 0 })
            #expect(ContinuousClock.now - start < .seconds(60))
            // Still serving.
            let after = try await Self.get("/data/receiver.json", port: port)
            #expect(after.head.status == .ok)
        }
    }

    @Test("WebServer: start binds (port 0 → a real port), serves, stop ends it")
    func webServer() async throws {
        let server = WebServer()
        let port = try await server.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        #expect(port > 0)
        #expect(server.isRunning)
        let response = try await Self.get("/data/aircraft.json", port: port)
        #expect(response.head.status == .ok)
        await #expect(throws: WebServer.Error.self) {
            try await server.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        }
        await server.stop()
        #expect(!server.isRunning)
        // Nothing serves aircraft.json there any more. (Another test may have bound the freed
        // port meanwhile, a feed port that reads but never answers: look for 3 s, then leave
        // the request behind.)
        let served = Mutex<Bool?>(nil)
        let request = Task {
            let ok = (try? await Self.get("/data/aircraft.json", port: port))?.head.status == .ok
            served.withLock { $0 = ok }
        }
        for _ in 0..<60 where served.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(50)) }
        request.cancel()
        let answer = served.withLock { $0 }
        #expect(answer != true)
    }

    @Test("WebServer: a port already in use is a clear error")
    func portInUse() async throws {
        let first = WebServer()
        let port = try await first.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        let second = WebServer()
        await #expect(throws: WebServer.Error.self) {
            try await second.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: port))
        }
        #expect(!second.isRunning)
        await first.stop()
    }
}

/// The web server as a service of a larger group, as `flytracker run` runs it.
@Suite("Web: as a service")
struct WebServiceTests {
    @Test("WebService tells the port it bound, serves PublishedStats' latest document, and ends with the group's graceful shutdown")
    func servesAndStops() async throws {
        let stats = PublishedStats()
        var sources = try Sky.sources()
        sources.stats = stats
        let (bound, continuation) = AsyncStream.makeStream(of: Int?.self)
        let service = try WebService(sources: sources, configuration: WebConfiguration(host: "127.0.0.1", port: 0)) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        var iterator = bound.makeAsyncIterator()
        let port = try #require(await iterator.next() ?? nil)
        stats.publish(#"{"total":{"messages":7}}"#)
        let response = try await LiveServerTests.get("/data/stats.json", port: port)
        #expect(response.head.status == .ok)
        #expect(response.body.map { String(buffer: $0) } == #"{"total":{"messages":7}}"#)
        await group.triggerGracefulShutdown()
        try await running.value
        await #expect(throws: (any Error).self) { try await LiveServerTests.get("/data/stats.json", port: port) }
    }

    @Test("A port already taken: WebService says so (nil) and the group fails with cannotListen")
    func portTaken() async throws {
        let first = WebServer()
        let port = try await first.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        defer { Task { await first.stop() } }
        let (bound, continuation) = AsyncStream.makeStream(of: Int?.self)
        let service = try WebService(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: port)) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        await #expect { try await group.run() } throws: { error in
            guard case WebServer.Error.cannotListen(_, let p, _) = error else { return false }
            return p == port
        }
        var iterator = bound.makeAsyncIterator()
        #expect(await iterator.next() == .some(nil))
    }
}
