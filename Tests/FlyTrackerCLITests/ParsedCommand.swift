import ArgumentParser

/// Running a parsed `flytracker` command in a test as the executable does: async commands
/// (`run`, `bench`, `history`, `users logout`, …) awaited, the others called.
enum ParsedCommand {
    static func run(_ command: any ParsableCommand) async throws {
        var command = command
        if var async = command as? any AsyncParsableCommand { try await async.run() } else { try command.run() }
    }

    /// The exit code a run of `command` throws (nil: it ran to the end; other errors are not
    /// exit codes).
    static func exitCode(of command: any ParsableCommand) async -> ExitCode? {
        do {
            try await run(command)
            return nil
        } catch {
            return error as? ExitCode
        }
    }
}
