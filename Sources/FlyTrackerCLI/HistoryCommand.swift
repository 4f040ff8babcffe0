import ArgumentParser
import Store
import Services

/// `flytracker history (--user NAME | --aircraft HEX|REG [--visit N])`: a user's journal, an
/// aircraft's visits, or the path of one visit.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a user's flight journal, an aircraft's visits, or the path one visit flew (--visit N)."
    )

    @Option(help: "Show this user's journal.") var user: String?
    @Option(help: "Show this aircraft's visits (hex address or registration).") var aircraft: String?
    @Option(help: ArgumentHelp("With --aircraft: the path of visit N of the list (1 = the latest): distance flown, duration, speeds and the altitude profile.", valueName: "N"))
    var visit: Int?
    @Option(help: ArgumentHelp("Units of distances, altitudes and speeds: aeronautical (NM, ft, kt), metric or imperial; default the user's with --user, aeronautical with --aircraft (JSON is always NM, ft, kt).", valueName: "units"))
    var units: Units?
    @Option(help: "At most this many rows.") var limit = 50
    @Flag(help: "JSON output.") var json = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard (user == nil) != (aircraft == nil) else { throw ValidationError("give exactly one of --user and --aircraft") }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if let visit {
            guard aircraft != nil else { throw ValidationError("--visit goes with --aircraft") }
            guard visit >= 1 else { throw ValidationError("--visit counts from 1 (the latest visit)") }
        }
    }

    func run() async throws {
        let database = try await store.openStore()
        if let user {
            let events = try await reportingErrors { try await database.watchlists.journal(username: user, limit: limit) }
            if json { print(jsonText(events)); return }
            let account = try await reportingErrors { try await database.accounts.require(named: user) }
            let alerts = try await reportingErrors { try await Self.alertOutcomes(events, user: account, database: database) }
            let units = self.units ?? account.units
            let rows = events.map { e in
                [formatTime(e.time), e.kind.rawValue, e.hex, e.callsign ?? "", e.registration ?? "", e.typeCode ?? "",
                 e.altitude.map(units.altitude) ?? "", e.distance.map(units.distance) ?? "", e.ruleLabel ?? "",
                 e.id.flatMap { alerts[$0] } ?? ""]
            }
            for line in tableLines(["TIME (UTC)", "EVENT", "HEX", "CALLSIGN", "REG", "TYPE", "ALTITUDE", "DISTANCE", "RULE", "ALERT"], rows) { print(line) }
        } else if let aircraft {
            let visits = try await reportingErrors {
                if let address = CommandInput.address(aircraft) { return try await database.sightings.visits(address: address, limit: limit) }
                guard aircraft.count <= 10, aircraft.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                    throw InputError("invalid aircraft '\(aircraft)': expected a hex address (4840d6) or a registration (D-AIUP)")
                }
                return try await database.sightings.visits(registration: aircraft, limit: max(limit, visit ?? 0))
            }
            if let visit {
                guard visit <= visits.count, let id = visits[visit - 1].id else {
                    StandardStreams.error("\(aircraft) has \(visits.count) visit\(visits.count == 1 ? "" : "s") in the log, no visit \(visit)")
                    throw ExitCode(1)
                }
                let path = VisitPath(visitId: id, points: try await reportingErrors { try await database.sightings.trackPoints(visitId: id) })
                if json { print(jsonText(path)); return }
                for line in Self.pathLines(path, of: visits[visit - 1], units: units ?? .aeronautical) { print(line) }
                return
            }
            if json { print(jsonText(visits)); return }
            for line in Self.visitLines(visits, units: units ?? .aeronautical) { print(line) }
        }
    }

    /// An aircraft's visits as a table, altitudes and the closest distance in `units`.
    static func visitLines(_ visits: [VisitRecord], units: Units) -> [String] {
        let rows = visits.enumerated().map { i, v in
            ["\(i + 1)", formatTime(v.firstSeen), formatTime(v.lastSeen), v.hex, v.callsigns ?? "", v.registration ?? "", v.typeCode ?? "",
             v.minAltitude.map(units.altitude) ?? "", v.maxAltitude.map(units.altitude) ?? "",
             v.closestDistance.map(units.distance) ?? "", "\(v.messages)", "\(v.positions)"]
        }
        return tableLines(["#", "FIRST (UTC)", "LAST (UTC)", "HEX", "CALLSIGNS", "REG", "TYPE", "MIN ALT", "MAX ALT", "CLOSEST", "MSGS", "POS"], rows)
    }

    /// The summary of a visit's path and its altitude profile (at most 40 rows, evenly spread),
    /// every figure in `units`.
    static func pathLines(_ path: VisitPath, of visit: VisitRecord, units: Units) -> [String] {
        func speed(_ kt: Double?) -> String { kt.map(units.speed) ?? "unknown" }
        let minutes = Int(path.duration / 60), seconds = Int(path.duration) % 60
        var lines = ["\(visit.hex) \(visit.callsigns ?? "") \(visit.registration ?? "") \(visit.typeCode ?? "")".trimmingCharacters(in: .whitespaces)]
        lines.append("from \(formatTime(path.start)) to \(formatTime(path.end)) UTC: \(minutes) min \(seconds) s, "
                     + "\(units.distance(path.distance)) flown, average \(speed(path.averageSpeed)), top \(speed(path.maxSpeed))")
        if let low = path.minAltitude, let high = path.maxAltitude { lines.append("altitude \(units.altitude(low))–\(units.altitude(high))") }
        guard !path.points.isEmpty else { return lines + ["no track points (positions were not kept for this visit)"] }
        let step = max(1, (path.points.count + 39) / 40)
        var shown = stride(from: 0, to: path.points.count, by: step).map { path.points[$0] }
        if let last = path.points.last, shown.last != last { shown.append(last) }
        let rows = shown.map { p in
            [String(format: "%d:%02d", Int(p.elapsed) / 60, Int(p.elapsed) % 60), units.distance(p.distance),
             p.altitude.map(units.altitude) ?? "", p.groundSpeed.map(units.speed) ?? "",
             String(format: "%.4f,%.4f", p.latitude, p.longitude)]
        }
        return lines + tableLines(["TIME", "FLOWN", "ALTITUDE", "SPEED", "POSITION"], rows)
    }

    /// What became of each journal event's webhook alert, from the delivery log: `sent`,
    /// `failed (N tries)`, `held back` (the 10-minute limit), `not sent yet` (delivered at the
    /// next start, `AlertDispatcher.recover`); none for events that do not alert or a user
    /// without webhooks.
    static func alertOutcomes(_ events: [JournalEventRecord], user: UserRecord, database: any SightingStore) async throws -> [Int64: String] {
        guard let oldest = events.map(\.time).min(), user.channels.contains(where: { $0.kind == .webhook }) else { return [:] }
        let alerting = AlertDispatcher.defaultKinds
        var out: [Int64: String] = [:]
        let logged = Dictionary(try await database.deliveryLog.summaries(since: oldest).compactMap { s in s.event.id.map { ($0, s) } },
                                uniquingKeysWith: { a, _ in a })
        for e in events where alerting.contains(e.kind) {
            guard let id = e.id else { continue }
            let s = logged[id]
            out[id] = switch (s?.succeeded ?? 0, s?.attempted ?? 0, s?.logged ?? 0) {
            case (1..., _, _): "sent"
            case (0, let tries, _) where tries > 0: "failed (\(tries) tr\(tries == 1 ? "y" : "ies"))"
            case (0, 0, 1...): "held back"
            default: "not sent yet"
            }
        }
        return out
    }
}
