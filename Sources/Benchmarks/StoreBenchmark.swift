import GRDB
import ModeS
import Store
import Tracking

/// The store part of `flytracker bench`: fills a scratch database with a generated stretch of a
/// busy site's log (visits and track points, written with prepared statements in large
/// transactions, the statistics rollups maintained by their triggers as in a live run) and
/// times the `stats` queries on it.
///
/// The generated site: a fleet of aircraft (about one per 50 visits a year) of fixed type,
/// operator and category; flights (callsign = airline + number) each at its own hour of day,
/// flown by the airline's aircraft; positions within 2° of Miami.
public enum StoreBenchmark {
    public struct Timing: Sendable {
        public var name: String
        public var duration: Duration
        /// Rows the query returned (or visits written).
        public var rows: Int
        /// What the query answered (to compare engines).
        public var answer: [StatsRow] = []
    }

    /// A statistics question answered by some store: groups of a dimension (nil: the total
    /// alone, one row), at most `limit`, by the given path.
    /// The first generated day (2025-01-01 00:00 UTC).
    public static let start = 1_735_689_600.0

    /// Writes `visits` closed visits spread over `days` days from `start`, with
    /// `pointsPerVisit` track points each, `batch` visits per transaction. `progress` is
    /// called after each transaction with the visits written so far.
    public static func fill(_ database: AppDatabase, visits: Int, pointsPerVisit: Int, days: Int = 365,
                            seed: UInt64 = 1, batch: Int = 20_000, progress: (Int) -> Void = { _ in }) throws -> Timing {
        let clock = ContinuousClock()
        let began = clock.now
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
        func pick(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

        let types = ["B738", "B737", "B38M", "A320", "A321", "A319", "A20N", "A21N", "E190", "E75L", "B77W", "B789", "A333", "CRJ9", "DH8D", "C172"]
        let categories = ["A3", "A3", "A3", "A3", "A3", "A3", "A3", "A3", "A3", "A2", "A5", "A5", "A5", "A2", "A2", "A1"]
        let operators = ["American Airlines", "Delta Air Lines", "United Airlines", "Southwest Airlines", "JetBlue", "Spirit Airlines", "FedEx Express", "British Airways", "Lufthansa", "KLM Royal Dutch Airlines"]
        let prefixes = ["AAL", "DAL", "UAL", "SWA", "JBU", "NKS", "FDX", "BAW", "DLH", "KLM"]
        // Each airline flies a few of the types.
        let airlineTypes = prefixes.indices.map { a in (0..<3).map { (a * 5 + $0 * 3) % types.count } }
        let fleetSize = max(10, visits * 365 / max(1, days) / 50)
        let fleet = (0..<fleetSize).map { i -> (address: Int, airline: Int, type: Int) in
            let airline = i % prefixes.count
            return (0xA0_0000 + i, airline, airlineTypes[airline][pick(3)])
        }
        let flightsPerAirline = max(1, fleetSize / 12)

        // Point k of a visit: every 10 s along its track (from the visit's start).
        try database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY")
        }
        var written = 0
        while written < visits {
            let n = min(batch, visits - written)
            var rows: [(first: Double, duration: Double, plane: Int, flight: Int)] = (0..<n).map { i in
                let dayIndex = (written + i) * days / visits
                let airline = pick(prefixes.count)
                let number = pick(flightsPerAirline) + 1
                let hour = (number * 7 + airline * 5) % 24
                let first = start + Double(dayIndex) * 86_400 + Double(hour) * 3600 + uniform() * 3600
                let plane = pick(fleetSize / prefixes.count) * prefixes.count + airline
                return (first, 300 + uniform() * 1800, min(plane, fleetSize - 1), airline * 10_000 + number)
            }
            rows.sort { $0.first < $1.first }
            try database.writer.write { db in
                try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS benchStep (k INTEGER PRIMARY KEY)")
                if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp.benchStep") != pointsPerVisit {
                    try db.execute(sql: "DELETE FROM temp.benchStep")
                    for k in 0..<pointsPerVisit { try db.execute(sql: "INSERT INTO temp.benchStep (k) VALUES (?)", arguments: [k]) }
                }
                let visit = try db.cachedStatement(sql: """
                    INSERT INTO visit (address, firstSeen, lastSeen, callsign, callsigns, typeCode, operatorName, category,
                    minAltitude, maxAltitude, closestDistance, closestTime, messages, positions, lastLatitude, lastLongitude, lastTrack, closed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                    """)
                let points = try db.cachedStatement(sql: """
                    INSERT INTO trackPoint (visitId, time, latitude, longitude, altitude, track, groundSpeed)
                    SELECT ?1, ?2 + 10 * k, ?3 + k * ?4, ?5 + k * ?6, ?7, ?8, 420 FROM temp.benchStep
                    """)
                for r in rows {
                    let plane = fleet[r.plane]
                    let callsign = prefixes[r.flight / 10_000] + String(r.flight % 10_000)
                    let altitude = Int(next() % 40_000)
                    let lat = 25.8 + (uniform() - 0.5) * 4, lon = -80.3 + (uniform() - 0.5) * 4
                    let track = uniform() * 360
                    try visit.execute(arguments: [plane.address, r.first, r.first + r.duration, callsign, callsign,
                                                  types[plane.type], operators[plane.airline], categories[plane.type],
                                                  altitude / 2, altitude, uniform() * 150, r.first + r.duration / 2,
                                                  Int(next() % 2000) + 1, pointsPerVisit, lat, lon, track])
                    if pointsPerVisit > 0 {
                        let id = db.lastInsertedRowID
                        let step = 10.0 / 3600 * 7 / 60   // about 420 kt, in degrees per 10 s
                        try points.execute(arguments: [id, r.first, lat - Double(pointsPerVisit) * step, step,
                                                       lon, step / 2, altitude, track])
                    }
                }
            }
            written += n
            progress(written)
        }
        return Timing(name: "write \(visits) visits, \(visits * pointsPerVisit) track points", duration: clock.now - began, rows: visits)
    }

    /// Times the `stats` queries of any store at `now` (default: 7 hours before the end of a
    /// 365-day fill, so windows begin and end mid-day).
    public static func queries(_ store: any SightingStore, now: Double = start + 365 * 86_400 - 7 * 3600) async throws -> [Timing] {
        let clock = ContinuousClock()
        let day = 86_400.0
        let year = now - 365 * day
        let miami = Coordinate(latitude: 25.7959, longitude: -80.2870)
        let spring = StatsFilter(since: now - 240.4 * day, until: now - 210.6 * day)
        let cases: [(String, StatsDimension?, StatsFilter)] = [
            ("total, one year", nil, StatsFilter(since: year)),
            ("by type, one year", .type, StatsFilter(since: year)),
            ("by operator, one year", .operator, StatsFilter(since: year)),
            ("by category, one year", .category, StatsFilter(since: year)),
            ("by altitude, one year", .altitude, StatsFilter(since: year)),
            ("by hour, one year", .hour, StatsFilter(since: year)),
            ("by day, one year", .day, StatsFilter(since: year)),
            ("by type, 30 days", .type, StatsFilter(since: now - 30 * day)),
            ("by operator, a month last spring", .operator, spring),
            ("by hour, a month last spring", .hour, spring),
            ("by type, one year, B73*", .type, StatsFilter(since: year, typePattern: "B73*")),
            ("total, one year, B73*", nil, StatsFilter(since: year, typePattern: "B73*")),
            ("by operator, one year, B73*", .operator, StatsFilter(since: year, typePattern: "B73*")),
            ("by type, one day, B73*", .type, StatsFilter(since: now - day, typePattern: "B73*")),
            ("by type, one year, B73* towards KMIA", .type, StatsFilter(since: year, typePattern: "B73*", towards: miami)),
            ("by operator, one year, towards KMIA", .operator, StatsFilter(since: year, towards: miami)),
            ("total, one year, within 20 km", nil, StatsFilter(since: year, withinKm: 20)),
            ("by type, one year, within 20 km", .type, StatsFilter(since: year, withinKm: 20)),
            ("top 5 operators, one year", .operator, StatsFilter(since: year)),
        ]
        // The same questions answered from the visit rows only (as before the rollups), for comparison.
        let rawCases: [(String, StatsDimension?, StatsFilter)] = [
            ("by type, one year, visits only", .type, StatsFilter(since: year)),
            ("by hour, one year, visits only", .hour, StatsFilter(since: year)),
            ("by operator, a month last spring, visits only", .operator, spring),
            ("by hour, a month last spring, visits only", .hour, spring),
        ]
        var timings: [Timing] = []
        for ((name, dimension, filter), path) in cases.map({ ($0, StatsPath.automatic) }) + rawCases.map({ ($0, StatsPath.raw) }) {
            let began = clock.now
            let limit = name.hasPrefix("top 5") ? 5 : nil
            let answer = try await store.statistics.groups(by: dimension, filter: filter, limit: limit, path: path)
            let rows = dimension == nil ? answer.first?.visits ?? 0 : answer.count
            timings.append(Timing(name: name, duration: clock.now - began, rows: rows, answer: answer))
        }
        for (name, filter) in [("random aircraft of the last day", StatsFilter(since: now - day)),
                               ("random aircraft of the year", StatsFilter(since: year))] {
            // The first draw prepares its statements; the web asks again and again.
            var picked = 0
            let durations = try await timed(9) { picked = try await store.statistics.randomVisit(filter: filter) == nil ? 0 : 1 }
            timings.append(Timing(name: name, duration: durations[0], rows: picked))
            timings.append(Timing(name: name + ", again (median)", duration: median(durations.dropFirst()), rows: picked))
        }
        timings.append(try await roundTrip(store.sql))
        return timings
    }

    /// One statement of one row through the storage seam (`SELECT 1`), the median of
    /// `repetitions`: what every small question pays before SQL runs.
    public static func roundTrip(_ database: any SQLDatabase, repetitions: Int = 201) async throws -> Timing {
        let durations = try await timed(repetitions) { _ = try await database.value("SELECT \(1)", as: Int.self) }
        return Timing(name: "one statement through the seam (median)", duration: median(durations), rows: 1)
    }

    /// `roundTrip`'s statement through GRDB's own async read, for comparison.
    public static func grdbRoundTrip(_ database: AppDatabase, repetitions: Int = 201) async throws -> Timing {
        let durations = try await timed(repetitions) {
            _ = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT ?", arguments: [1]) }
        }
        return Timing(name: "one statement, GRDB directly (median)", duration: median(durations), rows: 1)
    }

    /// How long each of `repetitions` runs of `body` took, in order.
    static func timed(_ repetitions: Int, _ body: () async throws -> Void) async rethrows -> [Duration] {
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for _ in 0..<repetitions {
            let began = clock.now
            try await body()
            durations.append(clock.now - began)
        }
        return durations
    }

    static func median(_ durations: some Collection<Duration>) -> Duration {
        durations.sorted()[durations.count / 2]
    }

    /// Reading visit rows as records, GRDB's own decoding against the storage seam's
    /// (`SQLDatabase.all`, what every repository on the seam uses), the same rows from the same
    /// file, each path run twice and the faster kept; and whether both read the same records.
    public static func seamReads(_ database: AppDatabase, limit: Int = 100_000) async throws -> (grdb: Timing, seam: Timing, same: Bool) {
        let clock = ContinuousClock()
        var direct: [VisitRecord] = [], seam: [VisitRecord] = []
        var grdbTime = Duration.seconds(1_000_000), seamTime = grdbTime
        for _ in 0..<2 {
            var began = clock.now
            direct = try await database.writer.read { db in
                try VisitRecord.fetchAll(db, sql: "SELECT * FROM visit ORDER BY id LIMIT ?", arguments: [limit])
            }
            grdbTime = min(grdbTime, clock.now - began)
            began = clock.now
            seam = try await database.sql.all("SELECT * FROM visit ORDER BY id LIMIT \(limit)", as: VisitRecord.self)
            seamTime = min(seamTime, clock.now - began)
        }
        return (Timing(name: "\(direct.count) visits as records, GRDB", duration: grdbTime, rows: direct.count),
                Timing(name: "\(seam.count) visits as records, storage seam", duration: seamTime, rows: seam.count),
                direct == seam)
    }
}
