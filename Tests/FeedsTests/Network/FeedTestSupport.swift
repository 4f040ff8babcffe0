import Foundation
import ModeS
import NIOCore
import NIOPosix
import Synchronization
@testable import Feeds

/// A test client that keeps every byte it receives.
final class ByteCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let bytes = Mutex<[UInt8]>([])

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
    }

    var count: Int { bytes.withLock { $0.count } }
    var snapshot: [UInt8] { bytes.withLock { $0 } }
}

enum FeedTest {
    /// Real frames (published vectors) with their decoded messages.
    static let hexes = [
        "8D4840D6202CC371C32CE0576098",  // KLM1023 identification
        "8D485020994409940838175B284F",  // velocity
        "8D40621D58C382D690C8AC2863A7",  // airborne position, even
        "8D40621D58C386435CC412692AD6",  // airborne position, odd
        "8D406B902015A678D4D220AA4BDA",  // identification
    ]

    static func frames(count: Int) -> [ReceivedFrame] {
        (0..<count).map { i in
            let frame = try! Frame(hex: hexes[i % hexes.count])
            return ReceivedFrame(frame: frame, timestamp: UInt64(1_000_000 + i * 1234), signal: -Double(i % 40) - 3)
        }
    }

    static func connect(_ group: EventLoopGroup, port: Int, collector: ByteCollector, autoRead: Bool = true,
                        receiveBuffer: Int? = nil) throws -> Channel {
        var bootstrap = ClientBootstrap(group: group)
            .channelOption(.autoRead, value: autoRead)
        if let receiveBuffer {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
        }
        return try bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
        }
        .connect(host: "127.0.0.1", port: port).wait()
    }

    /// A client connection from `localAddress` (any 127.x.y.z is this machine) that keeps
    /// what it receives to itself.
    static func connect(_ group: EventLoopGroup, port: Int, from localAddress: String) throws -> Channel {
        try ClientBootstrap(group: group)
            .bind(to: try SocketAddress(ipAddress: localAddress, port: 0))
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ByteCollector()) } }
            .connect(host: "127.0.0.1", port: port).wait()
    }

    /// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held.
    @discardableResult
    static func wait(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }

    static func loopback(_ configure: (inout FeedOptions) -> Void) -> FeedOptions {
        var o = FeedOptions(bindHost: "127.0.0.1", heartbeatInterval: nil)
        configure(&o)
        return o
    }
}

extension FeedHub {
    /// For a test's `defer`, which cannot await: starts `shutdown()` and returns; the hub's
    /// event-loop thread ends once every listener and connection is closed.
    func stopAfterTest() { Task { await shutdown() } }
}
