import Foundation
import Testing
import ModeS
import NIOCore
import NIOPosix
import Synchronization
@testable import Feeds

@Suite(.serialized, .timeLimit(.minutes(1))) struct FeedServerTests {
    @Test func beastSBSAndAVRClientsEachReceiveExactlyThePublishedFrames() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0]; $0.sbsOutPorts = [0]; $0.avrOutPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { clients.shutdownGracefully { _ in } }
        let beastPort = try #require(hub.boundPorts(.output(.beast)).first)
        let sbsPort = try #require(hub.boundPorts(.output(.sbs)).first)
        let avrPort = try #require(hub.boundPorts(.output(.avr)).first)
        let beast = (0..<3).map { _ in ByteCollector() }
        let sbs = (0..<2).map { _ in ByteCollector() }
        let avr = ByteCollector()
        var channels: [Channel] = []
        for c in beast { channels.append(try FeedTest.connect(clients, port: beastPort, collector: c)) }
        for c in sbs { channels.append(try FeedTest.connect(clients, port: sbsPort, collector: c)) }
        channels.append(try FeedTest.connect(clients, port: avrPort, collector: avr))
        #expect(FeedTest.wait { let s = hub.statistics(); return s.clients[.beast] == 3 && s.clients[.sbs] == 2 && s.clients[.avr] == 1 })

        let frames = FeedTest.frames(count: 400)
        let time = 1_700_000_000.25
        var expectedSBS = ""
        var expectedBeast: [UInt8] = []
        for f in frames {
            let message = try #require(ModeSMessage.decode(f.frame))
            hub.publish(f, message: message, at: time)
            BeastFrame(f).encode(into: &expectedBeast)
            let t = SBSTime(unixTime: time)
            expectedSBS += SBSLine.format(message, generated: t, logged: t) ?? ""
        }
        // AVR lines are `*HEX;` as readsb and dump1090-fa send them (timestamps on request).
        let avrText = frames.map { AVRLine.format($0, timestamps: false) + "\n" }.joined()
        #expect(FeedTest.wait {
            beast.allSatisfy { $0.count >= expectedBeast.count } && sbs.allSatisfy { $0.count >= expectedSBS.utf8.count }
                && avr.count >= avrText.utf8.count
        })
        for c in beast {
            var decoder = BeastDecoder()
            let got = decoder.decode(c.snapshot).compactMap(\.received)
            #expect(got.map(\.frame) == frames.map(\.frame))
            #expect(got.map(\.timestamp) == frames.map(\.timestamp))
            #expect(c.snapshot == expectedBeast)
        }
        for c in sbs {
            let text = String(decoding: c.snapshot, as: UTF8.self)
            #expect(text == expectedSBS)
            #expect(text.split(separator: "\r\n").allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 22 })
        }
        #expect(String(decoding: avr.snapshot, as: UTF8.self) == avrText)
        var parser = AVRStreamParser()
        #expect(parser.decode(avr.snapshot).map(\.frame) == frames.map(\.frame))
        for ch in channels { try? await ch.close().get() }
        #expect(FeedTest.wait { hub.statistics().clients.values.allSatisfy { $0 == 0 } })
    }

    @Test func avrOutputCarriesTimestampsOnlyWhenAskedFor() async throws {
        for stamped in [false, true] {
            let hub = FeedHub(options: FeedTest.loopback { $0.avrOutPorts = [0]; $0.avrTimestamps = stamped })
            try await hub.start()
            defer { hub.stopAfterTest() }
            let clients = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            defer { clients.shutdownGracefully { _ in } }
            let avr = ByteCollector()
            let channel = try FeedTest.connect(clients, port: try #require(hub.boundPorts(.output(.avr)).first), collector: avr)
            #expect(FeedTest.wait { hub.statistics().clients[.avr] == 1 })
            let frames = FeedTest.frames(count: 3)
            for f in frames { hub.publish(f) }
            #expect(FeedTest.wait { String(decoding: avr.snapshot, as: UTF8.self).split(separator: "\n").count == 3 })
            let lines = String(decoding: avr.snapshot, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines == frames.map { AVRLine.format($0, timestamps: stamped) })
            #expect(lines.allSatisfy { $0.hasPrefix(stamped ? "@" : "*") })
            try await channel.close().get()
        }
    }

    @Test func aClientThatNeverReadsIsDroppedWhileOthersReceiveEverything() async throws {
        let hub = FeedHub(options: FeedTest.loopback {
            $0.beastOutPorts = [0]; $0.maxPendingBytes = 64 * 1024; $0.socketSendBuffer = 4096
        })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { clients.shutdownGracefully { _ in } }
        let port = try #require(hub.boundPorts(.output(.beast)).first)
        let good = ByteCollector(), stalled = ByteCollector()
        let goodChannel = try FeedTest.connect(clients, port: port, collector: good)
        let stalledChannel = try FeedTest.connect(clients, port: port, collector: stalled, autoRead: false, receiveBuffer: 4096)
        #expect(FeedTest.wait { hub.statistics().clients[.beast] == 2 })

        var sent: [UInt8] = []
        var published = 0
        let start = ContinuousClock.now
        var slowestCall = Duration.zero
        // Bounded: at most 200 000 frames (≈ 4.6 MB), in paced bursts so the reading client keeps up.
        while hub.statistics().clientsDropped == 0 && published < 200_000 {
            for f in FeedTest.frames(count: 500) {
                let before = ContinuousClock.now
                hub.publish(f)
                slowestCall = max(slowestCall, ContinuousClock.now - before)
                BeastFrame(f).encode(into: &sent)
                published += 1
            }
            _ = FeedTest.wait(seconds: 2) { good.count >= sent.count }
        }
        #expect(hub.statistics().clientsDropped == 1)
        #expect(FeedTest.wait { hub.statistics().clients[.beast] == 1 })
        #expect(FeedTest.wait { good.count >= sent.count })
        #expect(good.snapshot == sent)
        #expect(stalled.count < sent.count)
        #expect(slowestCall < .milliseconds(50), "publish must not block: slowest call \(slowestCall)")
        #expect(ContinuousClock.now - start < .seconds(8))
        // The server keeps serving new clients.
        let late = ByteCollector()
        let lateChannel = try FeedTest.connect(clients, port: port, collector: late)
        #expect(FeedTest.wait { hub.statistics().clients[.beast] == 2 })
        hub.publish(FeedTest.frames(count: 1)[0])
        #expect(FeedTest.wait { late.count > 0 })
        for ch in [goodChannel, stalledChannel, lateChannel] { try? await ch.close().get() }
    }

    @Test func twoHundredConcurrentClientsConnectReceiveAndDisconnect() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0]; $0.sbsOutPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: 4)
        defer { clients.shutdownGracefully { _ in } }
        let beastPort = try #require(hub.boundPorts(.output(.beast)).first)
        let sbsPort = try #require(hub.boundPorts(.output(.sbs)).first)
        let collectors = (0..<200).map { _ in ByteCollector() }
        let futures = collectors.enumerated().map { i, c in
            ClientBootstrap(group: clients).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(c) }
            }.connect(host: "127.0.0.1", port: i % 2 == 0 ? beastPort : sbsPort)
        }
        let channels = try futures.map { try $0.wait() }
        #expect(FeedTest.wait(seconds: 30) { let s = hub.statistics(); return s.clients[.beast] == 100 && s.clients[.sbs] == 100 })
        let frame = FeedTest.frames(count: 1)[0]
        let message = try #require(ModeSMessage.decode(frame.frame))
        hub.publish(frame, message: message, at: 1_700_000_000)
        let beastBytes = BeastFrame(frame).bytes
        #expect(FeedTest.wait(seconds: 30) { collectors.enumerated().allSatisfy { i, c in i % 2 == 0 ? c.count == beastBytes.count : c.count > 0 } })
        // Half disconnect; the rest still receive. (Closed all at once: on a loaded machine
        // two hundred connections take their time, hence the longer waits.)
        func close(_ picked: [Channel]) async {
            try? await EventLoopFuture.andAllComplete(picked.map { $0.close() }, on: clients.next()).get()
        }
        await close(channels.enumerated().filter { $0.offset % 4 < 2 }.map(\.element))
        #expect(FeedTest.wait(seconds: 30) { let s = hub.statistics(); return s.clients[.beast] == 50 && s.clients[.sbs] == 50 })
        hub.publish(frame, message: message, at: 1_700_000_000)
        #expect(FeedTest.wait(seconds: 30) { collectors.enumerated().allSatisfy { i, c in i % 4 < 2 || (i % 2 == 0 ? c.count == 2 * beastBytes.count : c.count > 0) } })
        await close(channels.enumerated().filter { $0.offset % 4 >= 2 }.map(\.element))
        #expect(FeedTest.wait(seconds: 30) { hub.statistics().clients.values.allSatisfy { $0 == 0 } })
    }

    @Test func publishWithoutClientsDoesNothingAndShutdownIsClean() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0]; $0.avrInPorts = [0] })
        try await hub.start()
        let port = try #require(hub.boundPorts(.output(.beast)).first)
        for f in FeedTest.frames(count: 1000) { hub.publish(f) }
        #expect(hub.statistics().framesDropped == 0)
        await hub.shutdown()
        await hub.shutdown()
        // Once shutdown has returned, the port is closed: another hub binds it at once.
        let next = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [port] })
        try await next.start()
        #expect(next.boundPorts(.output(.beast)) == [port])
        await next.shutdown()
    }

    @Test func countersAndReceiversAnswerWhileTheNetworkThreadIsBusy() async throws {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0] })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { clients.shutdownGracefully { _ in } }
        let channel = try FeedTest.connect(clients, port: try #require(hub.boundPorts(.output(.beast)).first), collector: ByteCollector())
        #expect(FeedTest.wait { hub.statistics().clients[.beast] == 1 })
        // Hold the network thread for a second: the receiver's thread reads the counters and
        // the receiver list every second, and must never wait for the network.
        let busy = hub.loop.submit { Thread.sleep(forTimeInterval: 1) }
        let clock = ContinuousClock()
        var statistics = FeedStatistics()
        var receivers: [ReceiverStatus]? = nil
        let took = clock.measure {
            statistics = hub.statistics()
            receivers = hub.receivers()
        }
        #expect(took < .milliseconds(300), "took \(took)")
        #expect(statistics.clients[.beast] == 1 && statistics.clientsAccepted == 1)
        #expect(receivers == [])
        try await busy.get()
        try await channel.close().get()
    }

    @Test func aPortInUseIsAnError() async throws {
        let first = FeedHub(options: FeedTest.loopback { $0.beastOutPorts = [0] })
        try await first.start()
        defer { first.stopAfterTest() }
        let port = try #require(first.boundPorts(.output(.beast)).first)
        let second = FeedHub(options: FeedTest.loopback { $0.avrOutPorts = [port] })
        await #expect(throws: (any Error).self) { try await second.start() }
    }
}
