import ArgumentParser
import Store
import Tracking

extension StatsDimension: ExpressibleByArgument {}

/// `flytracker stats --by …`: counts over the sighting log.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Statistics from the sighting log: aircraft, flights and messages by group.",
        discussion: """
            Example: how many 737s passed in the last day heading to Miami, by type:
              flytracker stats --by type --since 24h --type 'B73*' --towards KMIA
            --towards keeps aircraft whose last track points (± --tolerance degrees) at the place; \
            --within keeps aircraft that came within KM of the receiver.
            """
    )

    @Option(help: "Group by type, operator, category, altitude, hour or day.") var by: StatsDimension = .type
    @Option(help: "From: 30m, 24h, 7d, 2026-11-22, 2026-11-22T10:00:00Z or Unix seconds (default 24h).") var since = "24h"
    @Option(help: "Until (same forms; default now).") var until: String?
    @Option(help: "ICAO type, exact (B738) or prefix (B73*).") var type: String?
    @Option(help: "Heading towards an airport (KMIA, MIA) or LAT,LON.") var towards: String?
    @Option(parsing: .unconditional, help: "Direction tolerance for --towards, degrees.") var tolerance: Double = 20
    @Option(parsing: .unconditional, help: "Closest distance to the receiver at most KM.") var within: String?
    @Option(help: ArgumentHelp("Only aircraft this receiver of a network heard (an aggregator's --receiver-id).", valueName: "ID")) var receiver: String?
    @Option(help: "Show the top N groups.") var limit: Int?
    @Flag(help: "Pick one random aircraft among those that match instead.") var random = false
    @Flag(help: "JSON output.") var json = false
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try await store.openStore()
        let now = unixNow()
        let filter = try await reportingErrors { () async throws -> StatsFilter in
            var f = StatsFilter(since: try CommandInput.time(since, now: now))
            if let until { f.until = try CommandInput.time(until, now: now) }
            if let type { f.typePattern = try WatchRule.normalize(kind: .type, value: type) }
            if let towards { f.towards = try await database.airports.place(towards).coordinate }
            guard (0...180).contains(tolerance) else { throw InputError("invalid --tolerance \(tolerance): expected 0 to 180 degrees") }
            f.tolerance = tolerance
            if let within { f.withinKm = try CommandInput.kilometres(within) }
            if let receiver {
                guard let id = ReceiverID.parse(receiver) else {
                    throw InputError("invalid --receiver '\(receiver)': expected a receiver id (1 to 64 printable characters)")
                }
                f.receiver = id.rawValue
            }
            if let limit, limit < 1 { throw InputError("--limit must be at least 1") }
            return f
        }
        if random {
            let visit = try await reportingErrors { try await database.statistics.randomVisit(filter: filter) }
            if json { print(jsonText(visit)); return }
            guard let v = visit else { print("no aircraft matched"); return }
            print("\(v.hex) \(v.callsign ?? "-") \(v.registration ?? "-") \(v.typeCode ?? "-") \(v.operatorName ?? "-") last heard \(formatTime(v.lastSeen)) UTC")
            return
        }
        let (rows, total) = try await reportingErrors { try await database.statistics.withTotal(by: by, filter: filter, limit: limit) }
        if json {
            struct Document: Encodable { var by: String; var since: Double; var until: Double?; var rows: [StatsRow]; var total: StatsRow }
            print(jsonText(Document(by: by.rawValue, since: filter.since ?? 0, until: filter.until, rows: rows, total: total)))
            return
        }
        let lines = tableLines([by.rawValue.uppercased(), "AIRCRAFT", "FLIGHTS", "VISITS", "MESSAGES"],
                               (rows + [total]).map { [$0.key, "\($0.aircraft)", "\($0.flights)", "\($0.visits)", "\($0.messages)"] })
        for line in lines { print(line) }
    }
}
