import ArgumentParser
import Store

extension WatchKind: ExpressibleByArgument {}

/// `flytracker track add|list|remove --user NAME`: a user's watchlist.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Manage a user's watchlist (aircraft and flights to track).",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Track aircraft or flights.",
            discussion: """
                KIND is address (4840d6), registration (D-AIUP), callsign (BAW283), flight (BA283 or BAW283), \
                type (B738, A32*), squawk (7700), emergencies, military or operator (BAW, British Airways).
                """)
        @Option(help: "User name.") var user: String
        @Argument(help: "address, registration, callsign, flight, type, squawk, emergencies, military or operator.") var kind: WatchKind
        @Argument(help: "The value (none for emergencies and military).") var value: String?
        @Option(help: "A label for the journal.") var label: String?
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let rule = try await reportingErrors {
                try await database.watchlists.add(username: user, kind: kind, value: value ?? "", label: label, now: unixNow())
            }
            print("tracking \(rule.kind.rawValue) \(rule.value) for \(user) (rule \(rule.id ?? 0))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a user's watchlist.")
        @Option(help: "User name.") var user: String
        @Flag(help: "JSON output.") var json = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let rules = try await reportingErrors { try await database.watchlists.rules(username: user) }
            if json { print(jsonText(rules)); return }
            let rows = rules.map { ["\($0.id ?? 0)", $0.kind.rawValue, $0.value, $0.label ?? ""] }
            for line in tableLines(["ID", "KIND", "VALUE", "LABEL"], rows) { print(line) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule (by the ID 'track list' shows).")
        @Option(help: "User name.") var user: String
        @Argument(help: "Rule ID.") var id: Int64
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors { try await database.watchlists.remove(username: user, id: id) }
            print("removed rule \(id) of \(user)")
        }
    }
}
