import ArgumentParser
import AsyncHTTPClient
import Foundation
import ModeS
import NIOCore
import Store
import Services
import Web

/// `flytracker eta --user NAME`: when the user's tracked aircraft will pass their places or
/// land, from the live aircraft of a running receiver (its `aircraft.json`: FlyTracker's,
/// readsb's or dump1090-fa's) and the user's places and rules in `--db`.
struct EtaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eta",
        abstract: "When will my tracked aircraft pass my places or land? (from a running receiver's aircraft.json)",
        discussion: """
            Reads the live aircraft from --source (default: the local receiver's web server), the user's places, \
            rules and time format from --db, and prints the events of the next two hours, soonest first. \
            The receiver's position is a place too when --lat/--lon are given or the receiver serves receiver.json with one.
            """)

    @Option(help: "User name.") var user: String
    @Option(help: ArgumentHelp("aircraft.json: a URL or a file.", valueName: "URL|PATH"))
    var source = "http://127.0.0.1:8080/data/aircraft.json"
    @Option(help: "Receiver latitude (the receiver place).") var lat: Double?
    @Option(help: "Receiver longitude.") var lon: Double?
    @Flag(help: "JSON output (as GET /api/me/eta).") var json = false
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let database = try await store.openStore()
        let (u, places, rules, airlines) = try await reportingErrors {
            let u = try await database.accounts.require(named: user)
            return await (u, try database.places.places(userId: u.id!), try await database.watchRules().filter { $0.userId == u.id }, try database.watchlists.airlineCodes())
        }
        let data = try await Self.fetch(source)
        let (now, inputs) = try reportingErrors { try EtaBoard.inputs(aircraftJSON: data) }
        var all = places
        var home = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
        if home == nil, let receiverURL = Self.sibling(source, "receiver.json"), let r = try? await Self.fetch(receiverURL),
           let object = try? JSONSerialization.jsonObject(with: r) as? [String: Any],
           let la = (object["lat"] as? NSNumber)?.doubleValue, let lo = (object["lon"] as? NSNumber)?.doubleValue {
            home = Coordinate(latitude: la, longitude: lo)
        }
        if let home { all.insert(EtaBoard.receiverPlace(home, userId: u.id!), at: 0) }
        let predictions = EtaBoard.predictions(inputs, places: all, matcher: WatchlistMatcher(rules: rules, airlines: airlines), now: now)
        if json { print(PlacesDocuments.eta(predictions, now: now, format: u.timeFormat, units: u.units)); return }
        if predictions.isEmpty {
            print("no tracked aircraft is heading for your places (\(inputs.count) aircraft with a position, \(rules.count) rules, \(all.count) places)")
            return
        }
        let rows = predictions.map { p in
            [p.callsign ?? p.registration ?? p.hex, p.typeCode ?? "", p.event == .arrival ? "lands at" : "passes", p.placeName,
             EtaBoard.when(p.time, now: now, format: u.timeFormat), u.units.distance(p.distance)]
        }
        for line in tableLines(["AIRCRAFT", "TYPE", "EVENT", "PLACE", "WHEN", "DISTANCE"], rows) { print(line) }
    }

    /// `receiver.json` beside an `aircraft.json` URL or path.
    static func sibling(_ source: String, _ name: String) -> String? {
        guard let slash = source.lastIndex(of: "/") else { return nil }
        return String(source[...slash]) + name
    }

    /// The bytes of a URL (5 s at most) or a file, or one error line and exit 1.
    static func fetch(_ source: String) async throws -> Data {
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            do {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: source), timeout: .seconds(5))
                guard response.status.code == 200 else {
                    StandardStreams.error("cannot read \(source): HTTP \(response.status.code)")
                    throw ExitCode(1)
                }
                return Data(buffer: try await response.body.collect(upTo: 64 << 20))
            } catch let error as ExitCode {
                throw error
            } catch {
                StandardStreams.error("cannot read \(source): \(error) (is 'flytracker run' serving its web page there? see --source)")
                throw ExitCode(1)
            }
        }
        do { return try Data(contentsOf: URL(fileURLWithPath: source)) } catch {
            StandardStreams.error("cannot read \(source): \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
