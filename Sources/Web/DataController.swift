import Feeds
import Hummingbird
import Tracking

/// `/data/aircraft.json`, `/data/receiver.json`, `/data/stats.json`: the documents
/// dump1090-fa and readsb serve, in their shapes (FORMATS.md), so tar1090 and graphs1090 can
/// be pointed at FlyTracker.
struct DataController<Context: RequestContext> {
    let sources: WebSources

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("aircraft.json", use: aircraft)
        group.get("receiver.json", use: receiver)
        group.get("stats.json", use: stats)
    }

    @Sendable func aircraft(_ request: Request, context: Context) async throws -> Response {
        let snapshot = sources.live.currentSnapshot
        return .json(AircraftJSON.document(snapshot, now: sources.clock()))
    }

    @Sendable func receiver(_ request: Request, context: Context) async throws -> Response {
        let info = sources.receiver
        let snapshot = sources.live.currentSnapshot
        let position = info.position ?? snapshot.receiver ?? snapshot.receiverEstimate
        return .json(ReceiverJSON.document(version: info.version, refresh: info.refresh, position: position))
    }

    @Sendable func stats(_ request: Request, context: Context) async throws -> Response {
        .json(sources.stats.statsDocument(now: sources.clock()))
    }
}

extension Response {
    /// A 200 (or `status`) JSON response from finished JSON text.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
