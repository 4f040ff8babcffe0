import ArgumentParser
import Store

/// `flytracker history (--user NAME | --aircraft HEX|REG)`: a user's journal or an
/// aircraft's visits.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a user's flight journal or an aircraft's visits."
    )

    @Option(help: "Show this user's journal.") var user: String?
    @Option(help: "Show this aircraft's visits (hex address or registration).") var aircraft: String?
    @Option(help: "At most this many rows.") var limit = 50
    @Flag(help: "JSON output.") var json = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard (user == nil) != (aircraft == nil) else { throw ValidationError("give exactly one of --user and --aircraft") }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let database = try store.openStore()
        if let user {
            let events = try reportingErrors { try database.journal(username: user, limit: limit) }
            if json { print(jsonText(events)); return }
            let rows = events.map { e in
                [formatTime(e.time), e.kind.rawValue, e.hex, e.callsign ?? "", e.registration ?? "", e.typeCode ?? "",
                 e.altitude.map(String.init) ?? "", e.distance.map { String(format: "%.1f", $0) } ?? "", e.ruleLabel ?? ""]
            }
            for line in tableLines(["TIME (UTC)", "EVENT", "HEX", "CALLSIGN", "REG", "TYPE", "ALT ft", "DIST NM", "RULE"], rows) { print(line) }
        } else if let aircraft {
            let visits = try reportingErrors {
                if let address = CommandInput.address(aircraft) { return try database.visits(address: address, limit: limit) }
                guard aircraft.count <= 10, aircraft.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                    throw InputError("invalid aircraft '\(aircraft)': expected a hex address (4840d6) or a registration (D-AIUP)")
                }
                return try database.visits(registration: aircraft, limit: limit)
            }
            if json { print(jsonText(visits)); return }
            let rows = visits.map { v in
                [formatTime(v.firstSeen), formatTime(v.lastSeen), v.hex, v.callsigns ?? "", v.registration ?? "", v.typeCode ?? "",
                 v.minAltitude.map(String.init) ?? "", v.maxAltitude.map(String.init) ?? "",
                 v.closestDistance.map { String(format: "%.1f", $0) } ?? "", "\(v.messages)", "\(v.positions)"]
            }
            for line in tableLines(["FIRST (UTC)", "LAST (UTC)", "HEX", "CALLSIGNS", "REG", "TYPE", "MIN ALT", "MAX ALT", "CLOSEST NM", "MSGS", "POS"], rows) {
                print(line)
            }
        }
    }
}
