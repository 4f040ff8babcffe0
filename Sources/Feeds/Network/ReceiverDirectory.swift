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

    public var description: String {
        switch self {
        case .receiverConnected(let id, let peer): "receiver \(id) connected from \(peer)"
        case .receiverDisconnected(let id, let peer): "receiver \(id) disconnected (\(peer))"
        case .duplicateID(let id, let peer, let alias):
            "receiver id \(id) is already connected from another address; frames from \(peer) are kept as \(alias) (give each receiver its own --receiver-id)"
        case .badAnnouncement(let peer): "malformed receiver announcement from \(peer) ignored"
        case .garbage(let peer, let bytes): "closed input from \(peer): \(bytes) bytes that are not Beast"
        }
    }
}

/// The receivers known to the hub (loop-confined, inside `FeedRegistry`): which receiver
/// each input connection speaks for, their counters, and the small index the merger uses.
struct ReceiverDirectory {
    private(set) var receivers: [ReceiverID: ReceiverStatus] = [:]
    private var indexes: [ReceiverID: Int] = [:]

    /// The merger's index of `id` (assigned on first sight).
    mutating func index(of id: ReceiverID) -> Int {
        if let i = indexes[id] { return i }
        let i = indexes.count
        indexes[id] = i
        return i
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

    mutating func connect(_ id: ReceiverID, peer: String, now: Double) {
        var s = receivers[id] ?? ReceiverStatus(id: id, peer: peer, firstConnected: now, lastConnected: now)
        s.peer = peer
        s.connections += 1
        s.connects += 1
        s.lastConnected = now
        receivers[id] = s
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
