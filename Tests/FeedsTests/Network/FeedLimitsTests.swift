import Foundation
import ModeS
import NIOCore
import NIOPosix
import Synchronization
import Testing
import Tracking
@testable import Feeds

/// What a stranger can make the network side hold is bounded (`FeedLimits`): receiver
/// entries, connections (in all, per port, per address), silent inputs, log lines.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FeedLimitsTests {
    final class Events: Sendable {
        let list = Mutex<[FeedEvent]>([])
        func count(_ match: (FeedEvent) -> Bool) -> Int { list.withLock { $0.filter(match).count } }
    }

    func hub(_ events: Events, _ configure: (inout FeedLimits) -> Void) async throws -> (FeedHub, Int) {
        var limits = FeedLimits()
        configure(&limits)
        let hub = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [0]; $0.limits = limits },
                          onEvent: { e in events.list.withLock { $0.append(e) } })
        try await hub.start()
        return (hub, try #require(hub.boundPorts(.input(.beast)).first))
    }

    func connect(_ group: EventLoopGroup, port: Int, from localAddress: String = "127.0.0.1") throws -> Channel {
        try FeedTest.connect(group, port: port, from: localAddress)
    }

    static func hello(_ n: Int) -> [UInt8] { ReceiverAnnouncement(id: ReceiverID(rawValue: "rx-\(n)")).bytes }

    @Test func tenThousandAnnouncedIDsLeaveTheDirectoryAtItsCap() async throws {
        let events = Events()
        let (hub, port) = try await hub(events) { $0.maxReceivers = 100; $0.eventsPerWindow = 5 }
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let channel = try connect(group, port: port)
        // One connection re-announcing itself 10 000 times, a valid frame under each id.
        let frame = BeastFrame(FeedTest.frames(count: 1)[0]).bytes
        var stream: [UInt8] = []
        for n in 0..<10_000 { stream += Self.hello(n) + frame }
        try await channel.writeAndFlush(ByteBuffer(bytes: stream)).get()
        #expect(FeedTest.wait(seconds: 30) { hub.statistics().remoteAccepted == 10_000 })
        let receivers = hub.receivers()
        #expect(receivers.count == 100)
        #expect(receivers.contains { $0.id.rawValue == "rx-9999" && $0.isConnected })
        #expect(receivers.filter(\.isConnected).count == 1)
        // Log lines are bounded too: 5 "connected" lines a minute, the rest held back.
        #expect(events.count { $0.kind == "connected" } == 5)
        try await channel.close().get()
    }

    @Test func announcementsAndRandomBytesWithoutValidFramesAddNoReceiver() async throws {
        let events = Events()
        let (hub, port) = try await hub(events) { _ in }
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        var rng = SplitMix64(seed: 11)
        for round in 0..<20 {
            let channel = try connect(group, port: port)
            var bytes = (0..<200).flatMap { Self.hello(round * 1000 + $0) }
            // Random bytes with escapes in them: some parse as frames or announcements.
            bytes += (0..<20_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
            _ = try? await channel.close().get()
        }
        #expect(FeedTest.wait { hub.statistics().remoteFrames > 0 })
        try await Task.sleep(for: .seconds(0.2))
        #expect(hub.statistics().remoteAccepted == 0)
        #expect(hub.receivers().isEmpty)
    }

    @Test func aNewIDIsRefusedOnlyWhenEveryKeptReceiverIsConnected() async throws {
        let events = Events()
        let (hub, port) = try await hub(events) { $0.maxReceivers = 2 }
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let frame = BeastFrame(FeedTest.frames(count: 1)[0]).bytes
        let a = try connect(group, port: port)
        try await a.writeAndFlush(ByteBuffer(bytes: Self.hello(1) + frame)).get()
        let b = try connect(group, port: port)
        try await b.writeAndFlush(ByteBuffer(bytes: Self.hello(2) + frame)).get()
        #expect(FeedTest.wait { hub.receivers().count == 2 })
        let c = try connect(group, port: port)
        try await c.writeAndFlush(ByteBuffer(bytes: Self.hello(3) + frame)).get()
        #expect(FeedTest.wait { !c.isActive }, "the third id is refused and its connection closed")
        #expect(events.count { if case .tooManyReceivers = $0 { true } else { false } } == 1)
        #expect(hub.receivers().map(\.id.rawValue) == ["rx-1", "rx-2"])
        // Once one has gone, a new id takes the place of the one silent longest.
        try await a.close().get()
        #expect(FeedTest.wait { hub.receivers().first { $0.id.rawValue == "rx-1" }?.isConnected == false })
        let d = try connect(group, port: port)
        try await d.writeAndFlush(ByteBuffer(bytes: Self.hello(4) + frame)).get()
        #expect(FeedTest.wait { hub.receivers().map(\.id.rawValue) == ["rx-2", "rx-4"] })
        try await b.close().get()
        try await d.close().get()
    }

    @Test func receiversSilentPastTheirExpiryAreForgotten() async throws {
        let events = Events()
        let (hub, port) = try await hub(events) { $0.receiverExpiry = 0.5 }
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let channel = try connect(group, port: port)
        try await channel.writeAndFlush(ByteBuffer(bytes: Self.hello(1) + BeastFrame(FeedTest.frames(count: 1)[0]).bytes)).get()
        #expect(FeedTest.wait { hub.receivers().count == 1 })
        try await channel.close().get()
        #expect(FeedTest.wait(seconds: 5) { hub.receivers().isEmpty })
    }

    @Test func connectionsBeyondThePerAddressAndTotalCapsAreClosed() async throws {
        let events = Events()
        let (hub, port) = try await hub(events) { $0.maxConnections = 8; $0.maxConnectionsPerAddress = 3 }
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let same = try (0..<5).map { _ in try connect(group, port: port, from: "127.0.0.10") }
        #expect(FeedTest.wait { same.filter(\.isActive).count == 3 }, "three from one address stay open")
        let others = try (2..<9).map { try connect(group, port: port, from: "127.0.0.\($0)") }
        #expect(FeedTest.wait { others.filter(\.isActive).count == 5 }, "eight in all")
        #expect(hub.statistics().connectionsRefused == 4)
        #expect(events.count { if case .refused = $0 { true } else { false } } == 4)
        // Closing one makes room again.
        try await same.first { $0.isActive }!.close().get()
        try await Task.sleep(for: .seconds(0.2))
        let again = try connect(group, port: port, from: "127.0.0.9")
        let frame = BeastFrame(FeedTest.frames(count: 1)[0]).bytes
        try await again.writeAndFlush(ByteBuffer(bytes: frame)).get()
        #expect(FeedTest.wait { hub.statistics().remoteAccepted == 1 })
        for c in same + others + [again] { _ = try? await c.close().get() }
        // This machine's own address (local feeders, mlat-client) is bounded only in all.
        #expect(FeedTest.wait { hub.statistics().connectionsOpen == 0 })
        let local = try (0..<6).map { _ in try connect(group, port: port, from: "127.0.0.1") }
        try await Task.sleep(for: .seconds(0.2))
        #expect(local.filter(\.isActive).count == 6)
        for c in local { _ = try? await c.close().get() }
    }

    @Test func twoThousandIdleSocketsAreBoundedAndASilentInputIsClosed() async throws {
        let events = Events()
        let (hub, port) = try await hub(events) { $0.inputIdleTimeout = 0.5 }
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        var idle: [Channel] = []
        var mostOpen = 0
        for i in 0..<2000 {
            idle.append(try connect(group, port: port, from: "127.0.\(1 + i / 250).\(1 + i % 250)"))
            if i % 50 == 0 { mostOpen = max(mostOpen, hub.statistics().connectionsOpen) }
        }
        let limits = FeedLimits()
        #expect(mostOpen > 0 && mostOpen <= limits.maxConnectionsPerPort)
        // Every silent input is closed after the timeout (the refused ones at once), and a
        // feeder gets in again.
        #expect(FeedTest.wait(seconds: 20) { idle.allSatisfy { !$0.isActive } })
        let s = hub.statistics()
        #expect(s.inputsClosedIdle + s.connectionsRefused == 2000)
        #expect(s.inputsClosedIdle >= limits.maxConnectionsPerPort)
        #expect(s.connectionsOpen == 0)
        // (A loaded machine may take longer than the idle timeout between connecting and
        // writing: then the feeder was silent, is closed, and tries again.)
        var fed = false
        for _ in 0..<5 where !fed {
            let feeder = try connect(group, port: port)
            fed = (try? await feeder.writeAndFlush(ByteBuffer(bytes: BeastFrame(FeedTest.frames(count: 1)[0]).bytes)).get()) != nil
            if fed { fed = FeedTest.wait { hub.statistics().remoteAccepted == 1 } }
            _ = try? await feeder.close().get()
        }
        #expect(fed && hub.statistics().remoteAccepted == 1)
    }

    @Test func theEventThrottlePassesTheFirstOfAKindAndSumsUpTheRest() {
        var throttle = EventThrottle(limit: 3, window: 60)
        var out: [FeedEvent] = []
        for i in 0..<10 { out += throttle.filter(.garbage(peer: "p\(i)", bytes: 1), now: Double(i)) }
        out += throttle.filter(.refused(peer: "q", reason: "r"), now: 10)
        #expect(out.count == 4)
        let later = throttle.filter(.garbage(peer: "late", bytes: 1), now: 61)
        #expect(later == [.suppressed(kind: "garbage", count: 7, seconds: 60), .garbage(peer: "late", bytes: 1)])
    }
}
