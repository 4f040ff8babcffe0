import Foundation
import Testing
import ModeS
import NIOCore
import NIOPosix
import Synchronization
@testable import Feeds

@Suite(.serialized, .timeLimit(.minutes(1))) struct FeedInputTests {
    final class Received: Sendable {
        let frames = Mutex<[RemoteFrame]>([])
        var count: Int { frames.withLock { $0.count } }
    }

    func send(_ bytes: [UInt8], to port: Int, group: EventLoopGroup, chunk: Int = 7) throws {
        let channel = try FeedTest.connect(group, port: port, collector: ByteCollector())
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            try channel.writeAndFlush(ByteBuffer(bytes: bytes[offset..<end])).wait()
            offset = end
        }
        try channel.close().wait()
    }

    @Test func beastInputWithGarbageAndHalfFramesDeliversTheCheckedFrames() async throws {
        let received = Received()
        let hub = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [0, 0] }) { remote in
            received.frames.withLock { $0.append(remote) }
        }
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let ports = hub.boundPorts(.input(.beast))
        #expect(ports.count == 2)
        let frames = FeedTest.frames(count: 50)
        var stream: [UInt8] = [0x00, 0x1A, 0x1A, 0xFF]
        var rng = SystemRandomNumberGenerator()
        for (i, f) in frames.enumerated() {
            let bytes = BeastFrame(f).bytes
            if i % 5 == 0 {
                // A half frame before it (not cut between an escape and its double: that
                // would make the next frame's start byte read as data, as in any Beast reader).
                var cut = bytes.count / 2
                while bytes[cut - 1] == 0x1A { cut -= 1 }
                stream += bytes[..<cut]
            }
            stream += bytes
            if i % 7 == 0 { stream += (0..<13).map { _ in UInt8.random(in: 0...255, using: &rng) & 0xEF } }  // garbage, no 0x1A
        }
        // A squitter one bit off from an address never heard in the clear (the acceptance
        // rule refuses the correction) and an MLAT result: both rejected.
        let bad = try Frame(hex: "8DA05F219B06B6AF189400CBC33F").flipping(bit: 60)
        stream += BeastFrame.modeS(frame: bad, timestamp: 5, signal: 9).bytes
        stream += BeastFrame.modeS(frame: frames[0].frame, timestamp: BeastFrame.mlatTimestamp, signal: 9).bytes
        try send(stream, to: ports[1], group: group)
        #expect(FeedTest.wait { received.count == frames.count })
        let got = received.frames.withLock { $0 }
        #expect(got.map(\.received.frame) == frames.map(\.frame))
        #expect(got.map(\.received.timestamp) == frames.map(\.timestamp))
        #expect(got.allSatisfy { $0.source == .beast && $0.parity.outcome == .ok })
        #expect(hub.takeRemoteFrames().count == frames.count)
        #expect(hub.takeRemoteFrames().isEmpty)
        // The two rejected frames come last in the stream.
        #expect(FeedTest.wait { hub.statistics().remoteRejected == 2 })
        #expect(hub.statistics().remoteAccepted == frames.count)
    }

    @Test func avrInputAcceptsLinesAndSurvivesRandomBytes() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.avrInPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let port = try #require(hub.boundPorts(.input(.avr)).first)
        var rng = SystemRandomNumberGenerator()
        try send((0..<5000).map { _ in UInt8.random(in: 0...255, using: &rng) }, to: port, group: group, chunk: 333)
        let frames = FeedTest.frames(count: 20)
        let text = "\n" + frames.map { AVRLine.format($0) + "\r\n" }.joined() + "*8D4840D6202C"
        try send(Array(text.utf8), to: port, group: group, chunk: 5)
        #expect(FeedTest.wait { hub.statistics().remoteAccepted >= frames.count })
        let got = hub.takeRemoteFrames().filter { $0.received.timestamp >= 1_000_000 }
        #expect(got.map(\.received.frame) == frames.map(\.frame))
        #expect(got.allSatisfy { $0.source == .avr })
    }

    @Test func randomBytesOnEveryInputPortLeaveTheServerServing() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [0]; $0.avrInPorts = [0]; $0.beastOutPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        var rng = SystemRandomNumberGenerator()
        let ports = hub.boundPorts(.input(.beast)) + hub.boundPorts(.input(.avr)) + hub.boundPorts(.output(.beast))
        for _ in 0..<5 {
            for port in ports {
                let noise = (0..<4000).map { _ in Bool.random(using: &rng) ? 0x1A : UInt8.random(in: 0...255, using: &rng) }
                try send(noise, to: port, group: group, chunk: Int.random(in: 1...500, using: &rng))
            }
        }
        // Still accepting and decoding.
        let frame = FeedTest.frames(count: 1)[0]
        try send(BeastFrame(frame).bytes, to: ports[0], group: group)
        #expect(FeedTest.wait { hub.takeRemoteFrames().contains { $0.received.frame == frame.frame && $0.received.timestamp == frame.timestamp } })
    }

    @Test func beastOutConnectorFeedsAnotherHubAndReconnectsAfterItRestarts() async throws {
        let received = Received()
        let sink = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [0] })
        try await sink.start()
        let port = try #require(sink.boundPorts(.input(.beast)).first)
        let source = FeedHub(options: FeedTest.loopback {
            $0.connectors = [FeedConnectorSpec(host: "127.0.0.1", port: port, kind: .beastOut)]
            $0.reconnectInitialDelay = 0.05
            $0.reconnectMaximumDelay = 0.2
        })
        try await source.start()
        defer { source.stopAfterTest() }
        #expect(FeedTest.wait { source.statistics().clients[.beast] == 1 })
        let frames = FeedTest.frames(count: 10)
        for f in frames { source.publish(f) }
        #expect(FeedTest.wait { sink.statistics().remoteAccepted == frames.count })
        await sink.shutdown()
        #expect(FeedTest.wait { source.statistics().clients[.beast] == 0 })

        // The same port again: the connector finds it after its back-off.
        let again = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [port] }) { remote in
            received.frames.withLock { $0.append(remote) }
        }
        try await again.start()
        defer { again.stopAfterTest() }
        #expect(FeedTest.wait { source.statistics().clients[.beast] == 1 })
        for f in frames { source.publish(f) }
        #expect(FeedTest.wait { received.count == frames.count })
        #expect(source.statistics().connectorConnects >= 2)
    }

    @Test func rawInConnectorReadsFromARemoteAVROutput() async throws {
        let remote = FeedHub(options: FeedTest.loopback { $0.avrOutPorts = [0] })
        try await remote.start()
        defer { remote.stopAfterTest() }
        let port = try #require(remote.boundPorts(.output(.avr)).first)
        let local = FeedHub(options: FeedTest.loopback {
            $0.connectors = [FeedConnectorSpec(host: "127.0.0.1", port: port, kind: .rawIn)]
        })
        try await local.start()
        defer { local.stopAfterTest() }
        #expect(FeedTest.wait { remote.statistics().clients[.avr] == 1 })
        let frames = FeedTest.frames(count: 10)
        for f in frames { remote.publish(f) }
        #expect(FeedTest.wait { local.statistics().remoteAccepted == frames.count })
        #expect(local.takeRemoteFrames().map(\.received.frame) == frames.map(\.frame))
    }
}

