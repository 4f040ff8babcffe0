import Feeds
import Hummingbird
import Tracking
import Store

/// `GET /api/stats`: the Store's statistics of past visits.
///
/// Parameters: `by` (`type`, `operator`, `category`, `altitude`, `hour`, `day`; default
/// `type`), `since`/`until` (Unix seconds), `type` (ICAO type, exact or with a trailing `*`),
/// `receiver` (a receiver of a network), `limit` (1…1000 rows). Answer: `{"by", "total": Row, "rows": [Row]}`, a row being
/// `{"key", "aircraft", "flights", "visits", "messages"}`.
struct StatsController<Context: RequestContext> {
    /// SQLite, or an aggregator's PostgreSQL (its synchronous call runs on the store's own
    /// thread; this task waits for it).
    let database: any SightingStore

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("stats", use: stats)
        group.get("stats/random", use: random)
    }

    /// The query of `/api/stats` (`by`, `limit`, and the filter) or, with `grouped` false, of
    /// `/api/stats/random` (the filter alone). Unknown and repeated parameters are 400.
    static func query(_ request: Request, grouped: Bool) throws -> (by: StatsDimension, filter: StatsFilter, limit: Int?) {
        var by = StatsDimension.type
        var filter = StatsFilter()
        var limit: Int?
        var seen: Set<String> = []
        for (key, value) in request.uri.queryParameters.map({ (String($0.key), String($0.value)) }) {
            guard seen.insert(key).inserted else { throw APIError.badRequest("parameter '\(key)' given twice") }
            switch key {
            case "by" where grouped:
                guard let d = StatsDimension(rawValue: value) else {
                    throw APIError.badRequest("by must be one of \(StatsDimension.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                by = d
            case "since", "until":
                guard let t = Double(value), t.isFinite, t >= 0 else { throw APIError.badRequest("\(key) must be Unix seconds") }
                if key == "since" { filter.since = t } else { filter.until = t }
            case "type":
                guard !value.isEmpty, value.count <= 8,
                      value.unicodeScalars.allSatisfy({ AircraftQueryParameters.isAlphanumeric($0) || $0 == "*" }) else {
                    throw APIError.badRequest("type must be an ICAO type, optionally ending in '*'")
                }
                filter.typePattern = value.uppercased()
            case "receiver":
                guard let id = ReceiverID.parse(value) else {
                    throw APIError.badRequest("receiver must be 1 to 64 printable characters")
                }
                filter.receiver = id.rawValue
            case "limit" where grouped:
                guard let l = Int(value), (1...1000).contains(l) else { throw APIError.badRequest("limit must be 1...1000") }
                limit = l
            default:
                throw APIError.badRequest("unknown parameter '\(key)'")
            }
        }
        return (by, filter, limit)
    }

    /// `GET /api/stats/random`: one visit the filter admits, picked at random:
    /// `{"visit": Visit}`, or `{"visit": null}` when none matches.
    @Sendable func random(_ request: Request, context: Context) async throws -> Response {
        let (_, filter, _) = try Self.query(request, grouped: false)
        return try await VisitsController<Context>.encoded(RandomVisit(visit: try database.statistics.randomVisit(filter: filter)))
    }

    @Sendable func stats(_ request: Request, context: Context) async throws -> Response {
        let (by, filter, limit) = try Self.query(request, grouped: true)
        // Groups and total in one read (a filter the rollups cannot answer is evaluated once).
        let (rows, total) = try await database.statistics.withTotal(by: by, filter: filter, limit: limit)
        var w = JSONWriter()
        w.add("by", by.rawValue)
        w.addRaw("total", Self.row(total))
        w.addRaw("rows", JSONWriter.array(rows.map(Self.row)))
        return .json(w.finish())
    }

    static func row(_ r: StatsRow) -> String {
        var w = JSONWriter()
        w.add("key", r.key)
        w.add("aircraft", r.aircraft)
        w.add("flights", r.flights)
        w.add("visits", r.visits)
        w.add("messages", r.messages)
        return w.finish()
    }
}

/// The answer of `GET /api/stats/random`.
struct RandomVisit: Encodable {
    var visit: VisitRecord?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(visit, forKey: .visit)   // null when none matched, not left out
    }

    enum CodingKeys: String, CodingKey { case visit }
}
