import ArgumentParser
import Localization
import Store

extension Units: ExpressibleByArgument {}

/// `flytracker users add|list|passwd|delete|set`: accounts.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage user accounts (passwords are stored as bcrypt hashes).",
        subcommands: [Add.self, List.self, Passwd.self, Logout.self, Delete.self, Set.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Create a user. The password is read from standard input (first line) or asked for on the terminal.")
        @Argument(help: "User name (1-32 letters, digits, '.', '_', '-').") var name: String
        @Option(help: "Email address.") var email: String?
        @Option(help: "Units: metric, imperial or aeronautical.") var units: Units = .metric
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors {
                if try await database.accounts.user(named: name) != nil { throw UserError.duplicateUsername(name) }
                let password = try readPassword(prompt: "Password for \(name): ")
                try await database.accounts.add(username: name, password: password, email: email, units: units, now: unixNow())
            }
            print("added user \(name)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List users.")
        @Flag(help: "JSON output.") var json = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let users = try await reportingErrors { try await database.accounts.all() }
            if json {
                struct Entry: Encodable {
                    var username: String, email: String?, units: String, darkMode: Bool, language: String, webhooks: [String], created: Double
                }
                print(jsonText(users.map { Entry(username: $0.username, email: $0.email, units: $0.units.rawValue, darkMode: $0.darkMode,
                                                  language: $0.language, webhooks: $0.channels.map(\.url), created: $0.createdAt) }))
                return
            }
            let rows = users.map { [$0.username, $0.email ?? "-", $0.units.rawValue, $0.darkMode ? "dark" : "light", $0.language,
                                    "\($0.channels.count)", formatTime($0.createdAt)] }
            for line in tableLines(["USER", "EMAIL", "UNITS", "THEME", "LANG", "WEBHOOKS", "CREATED (UTC)"], rows) { print(line) }
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "passwd", abstract: "Set a user's password (read like 'add').")
        @Argument(help: "User name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors {
                _ = try await database.accounts.require(named: name)
                try await database.accounts.setPassword(username: name, password: try readPassword(prompt: "New password for \(name): "))
            }
            print("password changed for \(name); every session of the account has ended")
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "End every session of a user (log out everywhere), at once, also in a running server.")
        @Argument(help: "User name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let id = try await reportingErrors { try await database.accounts.require(named: name).id! }
            let ended = try await reportingErrors { try await database.loginSessions.endAll(userId: id) }
            print("ended \(ended) session\(ended == 1 ? "" : "s") of \(name)")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a user with their watchlist and journal.")
        @Argument(help: "User name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors { try await database.accounts.delete(username: name) }
            print("deleted user \(name)")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change a user's settings.")
        @Argument(help: "User name.") var name: String
        @Option(help: "Email address.") var email: String?
        @Option(help: "Units: metric, imperial or aeronautical.") var units: Units?
        @Option(help: "Dark mode: on or off.") var darkMode: String?
        @Option(help: ArgumentHelp("Language of the page and alert texts: \(MessageCatalogues.shipped.codes.joined(separator: ", ")).")) var language: String?
        @Option(help: "Add a webhook URL for alerts (http:// or https://).") var addWebhook: [String] = []
        @Flag(help: "Remove every webhook.") var clearWebhooks = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors {
                var user = try await database.accounts.require(named: name)
                if let email { user.email = email }
                if let units { user.units = units }
                if let darkMode {
                    switch darkMode.lowercased() {
                    case "on", "true", "yes", "1": user.darkMode = true
                    case "off", "false", "no", "0": user.darkMode = false
                    default: throw InputError("invalid --dark-mode '\(darkMode)': expected on or off")
                    }
                }
                if let language {
                    do { try user.setLanguage(language) } catch { throw InputError("invalid --language: \(error)") }
                }
                if clearWebhooks { user.channels = [] }
                user.channels += addWebhook.map { NotificationChannel(kind: .webhook, url: $0) }
                try await database.accounts.update(user)
            }
            print("updated user \(name)")
        }
    }
}
