import ArgumentParser
import Foundation

@main
struct FlyTracker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flytracker",
        abstract: "ADS-B / Mode S receiver and decoder.",
        discussion: "Receives (from recordings, the simulator or an RTL-SDR dongle) and decodes Mode S and ADS-B.",
        version: "0.1.0",
        subcommands: [RunCommand.self, DecodeCommand.self, DevicesCommand.self, SimulateCommand.self, BenchCommand.self, DbCommand.self, UsersCommand.self, TrackCommand.self, PlacesCommand.self, EtaCommand.self, GroupsCommand.self, ModerationCommand.self, HistoryCommand.self, StatsCommand.self]
    )

    /// Parses (negative numbers accepted after an option, `--lon -73.8`), runs, and reports
    /// a wrong command line as every other error: one line, `flytracker: …`, with where to
    /// find the help, exit status 64 (EX_USAGE). Help and version print as usual.
    static func main() async {
        let arguments = CommandLineArguments.attachingNegativeNumbers(Array(CommandLine.arguments.dropFirst()))
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            StandardStreams.error(usageLine(for: error, arguments: arguments))
            exit(withError: ExitCode(64))
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// One line for a command line that does not parse: the parser's message and the help to read.
    static func usageLine(for error: any Error, arguments: [String]) -> String {
        let message = self.message(for: error).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("Usage:") && !$0.hasPrefix("See '") }.joined(separator: " ")
        let sub = arguments.first { !$0.hasPrefix("-") }.flatMap { name in configuration.subcommands.first { $0._commandName == name } }
        let help = sub.map { "flytracker \($0._commandName) --help" } ?? "flytracker --help"
        return "\(message.isEmpty ? "bad command line" : message) (see \(help))"
    }
}
