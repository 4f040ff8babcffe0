/// Bounds on what the network side holds for connections it did not ask for: how many
/// connections, how long a silent input may stay, how many receivers of a network it keeps
/// and how often it logs. Every figure is per `FeedHub`; each has a `flytracker run`
/// option or a stated default (README "Limits").
public struct FeedLimits: Sendable, Hashable {
    /// Connections open at once over every listening port together (`--net-max-connections`).
    /// A connection beyond it is closed at once. A systemd service has 1 024 file
    /// descriptors; the default leaves room for the web server, the database and the dongle.
    public var maxConnections: Int
    /// Connections open at once on one listening port.
    public var maxConnectionsPerPort: Int
    /// Connections open at once from one remote address (all ports together). This
    /// machine's own loopback address is not limited (`isThisMachine`): local feeders and
    /// mlat-client connect from there, many at once.
    public var maxConnectionsPerAddress: Int
    /// Seconds an input connection may send nothing before it is closed (a feeder sends
    /// frames or a heartbeat at least every minute). Outputs are bounded by their queue
    /// instead (`FeedOptions.maxPendingBytes`).
    public var inputIdleTimeout: Double
    /// Receivers of a network kept in the directory (`--net-max-receivers`): beyond it, the
    /// one silent longest is forgotten; when every one is connected, a new id is refused
    /// and its connection closed.
    public var maxReceivers: Int
    /// Seconds after its last connection closed that a receiver is forgotten.
    public var receiverExpiry: Double
    /// Operator messages (`FeedEvent`) of one kind logged per `eventWindow` seconds; the
    /// rest are counted and reported as one line when the window ends.
    public var eventsPerWindow: Int
    public var eventWindow: Double

    public init(maxConnections: Int = 512, maxConnectionsPerPort: Int = 256, maxConnectionsPerAddress: Int = 32,
                inputIdleTimeout: Double = 300, maxReceivers: Int = 500, receiverExpiry: Double = 3600,
                eventsPerWindow: Int = 20, eventWindow: Double = 60) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerPort = maxConnectionsPerPort
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.inputIdleTimeout = inputIdleTimeout
        self.maxReceivers = maxReceivers
        self.receiverExpiry = receiverExpiry
        self.eventsPerWindow = eventsPerWindow
        self.eventWindow = eventWindow
    }
}

extension FeedLimits {
    /// The loopback addresses programs on this machine connect from by default (127.0.0.1,
    /// ::1): per-address limits do not apply to them (a local reverse proxy or feeder
    /// stands for many clients); the other bounds do.
    public static func isThisMachine(_ address: String) -> Bool {
        address == "127.0.0.1" || address == "::1" || address == "::ffff:127.0.0.1"
    }
}

/// Counts open connections per listening port and per remote address against `FeedLimits`
/// (loop-confined, inside `FeedRegistry`).
struct ConnectionCounter {
    private(set) var total = 0
    private var perPort: [Int: Int] = [:]
    private var perAddress: [String: Int] = [:]

    /// Why a new connection from `address` on `port` is refused, or nil (then it is counted).
    mutating func admit(port: Int, address: String, limits: FeedLimits) -> String? {
        if total >= limits.maxConnections { return "\(limits.maxConnections) connections open (the most in all)" }
        if perPort[port, default: 0] >= limits.maxConnectionsPerPort {
            return "\(limits.maxConnectionsPerPort) connections open on port \(port) (the most on one port)"
        }
        if !FeedLimits.isThisMachine(address), perAddress[address, default: 0] >= limits.maxConnectionsPerAddress {
            return "\(limits.maxConnectionsPerAddress) connections open from \(address) (the most from one address)"
        }
        total += 1
        perPort[port, default: 0] += 1
        perAddress[address, default: 0] += 1
        return nil
    }

    /// A connection `admit` counted closed.
    mutating func release(port: Int, address: String) {
        total = max(0, total - 1)
        if let n = perPort[port] { perPort[port] = n > 1 ? n - 1 : nil }
        if let n = perAddress[address] { perAddress[address] = n > 1 ? n - 1 : nil }
    }
}

/// Lets at most `limit` events of each kind through per `window` seconds; the others are
/// counted and reported once the window has passed (`FeedEvent.suppressed`).
struct EventThrottle {
    let limit: Int
    let window: Double
    private var windows: [String: (start: Double, passed: Int, held: Int)] = [:]

    init(limit: Int, window: Double) {
        self.limit = limit
        self.window = window
    }

    /// The events to log now for `event` at `now`: none (held back), the event, or a
    /// summary of the ones held in the last window followed by the event.
    mutating func filter(_ event: FeedEvent, now: Double) -> [FeedEvent] {
        let kind = event.kind
        var w = windows[kind] ?? (now, 0, 0)
        var out: [FeedEvent] = []
        if now - w.start >= window {
            if w.held > 0 { out.append(.suppressed(kind: kind, count: w.held, seconds: Int(window))) }
            w = (now, 0, 0)
        }
        if w.passed < limit {
            w.passed += 1
            out.append(event)
        } else {
            w.held += 1
        }
        windows[kind] = w
        return out
    }
}
