import ArgumentParser
import Foundation
import Store
import Services
import Web

extension ReminderRecord.Event: ExpressibleByArgument {}

/// `flytracker places add|list|rename|remove|remind|reminders|forget --user NAME`: a user's
/// saved places and their reminders.
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Manage a user's saved places and reminders (when will a tracked aircraft pass or land).",
        subcommands: [Add.self, List.self, Rename.self, Remove.self, Remind.self, Reminders.self, Forget.self]
    )

    /// The user's id, or one error line and exit 1.
    static func userId(_ store: any SightingStore, _ name: String) async throws -> Int64 {
        try await reportingErrors { try await store.accounts.require(named: name).id! }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Save a place: by coordinates, by airport code, or by words of an airport's name.",
            discussion: """
                Examples:
                  flytracker places add --user alice Garden --at 52.37,4.89 --radius 2km
                  flytracker places add --user alice --airport EHAM          (or AMS; named after the airport)
                  flytracker places add --user alice --search "schiphol"
                """)
        @Option(help: "User name.") var user: String
        @Argument(help: "The place's name (default for airports: the airport's name).") var name: String?
        @Option(help: ArgumentHelp("Coordinates.", valueName: "LAT,LON")) var at: String?
        @Option(help: ArgumentHelp("An airport by ICAO or IATA code.", valueName: "CODE")) var airport: String?
        @Option(help: ArgumentHelp("An airport by words of its name (the best match).", valueName: "TEXT")) var search: String?
        @Option(help: ArgumentHelp("Passes within this distance count: 5km (default), 3nm, 2mi, 800m.", valueName: "DISTANCE")) var radius: String?
        @Option(help: ArgumentHelp("Height of the place, ft.", valueName: "FT")) var altitude: Int?
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard [at, airport, search].compactMap({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --at, --airport or --search")
            }
        }

        func run() async throws {
            let database = try await store.openStore()
            let userId = try await PlacesCommand.userId(database, user)
            let place = try await reportingErrors { () async throws -> PlaceRecord in
                let source: PlaceSource
                if let at {
                    let parts = at.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                    guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
                        throw StoreError(description: "--at takes LAT,LON in degrees, not '\(at)'")
                    }
                    source = .coordinates(latitude: lat, longitude: lon)
                } else if let airport {
                    source = .airport(airport)
                } else {
                    source = .search(search ?? "")
                }
                let made = try await PlaceRecord.make(userId: userId, name: name, source: source, radius: try radius.map { try PlaceRecord.parseRadius($0) },
                                                altitude: altitude, now: unixNow(), airports: database.airports)
                return try await database.places.addPlace(made)
            }
            print("saved place \(place.id ?? 0) '\(place.name)' at \(String(format: "%.5f,%.5f", place.latitude, place.longitude))"
                  + "\(place.airport.map { " (airport \($0))" } ?? ""), radius \(String(format: "%.1f", place.radius * 1.852)) km")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a user's places.")
        @Option(help: "User name.") var user: String
        @Flag(help: "JSON output.") var json = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let places = try await reportingErrors { try await database.places.places(userId: try PlacesCommand.userId(database, user)) }
            if json { print("{\"places\":[" + places.map(PlacesDocuments.place).joined(separator: ",") + "]}"); return }
            let rows = places.map {
                ["\($0.id ?? 0)", $0.name, String(format: "%.5f,%.5f", $0.latitude, $0.longitude), String(format: "%.1f km", $0.radius * 1.852),
                 $0.airport ?? ""]
            }
            for line in tableLines(["ID", "NAME", "POSITION", "RADIUS", "AIRPORT"], rows) { print(line) }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a place (by the ID 'places list' shows).")
        @Option(help: "User name.") var user: String
        @Argument(help: "Place ID.") var id: Int64
        @Argument(help: "New name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let userId = try await PlacesCommand.userId(database, user)
            let place = try await reportingErrors { try await database.places.renamePlace(userId: userId, id: id, name: name) }
            print("renamed place \(id) to '\(place.name)'")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a place and its reminders.")
        @Option(help: "User name.") var user: String
        @Argument(help: "Place ID.") var id: Int64
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let userId = try await PlacesCommand.userId(database, user)
            try await reportingErrors { try await database.places.removePlace(userId: userId, id: id) }
            print("removed place \(id) of \(user)")
        }
    }

    struct Remind: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remind",
            abstract: "Be told N minutes before a tracked aircraft is closest to a place, or lands at an airport place.",
            discussion: "Example: flytracker places remind --user alice --place 3 --event arrival --minutes 10,2 --rule 5")
        @Option(help: "User name.") var user: String
        @Option(help: ArgumentHelp("Place ID, or 'receiver' for the receiver's position.", valueName: "ID")) var place: String
        @Option(help: "closest or arrival.") var event: ReminderRecord.Event = .closest
        @Option(help: ArgumentHelp("Leads, minutes before the event.", valueName: "N,N…")) var minutes: String
        @Option(help: ArgumentHelp("Only for this tracked item (rule ID from 'track list'); default: everything tracked.", valueName: "ID")) var rule: Int64?
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let leads = minutes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !leads.isEmpty, leads.allSatisfy({ $0 != nil }) else {
                StandardStreams.error("--minutes takes whole minutes separated by commas, such as 10,2")
                throw ExitCode(1)
            }
            let placeId: Int64?
            if place == "receiver" { placeId = nil } else if let id = Int64(place) { placeId = id } else {
                StandardStreams.error("--place takes a place ID or 'receiver'")
                throw ExitCode(1)
            }
            let database = try await store.openStore()
            let userId = try await PlacesCommand.userId(database, user)
            let saved = try await reportingErrors {
                try await database.addReminders(leads.map {
                    ReminderRecord(userId: userId, placeId: placeId, watchRuleId: rule, event: event, leadMinutes: $0!, createdAt: unixNow())
                })
            }
            for r in saved { print("reminder \(r.id ?? 0): \(r.leadMinutes) min before \(r.event == .arrival ? "landing" : "closest")") }
        }
    }

    struct Reminders: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reminders", abstract: "List a user's reminders.")
        @Option(help: "User name.") var user: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let userId = try await PlacesCommand.userId(database, user)
            let (reminders, places) = try await reportingErrors { (try await database.places.reminders(userId: userId), try await database.places.places(userId: userId)) }
            let names = Dictionary(uniqueKeysWithValues: places.compactMap { p in p.id.map { ($0, p.name) } })
            let rows = reminders.map {
                ["\($0.id ?? 0)", $0.placeId.flatMap { names[$0] } ?? EtaBoard.receiverPlaceName, $0.event.rawValue, "\($0.leadMinutes) min",
                 $0.watchRuleId.map { "rule \($0)" } ?? "everything tracked"]
            }
            for line in tableLines(["ID", "PLACE", "EVENT", "LEAD", "FOR"], rows) { print(line) }
        }
    }

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forget", abstract: "Remove a reminder (by the ID 'places reminders' shows).")
        @Option(help: "User name.") var user: String
        @Argument(help: "Reminder ID.") var id: Int64
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let userId = try await PlacesCommand.userId(database, user)
            try await reportingErrors { try await database.places.removeReminder(userId: userId, id: id) }
            print("removed reminder \(id) of \(user)")
        }
    }
}
