import Benchmarks
import ArgumentParser
import Foundation
import PostgresStore
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
    @Flag(help: "Time the feed instead: a site of 1000 users with friends and groups and --posts posts (default 1000000), then pages of 50.")
    var feed = false
    @Option(help: "With --feed: posts to generate.")
    var posts: Int?
    @Option(help: ArgumentHelp("Also copy the visits into this PostgreSQL database (it must hold no visits) and time the same queries there, side by side, checking the answers are the same.", valueName: "postgres://…"))
    var postgres: String?

    /// Whether any store option was given (they need `--store` in `bench`).
    var isSet: Bool { visits != nil || points != nil || file != nil || queriesOnly || postgres != nil || feed || posts != nil }

    /// The first problem with the options, as one line.
    var problem: String? {
        if let visits, visits < 1 { return "--visits must be at least 1" }
        if let points, points < 0 { return "--points must not be negative" }
        if let points, let visits, visits.multipliedReportingOverflow(by: points).overflow { return "--visits × --points is too large" }
        if queriesOnly && (visits != nil || points != nil) { return "--queries-only times an existing --file; it takes no --visits or --points" }
        if queriesOnly && file == nil { return "--queries-only needs an existing --file" }
        if let postgres, !PostgresURL.isPostgres(postgres) { return "--postgres takes a postgres:// URL, not \(postgres)" }
        if posts != nil && !feed { return "--posts needs --feed" }
        if let posts, !(1...50_000_000).contains(posts) { return "--posts must be 1…50000000" }
        return nil
    }

    /// Fills (unless `--queries-only`) and times; prints one line per step.
    func run() async throws {
        if feed { return try await runPosts() }
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
        let database = try await reportingErrors { () async throws -> AppDatabase in
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
            _ = try await database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            var size = 0
            for suffix in ["", "-wal"] {
                size += (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
            }
            let counts = try await database.writer.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM visit") ?? 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM trackPoint") ?? 0)
            }
            print("store: database \(counts.0) visits, \(counts.1) track points, \(size / 1_048_576) MiB")
            let timings = try await StoreBenchmark.queries(database)
            if let postgres {
                try await compare(database, timings, postgres: try PostgresURL(postgres))
            } else {
                for t in timings {
                    print("store: \(t.name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(Self.format(t.duration))  (\(t.rows) rows)")
                }
            }
            return database
        }
        try await reportingErrors {
            let (grdb, seam, same) = try await StoreBenchmark.seamReads(database)
            for t in [grdb, seam, try await StoreBenchmark.grdbRoundTrip(database)] {
                print("store: \(t.name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(Self.format(t.duration))")
            }
            print("store: the storage seam reads the same records: \(same ? "yes" : "NO")")
        }
    }

    /// Copies the visits into PostgreSQL (written as the recorder writes them, so its rollup
    /// triggers run; track points are not copied: no statistic reads them) and prints both
    /// engines' times per question, and whether the answers agree.
    func compare(_ database: AppDatabase, _ sqlite: [StoreBenchmark.Timing], postgres url: PostgresURL) async throws {
        let store = try await PostgresStore.open(url)
        do {
            try await compare(database, sqlite, on: store)
            store.close()
        } catch {
            store.close()
            throw error
        }
    }

    private func compare(_ database: AppDatabase, _ sqlite: [StoreBenchmark.Timing], on store: PostgresStore) async throws {
        let held = try await store.statistics.groups(by: nil, filter: StatsFilter(), path: .raw).first?.visits ?? 0
        let local = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM visit") ?? 0 }
        if queriesOnly && held == local {
            print("store: PostgreSQL holds the \(held) visits of an earlier copy; timing the queries only")
        } else if held != 0 {
            StandardStreams.error("database \(store.url.database) on \(store.url.host) holds \(held) visits; give an empty database (or, with --queries-only, the copy of this --file)")
            throw ExitCode(1)
        } else {
            try await copy(database, into: store)
        }
        let timings = try await StoreBenchmark.queries(store)
        print("store: \("question".padding(toLength: 48, withPad: " ", startingAt: 0)) \("SQLite".padding(toLength: 9, withPad: " ", startingAt: 0)) PostgreSQL  same answer")
        var differing = 0
        for (a, b) in zip(sqlite, timings) {
            let same = a.name.hasPrefix("random") ? a.rows == b.rows : a.answer == b.answer
            if !same { differing += 1 }
            print("store: \(a.name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(Self.format(a.duration).padding(toLength: 9, withPad: " ", startingAt: 0)) \(Self.format(b.duration).padding(toLength: 10, withPad: " ", startingAt: 0))  \(same ? "yes" : "NO")")
        }
        if differing > 0 {
            StandardStreams.error("store: \(differing) answers differ between SQLite and PostgreSQL")
            throw ExitCode(1)
        }
    }

    /// Writes every visit of `database` into `store` in batches of 5000, then ANALYZE.
    func copy(_ database: AppDatabase, into store: PostgresStore) async throws {
        let clock = ContinuousClock()
        let began = clock.now
        var copied = 0
        var after: Int64 = 0
        while true {
            let page = try await database.sql.all("SELECT * FROM visit WHERE id > \(after) ORDER BY id LIMIT 5000", as: VisitRecord.self)
            guard let last = page.last?.id else { break }
            after = last
            var batch = SightingBatch()
            batch.visits = page.map { var visit = $0; visit.id = nil; return visit }
            _ = try await store.write(batch)
            copied += page.count
        }
        try await store.analyze()
        let copy = clock.now - began
        print("store: copied \(copied) visits into PostgreSQL in \(Self.format(copy)) (\(Int(Double(copied) / Self.seconds(copy))) visits/s, rollups by trigger, then ANALYZE)")
    }

    /// `--feed`: a scratch database of posts, and the time of each kind of page.
    func runPosts() async throws {
        let directory = NSTemporaryDirectory() + "flytracker-feed-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await reportingErrors {
            let database = try AppDatabase.open(path: directory + "/feed.sqlite")
            let n = posts ?? 1_000_000
            let filled = try PostsBenchmark.fill(database, posts: n)
            print("feed: \(n) posts, 1000 users with 20 friends each, 50 groups of 40, written in \(String(format: "%.1f", filled)) s")
            for t in try await PostsBenchmark.pages(database) {
                print("feed: \(t.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(String(format: "%.2f ms", t.seconds * 1000))  (\(t.rows) posts)")
            }
        }
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

    static func format(_ d: Duration) -> String {
        let ms = seconds(d) * 1000
        return ms >= 1000 ? String(format: "%.2f s", ms / 1000) : ms >= 10 ? String(format: "%.1f ms", ms) : String(format: "%.2f ms", ms)
    }
}

/// `flytracker db bench`: the same as `flytracker bench --store` (kept as an alias).
struct StoreBenchCommand: AsyncParsableCommand {
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

    func run() async throws { try await options.run() }
}
