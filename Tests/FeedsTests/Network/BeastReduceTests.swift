import Foundation
import ModeS
import NIOCore
import NIOPosix
import Testing
import Tracking
@testable import Feeds

/// readsb's BeastReduce (issue 26): one message of each kind per aircraft per interval, on
/// its own port and on `beast_reduce_out`/`beast_reduce_plus_out` connectors, the latter
/// announcing the receiver's UUID as community aggregators expect.
@Suite(.serialized, .timeLimit(.minutes(1))) struct BeastReduceTests {
    static func frame(_ i: Int) throws -> Frame { try Frame(hex: FeedTest.hexes[i]) }

    @Test("kinds: per address and DF, per type code for squitters, even and odd positions apart; no DF24")
    func kinds() throws {
        let identification = try #require(BeastReducer.kind(of: try Self.frame(0), address: 0x4840D6))
        let velocity = try #require(BeastReducer.kind(of: try Self.frame(1), address: 0x485020))
        let even = try #require(BeastReducer.kind(of: try Self.frame(2), address: 0x40621D))
        let odd = try #require(BeastReducer.kind(of: try Self.frame(3), address: 0x40621D))
        #expect(Set([identification, velocity, even, odd]).count == 4)
        #expect(even ^ odd == 1, "the same aircraft and type code, the CPR format apart")
        let altitude = SyntheticFrames.surveillanceAltitude(address: 0x40621D, altitude: 30000)
        #expect(BeastReducer.kind(of: altitude, address: 0x40621D) != even)
        let df24 = try Frame(hex: "C0000000000000000000000000000000".prefix(28).description)
        #expect(BeastReducer.kind(of: df24, address: 0) == nil)
    }

    @Test("one message of a kind passes per interval; memory stays within its capacity")
    func interval() {
        var reducer = BeastReducer(interval: 0.25, capacity: 100)
        let passed = [reducer.admit(7, at: 10), reducer.admit(7, at: 10.1), reducer.admit(8, at: 10.1), reducer.admit(7, at: 10.26)]
        #expect(passed == [true, false, true, true], "a repeat within 0.25 s is held back; another kind is not; after it, it passes")
        for k in 0..<10_000 { _ = reducer.admit(UInt64(1000 + k), at: 20 + Double(k) * 1e-4) }
        #expect(reducer.count <= 100)
    }

    @Test("the reduced port carries each aircraft's kinds once per interval, the full port everything")
    func reducedPort() async throws {
        let hub = FeedHub(options: FeedTest.loopback {
            $0.beastOutPorts = [0]
            $0.beastReduceOutPorts = [0]
            $0.beastReduceInterval = 10
        })
        try await hub.start()
        defer { hub.stopAfterTest() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let full = ByteCollector(), reduced = ByteCollector()
        let a = try FeedTest.connect(group, port: try #require(hub.boundPorts(.output(.beast)).first), collector: full)
        let b = try FeedTest.connect(group, port: try #require(hub.boundPorts(.output(.beastReduce)).first), collector: reduced)
        #expect(FeedTest.wait { hub.statistics().clients[.beastReduce] == 1 && hub.statistics().clients[.beast] == 1 })
        let frames = FeedTest.frames(count: 5)
        func send(at time: Double) {
            for f in frames { hub.publish(f, message: ModeSMessage.decode(f.frame), at: time) }
        }
        for round in 0..<3 { send(at: 1000 + Double(round)) }
        let one = frames.map { BeastFrame($0).bytes.count }.reduce(0, +)
        #expect(FeedTest.wait { full.count == 3 * one })
        #expect(FeedTest.wait { reduced.count == one })
        try await Task.sleep(for: .seconds(0.1))
        #expect(reduced.count == one, "repeats within 10 s held back")
        var decoder = BeastDecoder()
        var got: [Frame] = []
        decoder.push(reduced.snapshot) { if let r = $0.received { got.append(r.frame) } }
        #expect(got == frames.map(\.frame))
        send(at: 1011)
        #expect(FeedTest.wait { reduced.count == 2 * one }, "after the interval each kind passes again")
        _ = try? await a.close().get()
        _ = try? await b.close().get()
    }

    @Test("a beast_reduce_plus_out connector announces the receiver's UUID before its frames")
    func plusConnectorAnnouncesTheUUID() async throws {
        let sink = FeedHub(options: FeedTest.loopback { $0.beastInPorts = [0] })
        try await sink.start()
        defer { sink.stopAfterTest() }
        let port = try #require(sink.boundPorts(.input(.beast)).first)
        let uuid = try #require(ReceiverID.uuid("0b5b7c9e-58a8-4e4b-9d8e-1c2f3a4b5c6d"))
        let source = FeedHub(options: FeedTest.loopback {
            $0.connectors = [FeedConnectorSpec(host: "127.0.0.1", port: port, kind: .beastReducePlusOut)]
            $0.announcement = ReceiverAnnouncement(id: uuid)
        })
        try await source.start()
        defer { source.stopAfterTest() }
        #expect(FeedTest.wait { source.statistics().clients[.beastReduce] == 1 })
        let frames = FeedTest.frames(count: 5)
        for f in frames { source.publish(f, message: ModeSMessage.decode(f.frame), at: 5000) }
        #expect(FeedTest.wait { sink.statistics().remoteAccepted == frames.count })
        #expect(sink.receivers().map(\.id) == [uuid], "the aggregator knows the feed by its UUID")
    }

    @Test("connector and port options parse; the plus kind announces, the plain one does not")
    func options() throws {
        let o = try FeedOptions.commandLine(net: false, beastReduceOutPorts: "30006",
                                            connectors: ["feed.example.org:30004:beast_reduce_plus_out", "h:1:beast_reduce_out"])
        #expect(o.beastReduceOutPorts == [30006])
        #expect(o.connectors.map(\.kind) == [.beastReducePlusOut, .beastReduceOut])
        #expect(FeedConnectorProtocol.beastReducePlusOut.announces && !FeedConnectorProtocol.beastReduceOut.announces)
        #expect(FeedConnectorProtocol.beastOut.announces)
    }
}
