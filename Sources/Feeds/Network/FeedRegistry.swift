import Foundation
import ModeS
import NIOCore
import Synchronization
import Tracking

/// Kinds of output stream a client can receive.
public enum FeedOutput: String, Sendable, Hashable, CaseIterable {
    case beast, avr, sbs
    /// Beast thinned per aircraft and kind of message (`BeastReducer`), as readsb's BeastReduce.
    case beastReduce = "beast_reduce"
}

/// Kinds of input stream the feeds read.
public enum FeedInput: String, Sendable, Hashable, CaseIterable {
    case beast, avr
}

/// A frame that arrived from the network and passed the parity check and acceptance rule.
public struct RemoteFrame: Sendable, Hashable {
    /// The frame as the remote sent it (its timestamp is the remote's 12 MHz counter).
    public var received: ReceivedFrame
    /// Parity outcome (corrections applied), ready for `ModeSMessage(parity)`.
    public var parity: ParityResult
    /// Which input format it came in.
    public var source: FeedInput
    /// Unix time (seconds) it arrived here.
    public var arrival: Double
    /// The receiver of a network that delivered it (its announced id, or its address).
    public var hearing: Hearing?
    /// A copy of a transmission another receiver delivered first (`FrameMerger`): apply it
    /// with `AircraftTable.hear`, not `apply`.
    public var merged = false
}

/// Counters of the network feeds (all since start).
public struct FeedStatistics: Sendable, Hashable {
    /// Clients connected now, per output (server clients and outbound connectors).
    public var clients: [FeedOutput: Int] = [:]
    /// Clients accepted since start, all kinds.
    public var clientsAccepted = 0
    /// Clients dropped because their queue was full.
    public var clientsDropped = 0
    /// Frames not sent because the network thread was too far behind.
    public var framesDropped = 0
    /// Frames read from inputs (before the parity check).
    public var remoteFrames = 0
    /// Input frames accepted (parity ok and acceptance rule passed).
    public var remoteAccepted = 0
    /// Input frames rejected by the parity check or acceptance rule, or MLAT results.
    public var remoteRejected = 0
    /// Of `remoteRejected`: address/parity frames from an address not heard in the clear.
    public var remoteUnknownAddress = 0
    /// Accepted input frames lost because the inbox was full.
    public var remoteOverflow = 0
    /// Accepted input frames that were another receiver's copy of one transmission.
    public var remoteMerged = 0
    /// Input connections closed for sending garbage.
    public var inputsClosedForGarbage = 0
    /// Input connections closed for sending nothing (`FeedLimits.inputIdleTimeout`).
    public var inputsClosedIdle = 0
    /// Connections refused at a `FeedLimits` bound (connections, or receivers of a network).
    public var connectionsRefused = 0
    /// Connections open now on the listening ports (outbound connectors not counted).
    public var connectionsOpen = 0
    /// Outbound connections made (including reconnections).
    public var connectorConnects = 0

    public init() {}
}

/// Per-client output state lives on the event loop; this is the loop-confined registry of
/// connected output clients and the remote-frame acceptance state. What other threads read
/// (the counters, the receiver directory, clients per output) sits behind a lock or in
/// atomics, written only on the loop: a reader takes a copy and never waits for the loop.
final class FeedRegistry: @unchecked Sendable {
    let loop: EventLoop
    let maxPendingBytes: Int
    private var clients: [FeedOutput: [ObjectIdentifier: Channel]] = [:]
    private var addressFilter = AddressFilter()
    private var merger: FrameMerger
    /// The receivers of a network (written on the loop, copied by `FeedHub.receivers()`).
    let directory: Mutex<ReceiverDirectory>
    let limits: FeedLimits
    var connections = ConnectionCounter()
    private var throttle: EventThrottle
    private let onEvent: (@Sendable (FeedEvent) -> Void)?
    /// Set by the hub on shutdown: no more reconnects.
    var stopping = false
    /// The counters since start (written on the loop, copied by `FeedHub.statistics()`).
    let stats = Mutex(FeedStatistics())
    var lastWrite: [FeedOutput: NIODeadline] = [:]
    /// Clients per output, readable from any thread (so `publish` skips unused outputs).
    let beastClients = Atomic<Int>(0)
    let avrClients = Atomic<Int>(0)
    let sbsClients = Atomic<Int>(0)
    let beastReduceClients = Atomic<Int>(0)
    /// What the reduced Beast output has passed recently (loop-confined).
    var reducer: BeastReducer

    private func changeCount(_ kind: FeedOutput, by delta: Int) {
        switch kind {
        case .beast: beastClients.add(delta, ordering: .relaxed)
        case .avr: avrClients.add(delta, ordering: .relaxed)
        case .sbs: sbsClients.add(delta, ordering: .relaxed)
        case .beastReduce: beastReduceClients.add(delta, ordering: .relaxed)
        }
    }

    init(loop: EventLoop, maxPendingBytes: Int, mergeWindow: Double = 0.5, limits: FeedLimits = FeedLimits(),
         reduceInterval: Double = 0.25, onEvent: (@Sendable (FeedEvent) -> Void)? = nil) {
        self.loop = loop
        reducer = BeastReducer(interval: reduceInterval)
        self.maxPendingBytes = maxPendingBytes
        merger = FrameMerger(window: mergeWindow)
        self.limits = limits
        directory = Mutex(ReceiverDirectory(capacity: limits.maxReceivers, expiry: limits.receiverExpiry))
        throttle = EventThrottle(limit: limits.eventsPerWindow, window: limits.eventWindow)
        self.onEvent = onEvent
    }

