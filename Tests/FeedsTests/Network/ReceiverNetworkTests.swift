import Foundation
import Testing
import ModeS
import NIOCore
import NIOPosix
import Synchronization
import Tracking
@testable import Feeds

/// The aggregator side of a receiver network on hostile or confused input: garbage, bad
/// announcements, two receivers claiming one id.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReceiverNetworkTests {
    final class Events: Sendable {
        let list = Mutex<[FeedEvent]>([])
        func has(_ match: (FeedEvent) -> Bool) -> Bool { list.withLock { $0.contains(where: match) } }
    }

    /// An aggregator hub with one Beast input port, recording its events.
    func aggregator(_ events: Events) async throws -> (FeedHub, Int) {
        let hub = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [0] }, onEvent: { e in events.list.withLock { $0.append(e) } })
        try await hub.start()
        return (hub, try #require(hub.boundPorts(.input(.beast)).first))
    }

    func connect(_ group: EventLoopGroup, port: Int, from localAddress: String = "127.0.0.1") throws -> Channel {
        try FeedTest.connect(group, port: port, from: localAddress)
    }

    @Test func aStreamOfGarbageIsClosedWithAMessageAndOthersGoOn() async throws {
        let events = Events()
        let (hub, port) = try await aggregator(events)
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let good = try connect(group, port: port)
        let bad = try connect(group, port: port)
        var rng = SplitMix64(seed: 3)
        // Random bytes without 0x1A (so no frame can start) look like a misdirected stream.
        let garbage = (0..<6000).map { _ in UInt8(truncatingIfNeeded: rng.next()) & 0xEF }
        try await bad.writeAndFlush(ByteBuffer(bytes: garbage)).get()
        #expect(FeedTest.wait { !bad.isActive }, "the garbage connection is closed")
        #expect(events.has { if case .garbage(_, let n) = $0 { n > InputClientHandler.garbageLimit } else { false } })
        #expect(hub.statistics().inputsClosedForGarbage == 1)
        let frames = FeedTest.frames(count: 5)
        try await good.writeAndFlush(ByteBuffer(bytes: frames.flatMap { BeastFrame($0).bytes })).get()
        #expect(FeedTest.wait { hub.statistics().remoteAccepted == frames.count })
        try await good.close().get()
    }

    @Test func aMalformedAnnouncementIsReportedAndTheFramesKeptUnderThePeerAddress() async throws {
        let events = Events()
        let (hub, port) = try await aggregator(events)
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let channel = try connect(group, port: port)
        let details = Array(#"{"id": "has a space", "lat": 200}"#.utf8)
        let frames = FeedTest.frames(count: 3)
        try await channel.writeAndFlush(ByteBuffer(bytes: [0x1A, 0xE5, UInt8(details.count)] + details + frames.flatMap { BeastFrame($0).bytes })).get()
        #expect(FeedTest.wait { hub.statistics().remoteAccepted == frames.count })
        #expect(events.has { $0 == .badAnnouncement(peer: "127.0.0.1") })
        let receivers = hub.receivers()
        #expect(receivers.map(\.id.rawValue) == ["peer-127.0.0.1"])
        #expect(receivers.first?.frames == frames.count)
        #expect(receivers.first?.position == nil, "the out-of-range position was not taken")
        try await channel.close().get()
        #expect(FeedTest.wait { hub.receivers().first?.isConnected == false })
    }

    @Test func twoReceiversClaimingOneIDFromDifferentAddressesAreKeptApart() async throws {
        let events = Events()
        let (hub, port) = try await aggregator(events)
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let hello = ReceiverAnnouncement(id: ReceiverID(rawValue: "cloned-sd-card")).bytes
        let frames = FeedTest.frames(count: 4)
        let first = try connect(group, port: port, from: "127.0.0.1")
        try await first.writeAndFlush(ByteBuffer(bytes: hello + BeastFrame(frames[0]).bytes)).get()
        #expect(FeedTest.wait { hub.statistics().remoteAccepted == 1 })
        let second = try connect(group, port: port, from: "127.0.0.2")
        try await second.writeAndFlush(ByteBuffer(bytes: hello + BeastFrame(frames[1]).bytes)).get()
        #expect(FeedTest.wait { hub.statistics().remoteAccepted == 2 })
        let ids = hub.receivers().map(\.id.rawValue)
        #expect(ids == ["cloned-sd-card", "cloned-sd-card@127.0.0.2"])
        #expect(events.has { if case .duplicateID(let id, "127.0.0.2", _) = $0 { id.rawValue == "cloned-sd-card" } else { false } })
        // The first one reconnecting from its own address is the same receiver again.
        try await first.close().get()
        #expect(FeedTest.wait { hub.receivers().first { $0.id.rawValue == "cloned-sd-card" }?.isConnected == false })
        let again = try connect(group, port: port, from: "127.0.0.1")
        try await again.writeAndFlush(ByteBuffer(bytes: hello + BeastFrame(frames[2]).bytes)).get()
        #expect(FeedTest.wait { hub.statistics().remoteAccepted == 3 })
        let status = try #require(hub.receivers().first { $0.id.rawValue == "cloned-sd-card" })
        #expect(status.connects == 2)
        #expect(status.frames == 2)
        #expect(hub.receivers().count == 2)
        try await second.close().get()
        try await again.close().get()
    }

    @Test func aReceiverIsListedFromItsFirstValidFrameWithWhatItAnnounced() async throws {
        let events = Events()
        let (hub, port) = try await aggregator(events)
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let hello = ReceiverAnnouncement(id: ReceiverID.uuid("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"), name: "Quiet",
                                         position: Coordinate(latitude: 60.1, longitude: 24.9)).bytes
        let channel = try connect(group, port: port)
        try await channel.writeAndFlush(ByteBuffer(bytes: hello)).get()
        // An announcement alone holds nothing (anyone can send one).
        try await Task.sleep(for: .seconds(0.2))
        #expect(hub.receivers().isEmpty)
        try await channel.writeAndFlush(ByteBuffer(bytes: BeastFrame(FeedTest.frames(count: 1)[0]).bytes)).get()
        #expect(FeedTest.wait { hub.receivers().first?.name == "Quiet" })
        let status = try #require(hub.receivers().first)
        #expect(status.id.rawValue == "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
        #expect(status.isConnected)
        #expect(status.position == Coordinate(latitude: 60.1, longitude: 24.9))
        #expect(events.has { if case .receiverConnected = $0 { true } else { false } })
        try await channel.close().get()
    }
}
