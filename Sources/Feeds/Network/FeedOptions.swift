/// Which ports and connections the network feeds open (DESIGN.md "Ecosystem conventions").
/// An empty port list disables that service; port 0 asks the system for a free port (tests).
public struct FeedOptions: Sendable, Hashable {
    /// Address the servers listen on.
    public var bindHost: String
    public var beastOutPorts: [Int]
    public var avrOutPorts: [Int]
    public var sbsOutPorts: [Int]
    /// readsb's BeastReduce output ports (`BeastReducer`).
    public var beastReduceOutPorts: [Int] = []
    /// Seconds between two reduced messages of one aircraft and kind (readsb: 0.25).
    public var beastReduceInterval: Double = 0.25
    public var beastInPorts: [Int]
    public var avrInPorts: [Int]
    /// Outbound connections (`--net-connector HOST:PORT:PROTOCOL`).
    public var connectors: [FeedConnectorSpec]
    /// A client whose unsent bytes exceed this is dropped (its queue is bounded).
    public var maxPendingBytes: Int
    /// Frames handed to the network thread but not yet sent; beyond this, frames are dropped
    /// (counted) instead of queueing without bound.
    public var maxInFlightFrames: Int
    /// Kernel send buffer of each client socket (SO_SNDBUF); nil = system default.
    public var socketSendBuffer: Int?
    /// Seconds between heartbeats on idle Beast and AVR outputs; nil = none.
    public var heartbeatInterval: Double?
    /// Reconnect back-off of connectors: first delay and ceiling, seconds.
    public var reconnectInitialDelay: Double
    public var reconnectMaximumDelay: Double
    /// Sent first on every outbound Beast connection that announces (`beast_out` and
    /// `beast_reduce_plus_out` connectors): who this receiver is and where (`--receiver-id`
    /// or `--uuid-file`, `--receiver-name`, `--lat/--lon`).
    public var announcement: ReceiverAnnouncement?
    /// Seconds within which identical frames from different receivers are one transmission
    /// (`FrameMerger`); 0 counts every copy.
    public var mergeWindow: Double
    /// What a stranger on the network can make the feeds hold (`FeedLimits`).
    public var limits: FeedLimits
    /// AVR output lines carry the 12 MHz timestamp (`@TTTTTTTTTTTTHEX;`, `--net-ro-timestamps`);
    /// by default they are `*HEX;`, as readsb and dump1090-fa send them (antirez's dump1090
    /// and many AVR clients take only that form).
    public var avrTimestamps = false

    public init(bindHost: String = "0.0.0.0", beastOutPorts: [Int] = [], avrOutPorts: [Int] = [],
                sbsOutPorts: [Int] = [], beastInPorts: [Int] = [], avrInPorts: [Int] = [],
                connectors: [FeedConnectorSpec] = [], maxPendingBytes: Int = 1 << 20,
                maxInFlightFrames: Int = 50_000, socketSendBuffer: Int? = nil,
                heartbeatInterval: Double? = 60, reconnectInitialDelay: Double = 1,
                reconnectMaximumDelay: Double = 30, announcement: ReceiverAnnouncement? = nil,
                mergeWindow: Double = 0.5, limits: FeedLimits = FeedLimits()) {
        self.bindHost = bindHost
        self.beastOutPorts = beastOutPorts
        self.avrOutPorts = avrOutPorts
        self.sbsOutPorts = sbsOutPorts
        self.beastInPorts = beastInPorts
        self.avrInPorts = avrInPorts
        self.connectors = connectors
        self.maxPendingBytes = maxPendingBytes
        self.maxInFlightFrames = maxInFlightFrames
        self.socketSendBuffer = socketSendBuffer
        self.heartbeatInterval = heartbeatInterval
        self.reconnectInitialDelay = reconnectInitialDelay
        self.reconnectMaximumDelay = reconnectMaximumDelay
        self.announcement = announcement
        self.mergeWindow = mergeWindow
        self.limits = limits
    }

    /// The readsb/dump1090 default ports (what `--net` turns on): 30005 Beast out, 30002 AVR
    /// out, 30003 SBS out, 30004 and 30104 Beast in, 30001 AVR in.
    public static var standard: FeedOptions {
        FeedOptions(beastOutPorts: [30005], avrOutPorts: [30002], sbsOutPorts: [30003],
                    beastInPorts: [30004, 30104], avrInPorts: [30001])
    }

    /// True when nothing would be opened.
    public var isEmpty: Bool {
        beastOutPorts.isEmpty && avrOutPorts.isEmpty && sbsOutPorts.isEmpty && beastReduceOutPorts.isEmpty && beastInPorts.isEmpty
            && avrInPorts.isEmpty && connectors.isEmpty
    }

    /// Parses a port option as dump1090 takes it: one port or a comma-separated list;
    /// `0` (or an empty text) disables the service. Nil for anything else.
    public static func ports(_ text: String) -> [Int]? {
        var out: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            guard let p = Int(part.trimmingSpaces), (0...65535).contains(p) else { return nil }
            if p != 0 { out.append(p) }
        }
        return out
    }
}

/// What an outbound connector speaks.
public enum FeedConnectorProtocol: String, Sendable, Hashable, CaseIterable {
    /// We send Beast to the remote.
    case beastOut = "beast_out"
    /// We read Beast from the remote.
    case beastIn = "beast_in"
    /// We send AVR.
    case rawOut = "raw_out"
    /// We read AVR.
    case rawIn = "raw_in"
    /// We send SBS.
    case sbsOut = "sbs_out"
    /// We send reduced Beast (`BeastReducer`).
    case beastReduceOut = "beast_reduce_out"
    /// We send reduced Beast after this receiver's UUID (`ReceiverAnnouncement`), as readsb
    /// feeds the community aggregators.
    case beastReducePlusOut = "beast_reduce_plus_out"

    /// Whether the connection starts with this receiver's announcement.
    public var announces: Bool { self == .beastOut || self == .beastReducePlusOut }
}

/// One `--net-connector HOST:PORT:PROTOCOL`.
public struct FeedConnectorSpec: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var kind: FeedConnectorProtocol

    public init(host: String, port: Int, kind: FeedConnectorProtocol) {
        self.host = host
        self.port = port
        self.kind = kind
    }

    /// Parses `HOST:PORT:PROTOCOL` (the host may be an IPv6 address in brackets or bare;
    /// the last two colons separate port and protocol). Nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let kind = FeedConnectorProtocol(rawValue: String(parts[parts.count - 1])),
              let port = Int(parts[parts.count - 2]), (1...65535).contains(port) else { return nil }
        var host = parts[0..<(parts.count - 2)].joined(separator: ":")
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port, kind: kind)
    }

    public var description: String { "\(host.contains(":") ? "[\(host)]" : host):\(port):\(kind.rawValue)" }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
