import ArgumentParser
import Foundation
import Store

/// `flytracker db bench`: the store part of the benchmark (a generated year of sightings,
/// then the statistics queries timed).
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Fill a scratch database with a generated year of sightings and time the statistics queries.",
        discussion: "The database is a new file (default: a temporary one, removed afterwards); the user's database is not touched."
    )

    @Option(help: "Visits to generate (a busy site: about a million a year).") var visits = 1_000_000
    @Option(help: "Track points per visit.") var points = 30
    @Option(help: ArgumentHelp("Scratch database file (must not exist; kept).", valueName: "PATH")) var file: String?
    @Flag(help: "Only time the queries on an existing --file made by an earlier run.") var queriesOnly = false

    func validate() throws {
        guard visits > 0, points >= 0 else { throw ValidationError("--visits must be > 0 and --points >= 0") }
    }

    func run() throws {
        let temporary = file == nil
        let path = file ?? NSTemporaryDirectory() + "flytracker-bench-\(getpid())/bench.sqlite"
        guard queriesOnly == FileManager.default.fileExists(atPath: path), !queriesOnly || !temporary else {
            StandardStreams.error(queriesOnly ? "--queries-only needs an existing --file" : "\(path) exists; give a new file")
            throw ExitCode(1)
        }
        defer { if temporary { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) } }
        try reportingErrors {
            let database = try AppDatabase.open(path: path)
            if !queriesOnly {
                let fill = try StoreBenchmark.fill(database, visits: visits, pointsPerVisit: points)
                print("\(fill.name): \(Self.format(fill.duration))")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            print("database size: \(size / 1_048_576) MiB")
            for t in try StoreBenchmark.queries(database) {
                print("\(t.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(Self.format(t.duration))  (\(t.rows) rows)")
            }
        }
    }

    static func format(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return ms >= 1000 ? String(format: "%.2f s", ms / 1000) : String(format: "%.1f ms", ms)
    }
}
