import ArgumentParser
import Foundation
import Store

/// `flytracker db import-airports FILE`: OurAirports' airports.csv.
struct ImportAirportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-airports",
        abstract: "Import airports (OurAirports airports.csv) for 'stats --towards'.",
        discussion: "Rows replace earlier ones with the same ident; closed airports are skipped. A few dozen major airports are built in."
    )

    @Argument(help: "OurAirports airports.csv.") var file: String
    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            StandardStreams.error("cannot read \(file)")
            throw ExitCode(1)
        }
        let database = try await store.openStore()
        let count = try await reportingErrors { try await database.airports.importCSV([UInt8](data)) }
        print("imported \(count) airports from \(file)")
    }
}
