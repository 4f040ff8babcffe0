import Foundation
import Hummingbird
import Store

/// An aircraft's visits from the sighting log, and the path one of them flew:
///
/// - `GET /api/aircraft/{hex}/visits` (`limit` 1…1000, default 50): `{"hex", "visits": [Visit]}`,
///   newest first, a visit as the store keeps it (`firstSeen`, `lastSeen`, `callsigns`,
///   `registration`, `typeCode`, `minAltitude`, `maxAltitude`, `closestDistance`, …);
/// - `GET /api/aircraft/{hex}/visits/{n}/path` (`n` = 1 for the latest visit): `VisitPath`
///   (`start`, `end`, `duration` s, `distance` NM, `averageSpeed`/`maxSpeed` kt,
///   `minAltitude`/`maxAltitude` ft, `points`: the profile, each `elapsed` s, `distance` NM,
///   `latitude`, `longitude`, `altitude`, `groundSpeed`).
struct VisitsController<Context: RequestContext> {
    let database: any SightingStore

    /// Visits a path can be asked of (the `n` of the path route).
    static var maxVisits: Int { 1000 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("aircraft/{hex}/visits", use: visits)
        group.get("aircraft/{hex}/visits/{n}/path", use: path)
    }

    static func encoded(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .json(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    func address(_ context: Context) throws -> UInt32 {
        guard let hex = context.parameters.get("hex"), hex.count == 6, let address = UInt32(hex, radix: 16) else {
            throw APIError.badRequest("hex must be 6 hexadecimal digits")
        }
        return address
    }

    @Sendable func visits(_ request: Request, context: Context) async throws -> Response {
        let address = try address(context)
        var limit = 50
        for (key, value) in request.uri.queryParameters.map({ (String($0.key), String($0.value)) }) {
            guard key == "limit" else { throw APIError.badRequest("unknown parameter '\(key)'") }
            guard let l = Int(value), (1...Self.maxVisits).contains(l) else { throw APIError.badRequest("limit must be 1...\(Self.maxVisits)") }
            limit = l
        }
        return try await Self.encoded(AircraftVisits(hex: String(format: "%06x", address), visits: try database.sightings.visits(address: address, limit: limit)))
    }

    @Sendable func path(_ request: Request, context: Context) async throws -> Response {
        let address = try address(context)
        guard let text = context.parameters.get("n"), let n = Int(text), (1...Self.maxVisits).contains(n) else {
            throw APIError.badRequest("n must be 1 (the latest visit) to \(Self.maxVisits)")
        }
        guard request.uri.queryParameters.isEmpty else { throw APIError.badRequest("no parameters are taken") }
        let visits = try await database.sightings.visits(address: address, limit: n)
        guard n <= visits.count, let id = visits[n - 1].id else {
            throw APIError.notFound("\(String(format: "%06x", address)) has \(visits.count) visits in the log, no visit \(n)")
        }
        return try await Self.encoded(VisitPath(visitId: id, points: try database.sightings.trackPoints(visitId: id)))
    }
}

/// The answer of `GET /api/aircraft/{hex}/visits`.
struct AircraftVisits: Encodable {
    var hex: String
    var visits: [VisitRecord]
}
