import ArgumentParser

@main
struct FlyTracker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flytracker",
        abstract: "ADS-B / Mode S receiver and decoder.",
        discussion: "Receives (from recordings, the simulator or an RTL-SDR dongle) and decodes Mode S and ADS-B.",
        version: "0.1.0",
        subcommands: [RunCommand.self, DecodeCommand.self, DevicesCommand.self, SimulateCommand.self, BenchCommand.self, DbCommand.self, UsersCommand.self, TrackCommand.self, PlacesCommand.self, EtaCommand.self, GroupsCommand.self, ModerationCommand.self, HistoryCommand.self, StatsCommand.self]
    )
}
