import Foundation
import ModeS
import NIOCore
import NIOPosix
import Synchronization

/// The network feeds (FORMATS.md ports): Beast, AVR and SBS outputs, Beast and AVR inputs
/// and outbound connectors, on one SwiftNIO event loop.
///
/// The receiver calls `publish` for every frame; the call never blocks: it encodes the frame
/// once per output that has clients and hands the bytes to the event loop. Each client's
/// unsent bytes are bounded by `FeedOptions.maxPendingBytes` (NIO write-buffer water mark);
/// a client over the limit is dropped, so a slow client never slows the receiver or the
/// others. Frames read on input ports are parsed, parity-checked with the acceptance rule
/// (`AddressFilter.accept`) and delivered to `onRemoteFrame` (on the network thread) and to
/// an inbox the receiver drains with `takeRemoteFrames()`.
///
/// Lifecycle: `init` → `await start()` (binds, throws when a port is taken) → `await shutdown()`
/// (`FeedService` runs both in a `ServiceGroup`). No call waits on a thread for the event loop.
public final class FeedHub: Sendable {
    public let options: FeedOptions
    let group: MultiThreadedEventLoopGroup
    let loop: EventLoop
    let registry: FeedRegistry
    let onRemoteFrame: (@Sendable (RemoteFrame) -> Void)?
    let inFlight = Atomic<Int>(0)
    let framesDropped = Atomic<Int>(0)
    let inbox = Mutex<[RemoteFrame]>([])
    let inboxOverflow = Atomic<Int>(0)
    /// Frames kept in the inbox at most.
    public let inboxLimit: Int
    let listeners = Mutex<[(kind: FeedListener, channel: Channel)]>([])
    let connectors = Mutex<[FeedConnector]>([])
    let heartbeat = Mutex<RepeatedTask?>(nil)
    let expiry = Mutex<RepeatedTask?>(nil)
    let started = Atomic<Bool>(false)
    let isShutDown = Atomic<Bool>(false)

    /// - Parameters:
    ///   - inboxLimit: accepted remote frames kept for `takeRemoteFrames()`; 0 = no inbox
    ///     (use `onRemoteFrame` only).
    ///   - onRemoteFrame: called on the network thread for each accepted remote frame.
    ///   - onEvent: called on the network thread for what an operator should hear about
    ///     (receivers connecting, duplicate ids, inputs closed for garbage).
    public init(options: FeedOptions, inboxLimit: Int = 65_536, onRemoteFrame: (@Sendable (RemoteFrame) -> Void)? = nil,
                onEvent: (@Sendable (FeedEvent) -> Void)? = nil) {
        self.options = options
        self.inboxLimit = inboxLimit
        self.onRemoteFrame = onRemoteFrame
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        registry = FeedRegistry(loop: loop, maxPendingBytes: options.maxPendingBytes, mergeWindow: options.mergeWindow,
                                limits: options.limits, reduceInterval: options.beastReduceInterval, onEvent: onEvent)
    }

    /// Opens every configured port and starts the connectors. Throws (after closing what it
    /// opened) when a port cannot be bound. Returns once every port is bound.
    public func start() async throws {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        do {
            let o = options
            for port in o.beastOutPorts { try await bind(.output(.beast), port: port) }
            for port in o.avrOutPorts { try await bind(.output(.avr), port: port) }
            for port in o.sbsOutPorts { try await bind(.output(.sbs), port: port) }
            for port in o.beastReduceOutPorts { try await bind(.output(.beastReduce), port: port) }
            for port in o.beastInPorts { try await bind(.input(.beast), port: port) }
            for port in o.avrInPorts { try await bind(.input(.avr), port: port) }
        } catch {
            await shutdown()
            throw error
        }
        let made = options.connectors.map { FeedConnector(spec: $0, hub: self) }
        connectors.withLock { $0 = made }
        for c in made { c.start() }
        if let interval = options.heartbeatInterval, interval > 0 {
            let every = TimeAmount.milliseconds(Int64(interval * 1000))
            let task = loop.scheduleRepeatedTask(initialDelay: every, delay: every) { [registry] _ in
                FeedHub.sendHeartbeats(registry: registry, idleFor: interval)
            }
            heartbeat.withLock { $0 = task }
        }
        // Receivers silent past their expiry are forgotten even when no new one arrives.
        let sweep = TimeAmount.seconds(Int64(max(1, min(60, options.limits.receiverExpiry))))
        let expiry = loop.scheduleRepeatedTask(initialDelay: sweep, delay: sweep) { [registry] _ in
            registry.directory.withLock { $0.expire(now: Date().timeIntervalSince1970) }
        }
        self.expiry.withLock { $0 = expiry }
    }