    /// Tells the operator about `event`, at most `FeedLimits.eventsPerWindow` of a kind per
    /// window (the rest are summed up in one line).
    func emit(_ event: FeedEvent, now: Double) {
        guard let onEvent else { return }
        for e in throttle.filter(event, now: now) { onEvent(e) }
    }

    func add(_ channel: Channel, as kind: FeedOutput) {
        loop.preconditionInEventLoop()
        guard !stopping else { channel.close(promise: nil); return }
        if clients[kind, default: [:]].updateValue(channel, forKey: ObjectIdentifier(channel)) == nil { changeCount(kind, by: 1) }
        stats.withLock { $0.clientsAccepted += 1 }
    }

    func remove(_ channel: Channel, as kind: FeedOutput) {
        loop.preconditionInEventLoop()
        if clients[kind]?.removeValue(forKey: ObjectIdentifier(channel)) != nil { changeCount(kind, by: -1) }
    }

    /// Counts a connection accepted on a listening port against `FeedLimits`: why it is
    /// refused (counted as refused), or nil when admitted (counted as open).
    func admitConnection(port: Int, address: String) -> String? {
        loop.preconditionInEventLoop()
        let refusal = connections.admit(port: port, address: address, limits: limits)
        let open = connections.total
        stats.withLock { s in
            if refusal != nil { s.connectionsRefused += 1 }
            s.connectionsOpen = open
        }
        return refusal
    }

    /// A connection `admitConnection` admitted closed.
    func releaseConnection(port: Int, address: String) {
        loop.preconditionInEventLoop()
        connections.release(port: port, address: address)
        let open = connections.total
        stats.withLock { $0.connectionsOpen = open }
    }

    var allChannels: [Channel] { clients.values.flatMap { $0.values } }

    /// Writes `bytes` to every client of `kind`; a client whose queue is over its limit is
    /// closed instead. Flushes once per loop turn.
    func broadcast(_ bytes: ByteBuffer, to kind: FeedOutput) {
        loop.preconditionInEventLoop()
        guard let group = clients[kind], !group.isEmpty else { return }
        lastWrite[kind] = .now()
        for (id, channel) in group {
            if !channel.isWritable || !channel.isActive {
                if clients[kind]?.removeValue(forKey: id) != nil { changeCount(kind, by: -1) }
                if channel.isActive { stats.withLock { $0.clientsDropped += 1 } }
                channel.close(promise: nil)
                continue
            }
            channel.writeAndFlush(bytes, promise: nil)
        }
    }

    /// Parity check and acceptance rule for a frame that came in from the network.
    /// `hearing`: the receiver the connection speaks for, asked only once the frame passed
    /// (so a connection binds to a receiver id only by sending a valid frame); its copies of
    /// one transmission are merged with other receivers' (`FrameMerger`). `rejectedBy`: the
    /// receiver the connection is already bound to, charged with a failed frame.
    func accept(_ received: ReceivedFrame, source: FeedInput, now: Double, rejectedBy: ReceiverID? = nil,
                hearing: () -> Hearing? = { nil }) -> RemoteFrame? {
        loop.preconditionInEventLoop()
        guard let parity = addressFilter.accept(received.frame, at: now) else {
            let unknown = ParityCheck.isAddressParity(received.frame.downlinkFormat)
            stats.withLock { s in
                s.remoteFrames += 1
                s.remoteRejected += 1
                if unknown { s.remoteUnknownAddress += 1 }
            }
            if let id = rejectedBy { directory.withLock { $0.count(id, accepted: false, merged: false, at: now) } }
            return nil
        }
        let hearing = hearing()
        var merged = false
        if let id = hearing?.receiver {
            merged = directory.withLock { d in
                let merged = !merger.admit(parity.frame, receiver: d.index(of: id), at: now)
                d.count(id, accepted: true, merged: merged, at: now)
                return merged
            }
        }
        stats.withLock { s in
            s.remoteFrames += 1
            s.remoteAccepted += 1
            if merged { s.remoteMerged += 1 }
        }
        return RemoteFrame(received: received, parity: parity, source: source, arrival: now, hearing: hearing, merged: merged)
    }

    /// Moves an input connection from receiver `old` (nil: new connection) to `new`; false
    /// when `new` is refused (the directory is full of connected receivers): the connection
    /// then speaks for nobody and should be closed.
    func rebind(from old: ReceiverID?, to new: ReceiverID, peer: String, now: Double) -> Bool {
        loop.preconditionInEventLoop()
        let (connected, capacity) = directory.withLock { d in
            if let old { d.disconnect(old, now: now) }
            return (d.connect(new, peer: peer, now: now), d.capacity)
        }
        guard connected else {
            stats.withLock { $0.connectionsRefused += 1 }
            emit(.tooManyReceivers(new, peer: peer, limit: capacity), now: now)
            return false
        }
        emit(.receiverConnected(new, peer: peer), now: now)
        return true
    }

    /// An input connection that spoke for `id` closed.
    func disconnected(_ id: ReceiverID, peer: String, now: Double) {
        loop.preconditionInEventLoop()
        directory.withLock { $0.disconnect(id, now: now) }
        emit(.receiverDisconnected(id, peer: peer), now: now)
    }

    /// The counters now, from any thread, without waiting for the loop.
    func snapshot() -> FeedStatistics {
        var s = stats.withLock { $0 }
        for kind in FeedOutput.allCases { s.clients[kind] = clientCount(kind) }
        return s
    }

    /// Clients of `kind` connected now, from any thread.
    func clientCount(_ kind: FeedOutput) -> Int {
        switch kind {
        case .beast: beastClients.load(ordering: .relaxed)
        case .avr: avrClients.load(ordering: .relaxed)
        case .sbs: sbsClients.load(ordering: .relaxed)
        case .beastReduce: beastReduceClients.load(ordering: .relaxed)
        }
    }
}
