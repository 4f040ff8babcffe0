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

    /// `?receiver=ID` keeps the aircraft that receiver of a network hears (other parameters,
    /// such as tar1090's cache-busting `_`, are ignored as readsb does).
    @Sendable func aircraft(_ request: Request, context: Context) async throws -> Response {
        let snapshot = sources.live.currentSnapshot
        if let text = request.uri.queryParameters["receiver"].map(String.init) {
            guard let id = ReceiverID.parse(text) else {
                throw APIError.badRequest("receiver must be 1 to 64 printable characters")
            }
            let shown = snapshot.filter(AircraftQuery(receiver: id))
            let filtered = TableSnapshot(time: snapshot.time, aircraft: shown, counters: snapshot.counters,
                                         receiver: snapshot.receiver, receiverEstimate: snapshot.receiverEstimate, tracked: snapshot.tracked)
            return .json(AircraftJSON.document(filtered, now: sources.clock(), messages: snapshot.counters.messages))
        }
        return .json(AircraftJSON.document(snapshot, now: sources.clock()))
    }

    @Sendable func receiver(_ request: Request, context: Context) async throws -> Response {
        let info = sources.receiver
        let snapshot = sources.live.currentSnapshot
        let position = snapshot.receiverPosition(configured: info.position)
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
