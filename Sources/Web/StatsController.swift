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
    }

    @Sendable func stats(_ request: Request, context: Context) async throws -> Response {
        var by = StatsDimension.type
        var filter = StatsFilter()
        var limit: Int?
        var seen: Set<String> = []
        for (key, value) in request.uri.queryParameters.map({ (String($0.key), String($0.value)) }) {
            guard seen.insert(key).inserted else { throw APIError.badRequest("parameter '\(key)' given twice") }
            switch key {
            case "by":
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
            case "limit":
                guard let l = Int(value), (1...1000).contains(l) else { throw APIError.badRequest("limit must be 1...1000") }
                limit = l
            default:
                throw APIError.badRequest("unknown parameter '\(key)'")
            }
        }
        // Groups and total in one read (a filter the rollups cannot answer is evaluated once).
        let (rows, total) = try database.statisticsWithTotal(by: by, filter: filter, limit: limit)
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
