import Hummingbird
import Tracking

/// `/api/aircraft` (filtered list), `/api/aircraft/{hex}` (one aircraft with its recent
/// track), `/api/trails` (every recent track, for the map).
struct AircraftController<Context: RequestContext> {
    let sources: WebSources

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("aircraft", use: list)
        group.get("aircraft/{hex}", use: detail)
        group.get("trails", use: trails)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let pairs = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        let parameters = try AircraftQueryParameters.parse(pairs)
        let snapshot = sources.live.currentSnapshot
        return .json(APIDocuments.aircraftList(snapshot, matching: parameters, now: sources.clock()))
    }

    @Sendable func detail(_ request: Request, context: Context) async throws -> Response {
        let hex = context.parameters.get("hex") ?? ""
        guard let key = AircraftKey(hex: hex.lowercased()) else {
            throw APIError.badRequest("'\(hex)' is not an aircraft address (6 hex digits, '~' prefix for non-ICAO)")
        }
        let snapshot = sources.live.currentSnapshot
        guard let aircraft = snapshot.aircraft(key) else { throw APIError.notFound("no aircraft \(key.hex) in view") }
        let track = sources.tracks?.track(for: key) ?? []
        return .json(APIDocuments.aircraftDetail(aircraft, track: track, at: snapshot.time, now: sources.clock()))
    }

    @Sendable func trails(_ request: Request, context: Context) async throws -> Response {
        let snapshot = sources.live.currentSnapshot
        let all = sources.tracks?.allTracks() ?? [:]
        let shown = Set(snapshot.aircraft.map(\.key))
        return .json(APIDocuments.trails(all.filter { shown.contains($0.key) }, time: snapshot.time))
    }
}
