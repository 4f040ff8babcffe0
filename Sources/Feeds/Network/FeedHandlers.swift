import Foundation
import ModeS
import NIOCore
import Tracking

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
    /// Sent first (a `beast_out` connector's `ReceiverAnnouncement`).
    let announcement: [UInt8]?

    init(kind: FeedOutput, registry: FeedRegistry, announcement: [UInt8]? = nil) {
        self.kind = kind
        self.registry = registry
        self.announcement = announcement
    }

    func channelActive(context: ChannelHandlerContext) {
        if let announcement, !announcement.isEmpty {
            context.writeAndFlush(NIOAny(ByteBuffer(bytes: announcement)), promise: nil)
        }
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
///
/// Each connection speaks for one receiver of a network at a time: the one its Beast stream
/// announces (`ReceiverAnnouncement`), else one named after the peer's address. A stream
/// that sends more than `garbageLimit` bytes before its first frame or announcement is not
/// a Beast feed: the connection is closed (`FeedEvent.garbage`). A connection binds to a
/// receiver only with a frame that passes the parity check, so announcements alone (or
/// random bytes that parse as one) add nothing to the receiver directory.
final class InputClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// Bytes of garbage tolerated before anything valid.
    static let garbageLimit = 4096

    let source: FeedInput
    let registry: FeedRegistry
    let deliver: (RemoteFrame) -> Void
    var beast = BeastDecoder()
    var avr = AVRStreamParser()
    /// The peer's address, and the receiver this connection speaks for now.
    var peer = "unknown"
    var receiver: ReceiverID?
    /// The announcement `receiver` was resolved from.
    var resolvedFrom = ReceiverAnnouncement()
    /// The hearing of the frames while the announcement stays `resolvedFrom` (not rebuilt,
    /// nor looked up in the directory, per frame).
    var cached: Hearing?
    var garbageCounted = 0
    var badAnnouncementsSeen = 0
    /// The receiver directory refused this connection's id: it is being closed.
    var refused = false

    init(source: FeedInput, registry: FeedRegistry, deliver: @escaping (RemoteFrame) -> Void) {
        self.source = source
        self.registry = registry
        self.deliver = deliver
    }

    func channelActive(context: ChannelHandlerContext) {
        peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let receiver { registry.disconnected(receiver, peer: peer, now: Date().timeIntervalSince1970) }
        receiver = nil
        context.fireChannelInactive()
    }

    /// The receiver frames announced as `announcement` belong to (binding the connection to
    /// it when it changes); nil when the directory refused it (`refused` is then set).
    func hearing(for announcement: ReceiverAnnouncement, now: Double) -> Hearing? {
        if let cached, announcement == resolvedFrom { return cached }
        if receiver == nil || announcement.id != resolvedFrom.id {
            let id = registry.directory.withLock { $0.resolve(announcement.id, peer: peer) }
            if let announced = announcement.id, id != announced {
                registry.emit(.duplicateID(announced, peer: peer, as: id), now: now)
            }
            if id != receiver {
                guard registry.rebind(from: receiver, to: id, peer: peer, now: now) else {
                    receiver = nil
                    refused = true
                    return nil
                }
                receiver = id
            }
            resolvedFrom = ReceiverAnnouncement(id: announcement.id)
        }
        guard let id = receiver else { return nil }
        if announcement.name != resolvedFrom.name || announcement.position != resolvedFrom.position {
            registry.directory.withLock { $0.describe(id, name: announcement.name, position: announcement.position) }
            resolvedFrom = announcement
        }
        let hearing = Hearing(receiver: id, position: registry.directory.withLock { $0.receivers[id]?.position })
        cached = announcement == resolvedFrom ? hearing : nil
        return hearing
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let now = Date().timeIntervalSince1970
        var frames: [(ReceivedFrame, ReceiverAnnouncement?)] = []
        buffer.withUnsafeReadableBytes { raw in
            switch source {
            case .beast:
                beast.push(raw) { frame, announcement in
                    if frame.isMLAT {
                        registry.stats.withLock { $0.remoteRejected += 1 }
                    } else if let received = frame.received {
                        frames.append((received, announcement))
                    }
                }
            case .avr:
                avr.push(raw) { frames.append(($0, nil)) }
            }
        }
        // AVR garbage is counted in lines (up to ~30 bytes each).
        let garbage = source == .beast ? beast.garbageBytes : avr.rejectedLines * 32
        if source == .beast && beast.badAnnouncements > badAnnouncementsSeen {
            badAnnouncementsSeen = beast.badAnnouncements
            registry.emit(.badAnnouncement(peer: peer), now: now)
        }
        let valid = source == .beast ? beast.frames + beast.announcements : avr.frames
        if valid == 0 && garbage > Self.garbageLimit {
            registry.stats.withLock { $0.inputsClosedForGarbage += 1 }
            registry.emit(.garbage(peer: peer, bytes: garbage), now: now)
            context.close(promise: nil)
            return
        }
        // A connection speaks for a receiver (announced, else its address) from its first
        // frame that passes the parity check: announcements alone hold nothing here.
        for (received, announcement) in frames {
            let remote = registry.accept(received, source: source, now: now, rejectedBy: receiver) {
                hearing(for: announcement ?? ReceiverAnnouncement(), now: now)
            }
            if refused { break }
            if let remote { deliver(remote) }
        }
        // A bound connection that announces a new id, name or position without frames.
        if !refused, frames.isEmpty, receiver != nil, source == .beast, beast.announcement != resolvedFrom {
            _ = hearing(for: beast.announcement, now: now)
        }
        if refused {
            context.close(promise: nil)
            return
        }
        if let receiver, garbage > garbageCounted {
            registry.directory.withLock { $0.addGarbage(receiver, bytes: garbage - garbageCounted) }
            garbageCounted = garbage
        }
    }

    /// Closes an input that sent nothing for `FeedLimits.inputIdleTimeout` (`IdleStateHandler`).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            registry.stats.withLock { $0.inputsClosedIdle += 1 }
            registry.emit(.idle(peer: peer, seconds: Int(registry.limits.inputIdleTimeout)), now: Date().timeIntervalSince1970)
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
