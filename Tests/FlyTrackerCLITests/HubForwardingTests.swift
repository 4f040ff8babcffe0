import Foundation
import ModeS
import NIOCore
import NIOPosix
import PostgresTestSupport
import Synchronization
import Testing
import Tracking
@testable import Feeds
@testable import FlyTrackerCLI

/// `flytracker run --net-only` as a hub (issue 26): what arrives on the Beast input goes out
/// on the Beast, AVR and SBS outputs, frame for frame, as readsb and dump1090-fa pass it on,
/// so a feeder or mlat-client can sit behind FlyTracker.
@Suite(.serialized, .timeLimit(.minutes(1))) struct HubForwardingTests {
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes = Mutex<[UInt8]>([])
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
        }
    }

    static func connect(_ group: EventLoopGroup, port: Int, _ collector: Collector) throws -> Channel {
        try ClientBootstrap(group: group).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
        }.connect(host: "127.0.0.1", port: port).wait()
    }

    static let hexes = ["8D4840D6202CC371C32CE0576098", "8D485020994409940838175B284F", "8D40621D58C382D690C8AC2863A7",
                        "8D40621D58C386435CC412692AD6", "8D406B902015A678D4D220AA4BDA"]

    @Test func framesArrivingOnTheInputGoOutOnEveryOutputOnce() async throws {
        let hub = FeedHub(options: FeedOptions(bindHost: "127.0.0.1", beastOutPorts: [0], avrOutPorts: [0], sbsOutPorts: [0],
                                               beastInPorts: [0], heartbeatInterval: nil, mergeWindow: 10))
        try await hub.start()
        defer { hub.stopAfterTest() }
        var loop = ReceiverLoop(sampleRate: .rate2_4)
        loop.feeds = hub
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let beast = Collector(), avr = Collector(), sbs = Collector()
        let clients = try [(FeedListener.output(.beast), beast), (.output(.avr), avr), (.output(.sbs), sbs)].map { kind, c in
            try Self.connect(group, port: try #require(hub.boundPorts(kind).first), c)
        }
        #expect(Poll.until { hub.statistics().clients.values.reduce(0, +) == 3 })
        // A feeder sends five frames with its own timestamps and levels.
        let sent = Self.hexes.enumerated().map { i, hex in
            ReceivedFrame(frame: try! Frame(hex: hex), timestamp: UInt64(5_000_000 + 1000 * i), signal: -10 - Double(i))
        }
        let feeder = try Self.connect(group, port: try #require(hub.boundPorts(.input(.beast)).first), Collector())
        try await feeder.writeAndFlush(ByteBuffer(bytes: sent.flatMap { BeastFrame($0).bytes })).get()
        #expect(Poll.until { hub.statistics().remoteAccepted == sent.count })
        loop.applyRemoteFrames()
        #expect(loop.table.count == 4, "four aircraft in the five frames")

        // Beast out: the same bits, timestamps and levels, in order.
        #expect(Poll.until { beast.bytes.withLock { $0.count } >= sent.map { BeastFrame($0).bytes.count }.reduce(0, +) })
        var decoder = BeastDecoder()
        var forwarded: [BeastFrame] = []
        decoder.push(beast.bytes.withLock { $0 }) { forwarded.append($0) }
        #expect(forwarded.compactMap(\.received?.frame) == sent.map(\.frame))
        #expect(forwarded.map(\.timestamp) == sent.map(\.timestamp))
        let levels = zip(forwarded.compactMap(\.received?.signal), sent.map { $0.signal! })
        #expect(levels.allSatisfy { abs($0 - $1) < 0.5 }, "levels within the Beast byte's resolution")
        // AVR out: one *HEX; line per frame; SBS out: a MSG line per frame.
        #expect(Poll.until { String(decoding: avr.bytes.withLock { $0 }, as: UTF8.self).split(separator: "\n").count == sent.count })
        let lines = String(decoding: avr.bytes.withLock { $0 }, as: UTF8.self).split(separator: "\n")
        #expect(lines.map { $0.uppercased() }.allSatisfy { line in Self.hexes.contains { line.hasSuffix($0 + ";") } })
        #expect(Poll.until { String(decoding: sbs.bytes.withLock { $0 }, as: UTF8.self).components(separatedBy: "\r\n").filter { $0.hasPrefix("MSG,") }.count == sent.count })

        // A second receiver's copy of the same transmissions is merged, not sent again.
        let before = beast.bytes.withLock { $0.count }
        let other = try Self.connect(group, port: try #require(hub.boundPorts(.input(.beast)).first), Collector())
        let hello = ReceiverAnnouncement(id: ReceiverID(rawValue: "second")).bytes
        try await other.writeAndFlush(ByteBuffer(bytes: hello + sent.flatMap { BeastFrame($0).bytes })).get()
        #expect(Poll.until { hub.statistics().remoteMerged == sent.count })
        loop.applyRemoteFrames()
        try await Task.sleep(for: .seconds(0.2))
        #expect(beast.bytes.withLock { $0.count } == before)
        for c in clients + [feeder, other] { _ = try? await c.close().get() }
    }

    @Test("stats.json's remote block tells unknown addresses (unknown_icao) from damaged frames (bad)")
    func rejectedFramesAreToldApart() async throws {
        let hub = FeedHub(options: FeedOptions(bindHost: "127.0.0.1", beastInPorts: [0], heartbeatInterval: nil))
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        // An altitude reply from an address no squitter introduced, and a squitter with two
        // hex digits (8 bits) damaged.
        let unknown = SyntheticFrames.surveillanceAltitude(address: 0x123456, altitude: 30000)
        var hex = Array(Self.hexes[0])
        hex[10] = hex[10] == "F" ? "0" : "F"
        hex[20] = hex[20] == "F" ? "0" : "F"
        let damaged = try Frame(hex: String(hex))
        let frames = [unknown, damaged, try Frame(hex: Self.hexes[1])].map { ReceivedFrame(frame: $0, timestamp: 1, signal: -20) }
        let feeder = try Self.connect(group, port: try #require(hub.boundPorts(.input(.beast)).first), Collector())
        try await feeder.writeAndFlush(ByteBuffer(bytes: frames.flatMap { BeastFrame($0).bytes })).get()
        #expect(Poll.until { hub.statistics().remoteFrames == 3 })
        let totals = hub.statistics()
        #expect(totals.remoteRejected == 2 && totals.remoteUnknownAddress == 1)
        let remote = RunOutputs.remoteStatistics(totals, since: FeedStatistics())
        #expect(remote.modes == 3 && remote.unknownICAO == 1 && remote.bad == 1 && remote.accepted.0 == 1)
        #expect(RunOutputs.remoteStatistics(totals, since: totals) == RemoteStatistics(), "a period counts only what is new")
        _ = try? await feeder.close().get()
    }
}

/// stats.json's `cpu` block: the receiver loop's thread, and the rest of the process.
struct CPUMeterTests {
    @Test func workOnTheLoopThreadCountsAsDemodAndOtherThreadsAsBackground() {
        var meter = CPUMeter()
        _ = meter.period()
        // 50 ms of arithmetic here…
        let start = CPUMeter.seconds(CLOCK_THREAD_CPUTIME_ID)
        var x = 1.0
        while CPUMeter.seconds(CLOCK_THREAD_CPUTIME_ID) - start < 0.05 { for _ in 0..<1000 { x = x * 1.0000001 + 1e-9 } }
        // …and about as much on another thread.
        let other = Thread { var y = 1.0; let s = CPUMeter.seconds(CLOCK_THREAD_CPUTIME_ID)
            while CPUMeter.seconds(CLOCK_THREAD_CPUTIME_ID) - s < 0.05 { for _ in 0..<1000 { y = y * 1.0000001 + 1e-9 } }
            if y == 0 { print(y) } }
        other.start()
        while !other.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        let p = meter.period()
        #expect(x > 0)
        #expect(p.demod >= 50 && p.demod < 500, "demod \(p.demod) ms")
        #expect(p.background >= 40, "background \(p.background) ms")
    }
}
