import NIOCore
import NIOPosix

/// One outbound connection (`--net-connector HOST:PORT:PROTOCOL`): connects, serves or reads
/// the stream like a server client would, and reconnects with exponential back-off
/// (`reconnectInitialDelay`, doubling to `reconnectMaximumDelay`; reset after a connection
/// that worked). All state lives on the hub's event loop.
final class FeedConnector: @unchecked Sendable {
    let spec: FeedConnectorSpec
    unowned let hub: FeedHub
    let loop: EventLoop
    private var delay: Double
    private var channel: Channel?
    private var retry: Scheduled<Void>?
    private var stopped = false

    init(spec: FeedConnectorSpec, hub: FeedHub) {
        self.spec = spec
        self.hub = hub
        loop = hub.loop
        delay = hub.options.reconnectInitialDelay
    }

    var listener: FeedListener {
        switch spec.kind {
        case .beastOut: .output(.beast)
        case .beastReduceOut, .beastReducePlusOut: .output(.beastReduce)
        case .rawOut: .output(.avr)
        case .sbsOut: .output(.sbs)
        case .beastIn: .input(.beast)
        case .rawIn: .input(.avr)
        }
    }

    func start() { loop.execute { self.connect() } }

    /// Stops reconnecting and closes the connection; returns once it is closed.
    func stop() async {
        let open = try? await loop.submit { () -> Channel? in
            self.stopped = true
            self.retry?.cancel()
            return self.channel
        }.get()
        if let c = open ?? nil { try? await c.close().get() }
    }

    private func connect() {
        guard !stopped, !hub.registry.stopping else { return }
        let kind = listener
        let announce = spec.kind.announces
        let o = hub.options
        ClientBootstrap(group: loop)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: .init(low: o.maxPendingBytes / 2, high: o.maxPendingBytes))
            .channelInitializer { [hub] channel in
                channel.eventLoop.makeCompletedFuture { try hub.configure(channel, as: kind, announce: announce) }
            }
            .connect(host: spec.host, port: spec.port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    self.hub.registry.stats.withLock { $0.connectorConnects += 1 }
                    self.channel = channel
                    let connected = NIODeadline.now()
                    channel.closeFuture.whenComplete { _ in
                        self.channel = nil
                        // A connection that lasted resets the back-off.
                        if NIODeadline.now() - connected > .seconds(10) { self.delay = self.hub.options.reconnectInitialDelay }
                        self.scheduleRetry()
                    }
                case .failure:
                    self.scheduleRetry()
                }
            }
    }

    private func scheduleRetry() {
        guard !stopped, !hub.registry.stopping else { return }
        let wait = TimeAmount.milliseconds(Int64(delay * 1000))
        delay = min(delay * 2, hub.options.reconnectMaximumDelay)
        retry = loop.scheduleTask(in: wait) { self.connect() }
    }
}
