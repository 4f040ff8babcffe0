import Foundation
import ModeS
import NIOCore

/// The handler of an output connection (a server client or an outbound `*_out` connector):
/// registers the channel for broadcasts, reads Beast client commands, discards other input.
final class OutputClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let kind: FeedOutput
    let registry: FeedRegistry
    var commands = BeastCommandReader()
    /// Client options from Beast commands (recorded; FlyTracker sends only checked Mode S frames).
    var modeAC = false
    var verbatim = false

    init(kind: FeedOutput, registry: FeedRegistry) {
        self.kind = kind
        self.registry = registry
    }

    func channelActive(context: ChannelHandlerContext) {
        registry.add(context.channel, as: kind)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.remove(context.channel, as: kind)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard kind == .beast else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { raw in
            commands.push(raw) { command in
                switch command {
                case .modeAC(let on): modeAC = on
                case .verbatim(let on): verbatim = on
                case .other: break
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// The handler of an input connection (a Beast or AVR input port, or a `*_in` connector):
/// parses the stream, checks parity and hands accepted frames to `deliver`.
final class InputClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let source: FeedInput
    let registry: FeedRegistry
    let deliver: (RemoteFrame) -> Void
    var beast = BeastDecoder()
    var avr = AVRStreamParser()

    init(source: FeedInput, registry: FeedRegistry, deliver: @escaping (RemoteFrame) -> Void) {
        self.source = source
        self.registry = registry
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let now = Date().timeIntervalSince1970
        var frames: [ReceivedFrame] = []
        buffer.withUnsafeReadableBytes { raw in
            switch source {
            case .beast:
                beast.push(raw) { frame in
                    if frame.isMLAT {
                        registry.stats.remoteRejected += 1
                    } else if let received = frame.received {
                        frames.append(received)
                    }
                }
            case .avr:
                avr.push(raw) { frames.append($0) }
            }
        }
        for received in frames {
            if let remote = registry.accept(received, source: source, now: now) { deliver(remote) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