    /// Closes every listener, connector and connection and stops the event loop; returns once
    /// all are closed. Idempotent (a second call returns at once).
    public func shutdown() async {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let open = (try? await loop.submit { [registry] () -> [Channel] in
            registry.stopping = true
            return registry.allChannels
        }.get()) ?? []
        heartbeat.withLock { $0?.cancel(); $0 = nil }
        expiry.withLock { $0?.cancel(); $0 = nil }
        for c in connectors.withLock({ $0 }) { await c.stop() }
        let bound = listeners.withLock { l in defer { l = [] }; return l }
        for l in bound { try? await l.channel.close().get() }
        for c in open { try? await c.close().get() }
        try? await group.shutdownGracefully()   // already shut down: nothing left to do
    }

    /// Ports actually bound for a listener kind (useful with port 0).
    public func boundPorts(_ kind: FeedListener) -> [Int] {
        listeners.withLock { $0.filter { $0.kind == kind }.compactMap { $0.channel.localAddress?.port } }
    }

    /// Counters since start (a copy; never waits for the network thread).
    public func statistics() -> FeedStatistics {
        var s = registry.snapshot()
        s.framesDropped += framesDropped.load(ordering: .relaxed)
        s.remoteOverflow += inboxOverflow.load(ordering: .relaxed)
        return s
    }

    /// The receivers that have fed the input ports, sorted by id (a copy; never waits for the
    /// network thread).
    public func receivers() -> [ReceiverStatus] {
        registry.directory.withLock { Array($0.receivers.values) }.sorted { $0.id < $1.id }
    }

    /// CPU seconds the network thread has used (for benchmarks; 0 once shut down).
    public func networkThreadCPUSeconds() async -> Double {
        guard !isShutDown.load(ordering: .acquiring) else { return 0 }
        return (try? await loop.submit { () -> Double in
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
        }.get()) ?? 0
    }

    /// Accepted remote frames since the last call (oldest first).
    public func takeRemoteFrames() -> [RemoteFrame] {
        inbox.withLock { frames in defer { frames.removeAll(keepingCapacity: true) }; return frames }
    }

    /// Sends one received frame to the Beast and AVR outputs, and, when `message` is given,
    /// its SBS line to the SBS outputs (`position`: the aircraft's position if this message
    /// gave one; `time`: Unix seconds of reception, printed as local time). Never blocks.
    public func publish(_ received: ReceivedFrame, message: ModeSMessage? = nil,
                        position: (lat: Double, lon: Double)? = nil, at time: Double? = nil) {
        let beast = registry.beastClients.load(ordering: .relaxed) > 0
        let avr = registry.avrClients.load(ordering: .relaxed) > 0
        let sbs = message != nil && registry.sbsClients.load(ordering: .relaxed) > 0
        let reduceKind = registry.beastReduceClients.load(ordering: .relaxed) > 0
            ? message.flatMap { BeastReducer.kind(of: received.frame, address: $0.address) } : nil
        guard beast || avr || sbs || reduceKind != nil, !isShutDown.load(ordering: .relaxed) else { return }
        if inFlight.load(ordering: .relaxed) >= options.maxInFlightFrames {
            framesDropped.add(1, ordering: .relaxed)
            return
        }
        let beastBytes = beast || reduceKind != nil ? BeastFrame(received).bytes : nil
        let reduceTime = reduceKind == nil ? 0 : time ?? Date().timeIntervalSince1970
        let avrLine = avr ? AVRLine.format(received, timestamps: options.avrTimestamps) + "\n" : nil
        let sbsLine: String? = sbs ? message.flatMap { message in
            let t = SBSTime(unixTime: time ?? Date().timeIntervalSince1970)
            return SBSLine.format(message, position: position, generated: t, logged: t)
        } : nil
        inFlight.add(1, ordering: .relaxed)
        loop.execute { [registry, self] in
            self.inFlight.subtract(1, ordering: .relaxed)
            if let beastBytes, beast { registry.broadcast(ByteBuffer(bytes: beastBytes), to: .beast) }
            if let beastBytes, let reduceKind, registry.reducer.admit(reduceKind, at: reduceTime) {
                registry.broadcast(ByteBuffer(bytes: beastBytes), to: .beastReduce)
            }
            if let avrLine { registry.broadcast(ByteBuffer(string: avrLine), to: .avr) }
            if let sbsLine { registry.broadcast(ByteBuffer(string: sbsLine), to: .sbs) }
        }
    }

