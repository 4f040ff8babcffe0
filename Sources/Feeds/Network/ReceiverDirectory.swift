import ModeS
import Tracking

/// One receiver of a network as the aggregator knows it (`FeedHub.receivers()`).
/// Times are Unix seconds.
public struct ReceiverStatus: Sendable, Hashable {
    public var id: ReceiverID
    public var name: String?
    /// Position the receiver announced.
    public var position: Coordinate?
    /// Address of its latest connection.
    public var peer: String
    /// Connections open now, and made since start.
    public var connections = 0
    public var connects = 0
    public var firstConnected: Double
    public var lastConnected: Double
    public var lastDisconnected: Double?
    /// Arrival of its latest accepted frame.
    public var lastFrame: Double?
    /// Frames accepted from it, and of those the copies merged into another receiver's.
    public var frames = 0
    public var merged = 0
    /// Frames that failed the parity check or acceptance rule.
    public var rejected = 0
    /// Bytes of its streams that were not Beast frames.
    public var garbageBytes = 0

    public var isConnected: Bool { connections > 0 }

    public init(id: ReceiverID, name: String? = nil, position: Coordinate? = nil, peer: String,
                firstConnected: Double, lastConnected: Double) {
        self.id = id
        self.name = name
        self.position = position
        self.peer = peer
        self.firstConnected = firstConnected
        self.lastConnected = lastConnected
    }
}

/// Something the network side did that an operator should hear about.
public enum FeedEvent: Sendable, Hashable, CustomStringConvertible {
    case receiverConnected(ReceiverID, peer: String)
    case receiverDisconnected(ReceiverID, peer: String)
    /// A receiver announced an id already connected from another address: its frames are
    /// kept under `as` (two receivers with one UUID, for example a cloned SD card).
    case duplicateID(ReceiverID, peer: String, as: ReceiverID)
    /// A malformed receiver announcement (ignored).
    case badAnnouncement(peer: String)
    /// A connection closed for sending no Beast (bytes of garbage read).
    case garbage(peer: String, bytes: Int)
    /// A connection refused because a `FeedLimits` bound was reached.
    case refused(peer: String, reason: String)
    /// An input connection closed after sending nothing for `seconds`.
    case idle(peer: String, seconds: Int)
    /// A receiver id refused: the directory is full of connected receivers.
    case tooManyReceivers(ReceiverID, peer: String, limit: Int)
    /// Events of one kind not logged in the last window (`FeedLimits.eventsPerWindow`).
    case suppressed(kind: String, count: Int, seconds: Int)

    /// The event's kind, for rate limits (`EventThrottle`).
    public var kind: String {
        switch self {
        case .receiverConnected: "connected"
        case .receiverDisconnected: "disconnected"
        case .duplicateID: "duplicate-id"
        case .badAnnouncement: "bad-announcement"
        case .garbage: "garbage"
        case .refused: "refused"
        case .idle: "idle"
        case .tooManyReceivers: "too-many-receivers"
        case .suppressed: "suppressed"
        }
    }

    public var description: String {
        switch self {
        case .receiverConnected(let id, let peer): "receiver \(id) connected from \(peer)"
        case .receiverDisconnected(let id, let peer): "receiver \(id) disconnected (\(peer))"
        case .duplicateID(let id, let peer, let alias):
            "receiver id \(id) is already connected from another address; frames from \(peer) are kept as \(alias) (give each receiver its own --receiver-id)"
        case .badAnnouncement(let peer): "malformed receiver announcement from \(peer) ignored"
        case .garbage(let peer, let bytes): "closed input from \(peer): \(bytes) bytes that are not Beast"
        case .refused(let peer, let reason): "refused a connection from \(peer): \(reason)"
        case .idle(let peer, let seconds): "closed input from \(peer): nothing received for \(seconds) s"
        case .tooManyReceivers(let id, let peer, let limit):
            "refused receiver \(id) from \(peer): \(limit) receivers connected (--net-max-receivers)"
        case .suppressed(let kind, let count, let seconds): "\(count) more '\(kind)' messages in the last \(seconds) s not shown"
        }
    }
}

