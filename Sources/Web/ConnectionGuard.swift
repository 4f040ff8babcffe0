import Hummingbird
import HummingbirdCore
import NIOHTTPTypes
import NIOCore
import Feeds
import Synchronization

/// What one HTTP client may make the server hold: connections from one address, and how
/// long a connection may take to send a request head (slow headers, or nothing at all)
/// or a request body. The total is bounded by Hummingbird's `MaximumAvailableConnections`
/// (`WebConfiguration.maxConnections`).
public struct WebLimits: Sendable, Hashable {
    /// Connections open at once, all clients together; more wait in the listen backlog.
    public var maxConnections: Int
    /// Connections open at once from one address; more are closed at once. This machine's
    /// own loopback address (127.0.0.1, ::1: a reverse proxy on the same host) is not limited.
    public var maxConnectionsPerAddress: Int
    /// Seconds a connection may take to deliver a whole request head, from its opening or
    /// from the end of its previous response (slow or silent clients are closed).
    public var requestHeadTimeout: Double
    /// Seconds from a request head to the end of its response (slow bodies are closed).
    public var requestTimeout: Double

    public init(maxConnections: Int = 256, maxConnectionsPerAddress: Int = 32, requestHeadTimeout: Double = 15,
                requestTimeout: Double = 60) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.requestHeadTimeout = requestHeadTimeout
        self.requestTimeout = requestTimeout
    }
}

/// Open HTTP connections per client address (shared by every connection of one server).
final class ConnectionLedger: Sendable {
    private let open = Mutex<[String: Int]>([:])

    /// Counts a connection from `address`; false (not counted) when `limit` are open.
    func admit(_ address: String, limit: Int) -> Bool {
        if FeedLimits.isThisMachine(address) { return true }
        return open.withLock { all in
            let n = all[address, default: 0]
            guard n < limit else { return false }
            all[address] = n + 1
            return true
        }
    }

    func release(_ address: String) {
        if FeedLimits.isThisMachine(address) { return }
        open.withLock { all in
            if let n = all[address] { all[address] = n > 1 ? n - 1 : nil }
        }
    }

    func count(_ address: String) -> Int { open.withLock { $0[address, default: 0] } }
}

/// Per-connection guard in the HTTP pipeline: refuses a connection over the per-address
/// limit, and closes one that does not deliver a request head within
/// `requestHeadTimeout` (from opening or the previous response) or does not finish sending
/// a request within `requestTimeout` of its head. Both clocks run only while the server waits
/// for the client: from a request's end to its response's end the server is working, and
/// however long that takes on a loaded machine, the connection is not the client's fault.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limits: WebLimits
    let ledger: ConnectionLedger
    private var timer: Scheduled<Void>?
    private var address: String?
    /// A request's head has come and its end not yet (its `requestTimeout` clock runs, even
    /// if the server answers early).
    private var receiving = false

    init(limits: WebLimits, ledger: ConnectionLedger) {
        self.limits = limits
        self.ledger = ledger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard ledger.admit(address, limit: limits.maxConnectionsPerAddress) else {
            context.close(promise: nil)
            return
        }
        self.address = address
        let ledger = ledger
        context.channel.closeFuture.whenComplete { _ in ledger.release(address) }
        arm(context, seconds: limits.requestHeadTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func arm(_ context: ChannelHandlerContext, seconds: Double) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            receiving = true
            arm(context, seconds: limits.requestTimeout)
        case .end:
            receiving = false
            timer?.cancel()
            timer = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), !receiving { arm(context, seconds: limits.requestHeadTimeout) }
        context.write(data, promise: promise)
    }
}

/// The request context of every route: Hummingbird's basics plus the client's address
/// (for per-address login limits).
public struct WebRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
