import ArgumentParser
import Foundation
import Store

/// `flytracker groups list|show|delete`: the site owner's view of the spotting groups.
struct GroupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "Spotting groups: list a user's, show one, delete one (the site owner's tools).",
        subcommands: [List.self, Show.self, Delete.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The groups a user belongs to or is invited to.")
        @Option(help: "User name.") var user: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let groups = try await reportingErrors { try await database.groups.groups(userId: try database.accounts.require(named: user).id!) }
            for line in tableLines(["GROUP", "ROLE", "OPEN"], groups.map { [$0.group.name, $0.role.rawValue, $0.group.open ? "yes" : "no"] }) { print(line) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "A group's members and shared watchlist.")
        @Argument(help: "Group name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let (group, members, rules) = try await reportingErrors { () async throws -> (GroupRecord, [(userId: Int64, username: String, role: GroupRole)], [WatchRule]) in
                guard let g = try await database.groups.group(named: name) else { throw GroupError.unknownGroup(name) }
                return (g, try await database.groups.members(groupId: g.id), try await database.groups.groupRules(groupId: g.id))
            }
            print("\(group.name)\(group.description.map { " — \($0)" } ?? "") (\(group.open ? "open" : "by invitation"))")
            for line in tableLines(["MEMBER", "ROLE"], members.map { [$0.username, $0.role.rawValue] }) { print(line) }
            for r in rules { print("tracks \(r.kind.rawValue) \(r.value) (rule \(r.id ?? 0))") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a group with its members, watchlist, goals and posts.")
        @Argument(help: "Group name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors {
                guard let g = try await database.groups.group(named: name) else { throw GroupError.unknownGroup(name) }
                try await database.groups.deleteGroup(id: g.id)
            }
            print("deleted group \(name)")
        }
    }
}

/// `flytracker moderation reports|delete|admin`: the feed's moderation for the site owner.
struct ModerationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderation",
        abstract: "The feed's moderation: reported posts, deleting a post, the site's admins.",
        subcommands: [Reports.self, Delete.self, Admin.self]
    )

    struct Reports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reports", abstract: "Reported posts, newest first.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            let reports = try await reportingErrors { try await database.posts.reports(limit: 200) }
            let rows = reports.map { r in ["\(r.postId)", r.reporter, r.reason, String(r.text.prefix(60)).replacingOccurrences(of: "\n", with: " ")] }
            for line in tableLines(["POST", "REPORTER", "REASON", "TEXT"], rows) { print(line) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a post (with its comments and reports).")
        @Argument(help: "Post id.") var id: Int64
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors { try await database.posts.deletePost(id: id) }
            print("deleted post \(id)")
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "admin", abstract: "Make a user an admin of the site (they may delete any post and read reports), or no longer.")
        @Argument(help: "User name.") var user: String
        @Flag(help: "Take the role away.") var remove = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let database = try await store.openStore()
            try await reportingErrors { try await database.posts.setAdmin(userId: try database.accounts.require(named: user).id!, !remove) }
            print(remove ? "\(user) is no longer an admin" : "\(user) is an admin")
        }
    }
}
