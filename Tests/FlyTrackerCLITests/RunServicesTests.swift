import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tracking
import Web
@testable import FlyTrackerCLI

/// `run` as one service group: the web server serves while the receiver runs, both end when
/// the receiver does, and a port in use ends the run before the receiver starts.
@Suite("run: its services", .serialized)
struct RunServicesTests {
    /// A port nothing listens on now (bound once by a server that then stopped).
    static func freePort() async throws -> Int {
        let server = WebServer()
        let port = try await server.start(sources: WebSources.recording(SnapshotPublisher(), stats: PublishedStats(), receiver: ReceiverInfo(version: "t")),
                                          configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        await server.stop()
        return port
    }

    static func get(_ url: String) async -> Int? {
        guard let (_, response) = try? await URLSession.shared.data(from: URL(string: url)!) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    @Test("the web server answers while the simulated receiver runs; when the receiver ends, the group stops the server and run returns")
    func webServesWhileReceiverRuns() async throws {
        let port = try await Self.freePort()
        var run = try RunCommand.parse(["--simulate", "--sim-duration", "6", "--sim-aircraft", "5", "--no-db",
                                        "--http-port", "\(port)", "--net-bind-address", "127.0.0.1", "--quiet"])
        let running = Task { try await run.run() }
        var answered: Int?
        for _ in 0..<200 where answered != 200 {
            answered = await Self.get("http://127.0.0.1:\(port)/data/aircraft.json")
            if answered != 200 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered == 200, "the page's data while the receiver runs")
        try await running.value
        #expect(await Self.get("http://127.0.0.1:\(port)/data/aircraft.json") == nil, "the server stopped with the run")
    }

    @Test("a web port in use ends the run with exit 1 before the receiver writes anything")
    func portInUse() async throws {
        let taken = WebServer()
        let port = try await taken.start(sources: WebSources.recording(SnapshotPublisher(), stats: PublishedStats(), receiver: ReceiverInfo(version: "t")),
                                         configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-port-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: json) }
        var run = try RunCommand.parse(["--simulate", "--sim-fast", "--sim-duration", "30", "--no-db", "--json-dir", json,
                                        "--http-port", "\(port)", "--net-bind-address", "127.0.0.1", "--quiet"])
        let started = ContinuousClock.now
        await #expect(throws: ExitCode(1)) { try await run.run() }
        #expect(ContinuousClock.now - started < .seconds(20), "no 30-second simulation ran first")
        #expect(!FileManager.default.fileExists(atPath: json + "/aircraft.json"), "the receiver never started")
        await taken.stop()
    }
}
