import ArgumentParser
import Foundation
import Store

/// The store benchmark's options, shared by `flytracker bench --store` and its alias
/// `flytracker db bench`.
struct StoreBenchOptions: ParsableArguments {
    static let defaultVisits = 100_000
    static let defaultPoints = 10

    @Option(help: "Visits to generate over a year (a busy site: about 1000000; default \(defaultVisits)).")
    var visits: Int?
    @Option(help: "Track points per visit (a year of a busy site: 20 or more; default \(defaultPoints)).")
    var points: Int?
    @Option(help: ArgumentHelp("Scratch database file (must not exist; kept). Default: a temporary file, removed afterwards.", valueName: "PATH"))
    var file: String?
    @Flag(help: "Only time the queries on an existing --file made by an earlier run.")
    var queriesOnly = false

    /// Whether any store option was given (they need `--store` in `bench`).
    var isSet: Bool { visits != nil || points != nil || file != nil || queriesOnly }

    /// The first problem with the options, as one line.
    var problem: String? {
        if let visits, visits < 1 { return "--visits must be at least 1" }
        if let points, points < 0 { return "--points must not be negative" }
        if let points, let visits, visits.multipliedReportingOverflow(by: points).overflow { return "--visits × --points is too large" }
        if queriesOnly && (visits != nil || points != nil) { return "--queries-only times an existing --file; it takes no --visits or --points" }
        if queriesOnly && file == nil { return "--queries-only needs an existing --file" }
        return nil
    }

    /// Fills (unless `--queries-only`) and times; prints one line per step.
    func run() throws {
        let temporary = file == nil
        let path = file ?? NSTemporaryDirectory() + "flytracker-bench-\(getpid())/bench.sqlite"
        let exists = FileManager.default.fileExists(atPath: path)
        if queriesOnly && !exists {
            StandardStreams.error("--queries-only needs an existing --file; \(path) does not exist")
            throw ExitCode(1)
        }
        if !queriesOnly && exists {
            StandardStreams.error("\(path) exists; give a new file (or --queries-only to time it)")
            throw ExitCode(1)
        }
        defer { if temporary { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) } }
        try reportingErrors {
            let database = try AppDatabase.open(path: path)
            if !queriesOnly {
                let visits = visits ?? Self.defaultVisits, points = points ?? Self.defaultPoints
                let step = max(100_000, visits / 10)
                var shown = 0
                let fill = try StoreBenchmark.fill(database, visits: visits, pointsPerVisit: points) { written in
                    if written - shown >= step || written == visits {
                        shown = written
                        StandardStreams.error("store: \(written) visits written")
                    }
                }
                let seconds = Self.seconds(fill.duration)
                print("store: \(fill.name) in \(Self.format(fill.duration)) (\(Int(Double(visits) / seconds)) visits/s, \(Int(Double(visits * points) / seconds)) points/s)")
            }
            _ = try database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            var size = 0
            for suffix in ["", "-wal"] {
                size += (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
            }
            let counts = try database.writer.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM visit") ?? 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM trackPoint") ?? 0)
            }
            print("store: database \(counts.0) visits, \(counts.1) track points, \(size / 1_048_576) MiB")
            for t in try StoreBenchmark.queries(database) {
                print("store: \(t.name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(Self.format(t.duration))  (\(t.rows) rows)")
            }
        }
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

    static func format(_ d: Duration) -> String {
        let ms = seconds(d) * 1000
        return ms >= 1000 ? String(format: "%.2f s", ms / 1000) : String(format: "%.1f ms", ms)
    }
}

/// `flytracker db bench`: the same as `flytracker bench --store` (kept as an alias).
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Fill a scratch database with a generated year of sightings and time the statistics queries (same as 'flytracker bench --store').",
        discussion: "The database is a new file (default: a temporary one, removed afterwards); the user's database is not touched. A busy site's year: --visits 1000000 --points 20."
    )

    @OptionGroup var options: StoreBenchOptions

    func validate() throws {
        if let problem = options.problem {
            StandardStreams.error(problem)
            throw ExitCode(1)
        }
    }

    func run() throws { try options.run() }
}
