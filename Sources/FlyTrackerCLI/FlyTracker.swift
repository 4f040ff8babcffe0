import ArgumentParser

@main
struct FlyTracker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flytracker",
        abstract: "ADS-B / Mode S receiver and decoder.",
        discussion: "Decodes Mode S frames to JSON today; the receiver, replay and simulator arrive with the demodulator.",
        version: "0.1.0",
        subcommands: [DecodeCommand.self, BenchCommand.self]
    )
}
