import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import NIOSSL
import Store
import Synchronization
import Testing
@testable import Web

/// The real server on loopback against idle and slow connections, on a chosen address,
/// and over HTTPS.
@Suite("Web: live limits", .serialized)
struct LiveLimitsTests {
    /// A client connection from `localAddress`. Awaited, never waited for: the server's
    /// accepting runs on Swift's shared pool, which a blocked test thread would starve.
    static func open(_ group: EventLoopGroup, host: String = "127.0.0.1", port: Int, from localAddress: String) async throws -> Channel {
        try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .bind(to: try SocketAddress(ipAddress: localAddress, port: 0))
            .connect(host: host, port: port).get()
    }

    static func aircraftJSON(port: Int) async throws -> (HTTPResponse.Status, Duration) {
        let start = ContinuousClock.now
        let status = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(TestClient.Request("/data/aircraft.json", method: .get)).head.status
        }
        return (status, ContinuousClock.now - start)
    }

    /// Alone, the answer comes in a few milliseconds; the bound is under the head timeout, so
    /// an answer that had to wait for the idle sockets to time out fails it even on a machine
    /// loaded by the rest of the suite.
    @Test("2 000 idle sockets from one address leave aircraft.json answering at once; slow headers are closed")
    func idleSockets() async throws {
        let server = WebServer()
        let limits = WebLimits(maxConnections: 256, maxConnectionsPerAddress: 32, requestHeadTimeout: 6, requestTimeout: 10)
        let port = try await server.start(sources: try Sky.sources(),
                                          configuration: WebConfiguration(host: "127.0.0.1", port: 0, limits: limits))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var idle: [Channel] = []
        for _ in 0..<2000 { if let c = try? await Self.open(group, port: port, from: "127.0.0.2") { idle.append(c) } }
        // A slowloris: a request head one byte at a time, never finished.
        let slow = try await Self.open(group, port: port, from: "127.0.0.3")
        try await slow.writeAndFlush(ByteBuffer(string: "GET /data/aircraft.json HTTP/1.1\r\nHost: x\r\n")).get()
        let (status, took) = try await Self.aircraftJSON(port: port)
        #expect(status == .ok)
        #expect(took < .seconds(3), "took \(took)")
        // The server closes what is over the per-address bound; the client side learns of
        // each close a moment later, so it is polled (well inside the head timeout).
        for _ in 0..<30 where idle.filter({ $0.isActive }).count > limits.maxConnectionsPerAddress { try await Task.sleep(for: .milliseconds(100)) }
        #expect(idle.filter { $0.isActive }.count <= limits.maxConnectionsPerAddress)
        // After the head timeout every idle socket, and the slow one, has been closed.
        for _ in 0..<150 where idle.contains(where: { $0.isActive }) || slow.isActive { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!idle.contains { $0.isActive })
        #expect(!slow.isActive)
        #expect(try await Self.aircraftJSON(port: port).0 == .ok)
        await server.stop()
        try await group.shutdownGracefully()
    }

    @Test("A request whose body never finishes is closed after the request timeout; a finished one is answered")
    func slowBody() async throws {
        let server = WebServer()
        let limits = WebLimits(requestHeadTimeout: 30, requestTimeout: 2)
        let port = try await server.start(sources: try Sky.sources(),
                                          configuration: WebConfiguration(host: "127.0.0.1", port: 0, limits: limits))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // A head that promises 100 bytes of body, then 10 of them, then nothing.
        let slow = try await Self.open(group, port: port, from: "127.0.0.4")
        try await slow.writeAndFlush(ByteBuffer(string: "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"username\"")).get()
        for _ in 0..<100 where slow.isActive { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!slow.isActive, "closed after the 2 s request timeout, long before the 30 s head timeout")
        #expect(try await Self.aircraftJSON(port: port).0 == .ok)
        await server.stop()
        try await group.shutdownGracefully()
    }

    @Test("The web server listens on the address it is given, not on every interface")
    func bindAddress() async throws {
        let server = WebServer()
        let port = try await server.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.2", port: 0))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let there = try? await Self.open(group, host: "127.0.0.2", port: port, from: "127.0.0.1")
        #expect(there != nil)
        let here = try? await Self.open(group, host: "127.0.0.1", port: port, from: "127.0.0.1")
        #expect(here == nil)
        _ = try? await there?.close().get()
        await server.stop()
        try await group.shutdownGracefully()
    }

    /// A self-signed certificate and key for 127.0.0.1, made with openssl.
    static func certificate() throws -> (directory: URL, files: WebTLSFiles) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                             "-days", "1", "-subj", "/CN=127.0.0.1"]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        return (dir, WebTLSFiles(certificatePath: cert, keyPath: key))
    }

    /// Collects a TLS connection's plaintext answer.
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let text = Mutex("")
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            text.withLock { $0 += String(buffer: buffer) }
        }
    }

    @Test("HTTPS with --https-cert and --https-key: the page and API answer over TLS, cookies are Secure")
    func https() async throws {
        let (dir, files) = try Self.certificate()
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try AppDatabase.inMemory()
        try await database.accounts.add(username: "alice", password: "correct horse", now: 0, cost: 4)
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: database, bcryptCost: 4)
        let server = WebServer()
        let port = try await server.start(sources: sources, configuration: WebConfiguration(host: "127.0.0.1", port: 0, tls: files))
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let context = try NIOSSLContext(configuration: tls)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let collector = Collector()
        let channel = try await ClientBootstrap(group: group).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                try channel.pipeline.syncOperations.addHandler(collector)
            }
        }.connect(host: "127.0.0.1", port: port).get()
        let body = #"{"username":"alice","password":"correct horse"}"#
        let request = "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        try await channel.writeAndFlush(ByteBuffer(string: request)).get()
        try await channel.closeFuture.get()
        let answer = collector.text.withLock { $0 }
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        let cookie = answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(cookie?.contains("Secure") == true)
        #expect(cookie?.contains("HttpOnly") == true)
        await server.stop()
        try await group.shutdownGracefully()
    }

    @Test("Unusable certificate files are one clear error")
    func badCertificate() async throws {
        let missing = WebTLSFiles(certificatePath: "/nonexistent/cert.pem", keyPath: "/nonexistent/key.pem")
        let error = await #expect(throws: WebServer.Error.self) {
            try await WebServer().start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0, tls: missing))
        }
        #expect(error.map { "\($0)" }?.hasPrefix("cannot use /nonexistent/cert.pem for HTTPS") == true)
    }
}
