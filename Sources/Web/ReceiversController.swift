import Feeds
import Hummingbird
import Synchronization
import Tracking

/// One receiver of a network as `/api/receivers` shows it: what the feeds know of it and
/// what it covers in the merged table.
public struct NetworkReceiver: Sendable, Hashable {
    public var status: ReceiverStatus
    public var coverage: ReceiverCoverage

    public init(status: ReceiverStatus, coverage: ReceiverCoverage) {
        self.status = status
        self.coverage = coverage
    }
}

/// Gives `/api/receivers` the receivers feeding an aggregator. Called once per request.
public protocol ReceiverNetworkSource: Sendable {
    func networkReceivers() -> [NetworkReceiver]
}

/// The receivers as `run` last published them (once a second).
public final class PublishedReceivers: ReceiverNetworkSource {
    private let receivers = Mutex<[NetworkReceiver]>([])

    public init() {}

    public func publish(_ list: [NetworkReceiver]) {
        receivers.withLock { $0 = list }
    }

    public func networkReceivers() -> [NetworkReceiver] {
        receivers.withLock { $0 }
    }
}

/// `/api/receivers`: every receiver that has fed this aggregator, with its coverage.
struct ReceiversController<Context: RequestContext> {
    let sources: WebSources

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("receivers", use: list)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        .json(APIDocuments.receivers(sources.network?.networkReceivers() ?? [], now: sources.clock()))
    }
}

extension APIDocuments {
    /// `{"now": s, "receivers": [{id, name, lat, lon, connected, peer, connects, frames,
    /// merged, rejected, garbage_bytes, last_frame (s ago), aircraft, with_position,
    /// range_now (NM), max_range (NM), sectors [12 × NM, 0°…30° first]}]}`.
    public static func receivers(_ list: [NetworkReceiver], now: Double) -> String {
        var w = JSONWriter()
        w.add("now", now, decimals: 1)
        w.addRaw("receivers", JSONWriter.array(list.map { r in
            let s = r.status, c = r.coverage
            var o = JSONWriter()
            o.add("id", s.id.rawValue)
            o.add("name", s.name)
            o.add("lat", s.position?.latitude, decimals: 5)
            o.add("lon", s.position?.longitude, decimals: 5)
            o.add("connected", s.isConnected)
            o.add("peer", s.peer)
            o.add("connects", s.connects)
            o.add("frames", s.frames)
            o.add("merged", s.merged)
            o.add("rejected", s.rejected)
            o.add("garbage_bytes", s.garbageBytes)
            o.add("last_frame", s.lastFrame.map { max(0, now - $0) }, decimals: 1)
            o.add("aircraft", c.aircraft)
            o.add("with_position", c.withPosition)
            o.add("range_now", c.rangeNow, decimals: 1)
            o.add("max_range", c.maxRange, decimals: 1)
            o.addRaw("sectors", "[" + c.sectors.map { String(Int($0.rounded())) }.joined(separator: ",") + "]")
            return o.finish()
        }))
        return w.finish()
    }
}