@Suite struct FeedOptionsTests {
    @Test func connectorSpecsParse() {
        #expect(FeedConnectorSpec("feed.example.net:30004:beast_out") == FeedConnectorSpec(host: "feed.example.net", port: 30004, kind: .beastOut))
        #expect(FeedConnectorSpec("[::1]:30005:beast_in") == FeedConnectorSpec(host: "::1", port: 30005, kind: .beastIn))
        #expect(FeedConnectorSpec("10.0.0.2:30002:raw_in")?.kind == .rawIn)
        #expect(FeedConnectorSpec("10.0.0.2:30003:sbs_out")?.description == "10.0.0.2:30003:sbs_out")
        #expect(FeedConnectorSpec("host:30005:beast") == nil)
        #expect(FeedConnectorSpec("host:0:beast_in") == nil)
        #expect(FeedConnectorSpec(":30005:beast_in") == nil)
        #expect(FeedConnectorSpec("host:beast_in") == nil)
    }

    @Test func portListsParseAndZeroDisables() {
        #expect(FeedOptions.ports("30004,30104") == [30004, 30104])
        #expect(FeedOptions.ports("0") == [])
        #expect(FeedOptions.ports("") == [])
        #expect(FeedOptions.ports("70000") == nil)
        #expect(FeedOptions.ports("abc") == nil)
    }

    @Test func standardPortsAreTheEcosystemDefaults() {
        let o = FeedOptions.standard
        #expect(o.beastOutPorts == [30005] && o.avrOutPorts == [30002] && o.sbsOutPorts == [30003])
        #expect(o.beastInPorts == [30004, 30104] && o.avrInPorts == [30001])
    }
}

@Suite struct FeedCommandLineTests {
    @Test func netTurnsOnTheStandardPortsAndEachPortOptionReplacesItsOwn() throws {
        let o = try FeedOptions.commandLine(net: true, sbsOutPorts: "0", beastInPorts: "30004")
        #expect(o.beastOutPorts == [30005] && o.avrOutPorts == [30002] && o.sbsOutPorts.isEmpty)
        #expect(o.beastInPorts == [30004] && o.avrInPorts == [30001])
    }

    @Test func withoutNetNothingOpensUnlessAsked() throws {
        #expect(try FeedOptions.commandLine(net: false).isEmpty)
        let o = try FeedOptions.commandLine(net: false, connectors: ["example.org:30004:beast_out"])
        #expect(o.connectors.count == 1 && o.beastOutPorts.isEmpty)
    }

    @Test func badValuesAreOneLineErrorsNamingTheOption() {
        #expect(throws: FeedOptionError.self) { try FeedOptions.commandLine(net: true, avrOutPorts: "x") }
        do {
            _ = try FeedOptions.commandLine(net: true, connectors: ["nohost"])
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("--net-connector: 'nohost'"))
        }
    }
}
