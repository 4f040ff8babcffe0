import ArgumentParser
import PostgresStore
import Store

/// `flytracker db …`: the SQLite database.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Manage FlyTracker's database.",
        subcommands: [ImportAircraftCommand.self, ImportAirportsCommand.self, StoreBenchCommand.self]
    )
}

/// `flytracker db import-aircraft FILE [--db PATH]`.
struct ImportAircraftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-aircraft",
        abstract: "Import an aircraft database (ICAO address → registration, type, operator).",
        discussion: """
            Reads the tar1090-db file (aircraft.csv or aircraft.csv.gz: 'ICAO;registration;typecode;\
            flags;description;year;owner-operator;') or OpenSky's aircraftDatabase.csv (a header \
            row, quoted comma-separated fields). Gzip files are decompressed with 'gzip'. Rows \
            replace earlier ones with the same address; rejected rows are counted with their reasons.
            """
    )

    @Argument(help: "The file to import ('.gz' or plain).")
    var file: String

    @Option(help: ArgumentHelp("Database file (default: $XDG_DATA_HOME/flytracker/flytracker.sqlite, else ~/.local/share/flytracker/flytracker.sqlite) or postgres://USER@HOST[:PORT]/DATABASE.", valueName: "PATH|URL"))
    var db: String?

    func run() async throws {
        let path = db ?? AppDatabase.defaultPath()
        let database: any SightingStore
        do {
            if PostgresURL.isPostgres(path) {
                let url = try PostgresURL(path)
                database = try await PostgresStore.open(url, timeout: .seconds(120))
            } else {
                database = try AppDatabase.open(path: path)
            }
        } catch let error as StoreError {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        } catch {
            StandardStreams.error("cannot open database \(path): \(error)")
            throw ExitCode(1)
        }
        let report: AircraftImportReport
        do {
            report = try await AircraftImporter(database: database.aircraft).importFile(atPath: file)
        } catch let error as AircraftImportError {
            StandardStreams.error(error.description)
            throw ExitCode(1)
        } catch {
            StandardStreams.error("importing \(file): \(error)")
            throw ExitCode(1)
        }
        let shown = PostgresURL.isPostgres(path) ? ((try? PostgresURL(path))?.description ?? "PostgreSQL") : path
        for line in Self.summary(report, file: file, database: shown) { print(line) }
        if report.imported == 0 && report.rejected > 0 { throw ExitCode(1) }
    }

    /// The lines printed after an import.
    static func summary(_ report: AircraftImportReport, file: String, database: String) -> [String] {
        var lines = ["imported \(report.imported) aircraft from \(file) (\(report.format.rawValue)) into \(database)"]
        guard report.rejected > 0 else { return lines }
        let reasons = report.reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }
        lines.append("rejected \(report.rejected) row\(report.rejected == 1 ? "" : "s"): " + reasons.joined(separator: ", "))
        for example in report.examples { lines.append("  line \(example.line): \(example.reason)") }
        if report.rejected > report.examples.count { lines.append("  …") }
        return lines
    }
}
