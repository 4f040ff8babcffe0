import Foundation
import Testing
import ModeS
import NIOCore
import NIOPosix
@testable import Feeds

/// The frames of the real recording modes1.bin (as dump1090 found them) through the feeds.
@Suite(.serialized, .timeLimit(.minutes(1))) struct FeedRecordingTests {
    static func recording() throws -> [ReceivedFrame] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Samples/modes1-frames.avr"), encoding: .utf8)
        return try text.split(separator: "\n").compactMap { try AVRLine.parse($0) }
    }

    @Test func replayedRecordingReachesBeastAndSBSClientsExactly() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0]; $0.sbsOutPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let beast = [ByteCollector(), ByteCollector()], sbs = [ByteCollector(), ByteCollector()]
        var channels: [Channel] = []
        for c in beast { channels.append(try FeedTest.connect(group, port: hub.boundPorts(.output(.beast))[0], collector: c)) }
        for c in sbs { channels.append(try FeedTest.connect(group, port: hub.boundPorts(.output(.sbs))[0], collector: c)) }
        #expect(FeedTest.wait { let s = hub.statistics(); return s.clients[.beast] == 2 && s.clients[.sbs] == 2 })

        var filter = AddressFilter()
        var accepted: [ReceivedFrame] = []
        var lines = ""
        for received in try Self.recording() {
            let time = received.seconds ?? 0
            guard let parity = filter.accept(received.frame, at: time) else { continue }
            let message = ModeSMessage(parity)
            let sent = ReceivedFrame(frame: parity.frame, timestamp: received.timestamp, signal: -20)
            hub.publish(sent, message: message, at: 1_700_000_000 + time)
            accepted.append(sent)
            let t = SBSTime(unixTime: 1_700_000_000 + time)
            lines += SBSLine.format(message, generated: t, logged: t) ?? ""
        }
        #expect(accepted.count > 250)
        #expect(lines.utf8.count > 0)
        #expect(FeedTest.wait { sbs.allSatisfy { $0.count >= lines.utf8.count } })
        for c in beast {
            #expect(FeedTest.wait { var d = BeastDecoder(); return d.decode(c.snapshot).count == accepted.count })
            var decoder = BeastDecoder()
            let got = decoder.decode(c.snapshot).compactMap(\.received)
            #expect(got.map(\.frame) == accepted.map(\.frame))
            #expect(got.map(\.timestamp) == accepted.map(\.timestamp))
            #expect(got.allSatisfy { BeastFrame.signalByte(dBFS: $0.signal) == BeastFrame.signalByte(dBFS: -20) })
        }
        for c in sbs { #expect(String(decoding: c.snapshot, as: UTF8.self) == lines) }
        for ch in channels { try? await ch.close().get() }
    }

    @Test func recordingSentToTheAVRInputIsAcceptedAsTheReceiverWouldAcceptIt() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.avrInPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let frames = try Self.recording()
        var filter = AddressFilter()
        let expected = frames.filter { filter.accept($0.frame, at: $0.seconds ?? 0) != nil }
        let channel = try FeedTest.connect(group, port: hub.boundPorts(.input(.avr))[0], collector: ByteCollector())
        let text = frames.map { AVRLine.format($0) + "\n" }.joined()
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
        #expect(FeedTest.wait { hub.statistics().remoteFrames == frames.count })
        let got = hub.takeRemoteFrames()
        #expect(got.map(\.received.timestamp) == expected.map(\.timestamp))
        #expect(got.allSatisfy { $0.source == .avr })
        try await channel.close().get()
    }

    @Test func idleOutputsSendHeartbeats() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0]; $0.avrOutPorts = [0]; $0.heartbeatInterval = 0.1 })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let beast = ByteCollector(), avr = ByteCollector()
        let a = try FeedTest.connect(group, port: hub.boundPorts(.output(.beast))[0], collector: beast)
        let b = try FeedTest.connect(group, port: hub.boundPorts(.output(.avr))[0], collector: avr)
        #expect(FeedTest.wait { beast.count >= 11 && avr.count >= 7 })
        var decoder = BeastDecoder()
        #expect(decoder.decode(beast.snapshot).first == BeastFrame.heartbeat)
        #expect(String(decoding: avr.snapshot, as: UTF8.self).hasPrefix("*0000;\n"))
        try await a.close().get()
        try await b.close().get()
    }
}