/// The receivers known to the hub (loop-confined, inside `FeedRegistry`): which receiver
/// each input connection speaks for, their counters, and the small index the merger uses.
///
/// Bounded: at most `capacity` receivers; one whose connections all closed more than
/// `expiry` seconds ago is forgotten (`expire`), and when a new id finds the directory full
/// the one silent longest makes room. Only when every receiver is connected is a new id
/// refused (`connect` returns false).
struct ReceiverDirectory {
    private(set) var receivers: [ReceiverID: ReceiverStatus] = [:]
    private var indexes: [ReceiverID: Int] = [:]
    private var nextIndex = 0
    let capacity: Int
    let expiry: Double

    init(capacity: Int = FeedLimits().maxReceivers, expiry: Double = FeedLimits().receiverExpiry) {
        self.capacity = max(1, capacity)
        self.expiry = expiry
    }

    /// The merger's index of `id` (assigned on first sight).
    mutating func index(of id: ReceiverID) -> Int {
        if let i = indexes[id] { return i }
        let i = nextIndex
        nextIndex += 1
        indexes[id] = i
        return i
    }

    /// Forgets receivers with no connection whose last one closed `expiry` seconds before `now`.
    mutating func expire(now: Double) {
        for (id, s) in receivers where !s.isConnected && now - (s.lastDisconnected ?? s.lastConnected) >= expiry {
            forget(id)
        }
    }

    private mutating func forget(_ id: ReceiverID) {
        receivers[id] = nil
        indexes[id] = nil
    }

    /// Room for one more receiver: expired ones go, then the one silent longest. False when
    /// every receiver is connected.
    private mutating func makeRoom(now: Double) -> Bool {
        guard receivers.count >= capacity else { return true }
        expire(now: now)
        guard receivers.count >= capacity else { return true }
        let idle = receivers.values.filter { !$0.isConnected }
        guard let oldest = idle.min(by: { ($0.lastDisconnected ?? $0.lastConnected) < ($1.lastDisconnected ?? $1.lastConnected) }) else {
            return false
        }
        forget(oldest.id)
        return true
    }

    /// The id frames announced as `announced` from `peer` are kept under: the announced id
    /// (or `peer-ADDRESS`), unless that id is connected now from another address.
    func resolve(_ announced: ReceiverID?, peer: String) -> ReceiverID {
        let id = announced ?? .peer(peer)
        guard let known = receivers[id], known.isConnected, known.peer != peer else { return id }
        let suffix = "@" + peer
        let base = String(id.rawValue.utf8.prefix(ReceiverID.maxLength - suffix.utf8.count)) ?? id.rawValue
        return ReceiverID(rawValue: base + suffix) ?? .peer(peer)
    }

    /// Counts a connection of `id` from `peer`; false (nothing changed) when `id` is new and
    /// the directory is full of connected receivers.
    mutating func connect(_ id: ReceiverID, peer: String, now: Double) -> Bool {
        if receivers[id] == nil, !makeRoom(now: now) { return false }
        var s = receivers[id] ?? ReceiverStatus(id: id, peer: peer, firstConnected: now, lastConnected: now)
        s.peer = peer
        s.connections += 1
        s.connects += 1
        s.lastConnected = now
        receivers[id] = s
        return true
    }

    mutating func disconnect(_ id: ReceiverID, now: Double) {
        guard var s = receivers[id] else { return }
        s.connections = max(0, s.connections - 1)
        s.lastDisconnected = now
        receivers[id] = s
    }

    mutating func describe(_ id: ReceiverID, name: String?, position: Coordinate?) {
        if let name { receivers[id]?.name = name }
        if let position { receivers[id]?.position = position }
    }

    mutating func count(_ id: ReceiverID, accepted: Bool, merged: Bool, at now: Double) {
        guard var s = receivers[id] else { return }
        if accepted {
            s.frames += 1
            if merged { s.merged += 1 }
            s.lastFrame = now
        } else {
            s.rejected += 1
        }
        receivers[id] = s
    }

    mutating func addGarbage(_ id: ReceiverID, bytes: Int) {
        receivers[id]?.garbageBytes += bytes
    }
}