    // MARK: - Internals

    func deliver(_ remote: RemoteFrame) {
        onRemoteFrame?(remote)
        guard inboxLimit > 0 else { return }
        let kept = inbox.withLock { frames -> Bool in
            guard frames.count < inboxLimit else { return false }
            frames.append(remote)
            return true
        }
        if !kept { inboxOverflow.add(1, ordering: .relaxed) }
    }

    /// Adds the handlers for a connection of `kind` to `channel` (on its loop).
    /// `announce`: send this receiver's `ReceiverAnnouncement` first (`beast_out` and
    /// `beast_reduce_plus_out` connectors).
    func configure(_ channel: Channel, as kind: FeedListener, announce: Bool = false) throws {
        switch kind {
        case .output(let output):
            let hello = announce ? options.announcement?.bytes : nil
            try channel.pipeline.syncOperations.addHandler(OutputClientHandler(kind: output, registry: registry, announcement: hello))
        case .input(let input):
            let idle = TimeAmount.milliseconds(Int64(options.limits.inputIdleTimeout * 1000))
            try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idle))
            try channel.pipeline.syncOperations.addHandler(InputClientHandler(source: input, registry: registry) { [self] in deliver($0) })
        }
    }

    /// Counts a connection accepted on a listening port against `FeedLimits`; closes it at
    /// once when a bound is reached (told as `FeedEvent.refused`). True when admitted.
    func admit(_ channel: Channel) -> Bool {
        let port = channel.localAddress?.port ?? 0
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        if let reason = registry.admitConnection(port: port, address: address) {
            registry.emit(.refused(peer: address, reason: reason), now: Date().timeIntervalSince1970)
            channel.close(promise: nil)
            return false
        }
        channel.closeFuture.whenComplete { [registry] _ in registry.releaseConnection(port: port, address: address) }
        return true
    }

    private func bind(_ kind: FeedListener, port: Int) async throws {
        let o = options
        var bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: o.maxPendingBytes / 2, high: o.maxPendingBytes))
        if let size = o.socketSendBuffer {
            bootstrap = bootstrap.childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        let channel = try await bootstrap.childChannelInitializer { [self] channel in
            channel.eventLoop.makeCompletedFuture {
                guard admit(channel) else { return }
                try configure(channel, as: kind)
            }
        }
        .bind(host: o.bindHost, port: port).get()
        listeners.withLock { $0.append((kind, channel)) }
    }

    static func sendHeartbeats(registry: FeedRegistry, idleFor interval: Double) {
        let now = NIODeadline.now()
        let idle = TimeAmount.milliseconds(Int64(interval * 1000))
        for kind in [FeedOutput.beast, .beastReduce, .avr] {
            if let last = registry.lastWrite[kind], now - last < idle { continue }
            switch kind {
            case .beast, .beastReduce: registry.broadcast(ByteBuffer(bytes: BeastFrame.heartbeat.bytes), to: kind)
            case .avr: registry.broadcast(ByteBuffer(string: "*0000;\n"), to: .avr)
            case .sbs: break
            }
        }
    }
}

/// What a listening port serves.
public enum FeedListener: Sendable, Hashable {
    case output(FeedOutput)
    case input(FeedInput)
}
