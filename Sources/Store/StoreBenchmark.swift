import GRDB
import ModeS

/// The store part of `flytracker bench`: fills a database with a generated year of a busy
/// site (visits and track points, written with prepared statements in large transactions)
/// and times the statistics queries on it.
public enum StoreBenchmark {
    public struct Timing: Sendable {
        public var name: String
        public var duration: Duration
        /// Rows the query returned (or rows written).
        public var rows: Int
    }

    /// Writes `visits` visits spread over `days` days with `pointsPerVisit` track points each.
    public static func fill(_ database: AppDatabase, visits: Int, pointsPerVisit: Int, days: Double = 365,
                            start: Double = 1_735_689_600, seed: UInt64 = 1) throws -> Timing {
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
        let types = ["B738", "B737", "B38M", "A320", "A321", "A319", "A20N", "A21N", "E190", "E75L", "B77W", "B789", "A333", "CRJ9", "DH8D", "C172"]
        let operators = ["American Airlines", "Delta Air Lines", "United Airlines", "Southwest Airlines", "JetBlue", "Spirit Airlines", "FedEx Express", "British Airways", "Lufthansa", "KLM Royal Dutch Airlines"]
        let prefixes = ["AAL", "DAL", "UAL", "SWA", "JBU", "NKS", "FDX", "BAW", "DLH", "KLM"]
        let chunk = 10_000
        var written = 0
        while written < visits {
            let n = min(chunk, visits - written)
            try database.writer.write { db in
                let visit = try db.makeStatement(sql: """
                    INSERT INTO visit (address, firstSeen, lastSeen, callsign, callsigns, typeCode, operatorName, category,
                    minAltitude, maxAltitude, closestDistance, messages, positions, lastLatitude, lastLongitude, lastTrack, closed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'A3', ?, ?, ?, ?, ?, ?, ?, ?, 1)
                    """)
                let point = try db.makeStatement(sql: """
                    INSERT INTO trackPoint (visitId, time, latitude, longitude, altitude, track, groundSpeed) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                for i in 0..<n {
                    let first = start + uniform() * days * 86_400
                    let duration = 300 + uniform() * 1800
                    let airline = Int(next() % UInt64(prefixes.count))
                    let callsign = prefixes[airline] + String(next() % 3000 + 1)
                    let altitude = Int(next() % 40_000)
                    let lat = 25.8 + (uniform() - 0.5) * 4, lon = -80.3 + (uniform() - 0.5) * 4
                    let track = uniform() * 360
                    try visit.execute(arguments: [Int(0xA00000 + next() % 20_000), first, first + duration, callsign, callsign,
                                                  types[Int(next() % UInt64(types.count))], operators[airline], altitude / 2, altitude,
                                                  uniform() * 150, Int(next() % 2000), pointsPerVisit, lat, lon, track])
                    let id = db.lastInsertedRowID
                    for p in 0..<pointsPerVisit {
                        try point.execute(arguments: [id, first + Double(p) * 10, lat, lon + Double(p) * 0.01, altitude, track, 400])
                    }
                    _ = i
                }
            }
            written += n
        }
        return Timing(name: "write \(visits) visits, \(visits * pointsPerVisit) track points", duration: clock.now - began, rows: visits)
    }

    /// Times the statistics queries `stats` runs over the last `days` days before `end`.
    public static func queries(_ database: AppDatabase, end: Double = 1_767_225_600) throws -> [Timing] {
        let clock = ContinuousClock()
        let day = 86_400.0
        let miami = Coordinate(latitude: 25.7959, longitude: -80.2870)
        let cases: [(String, StatsDimension?, StatsFilter)] = [
            ("by type, one year", .type, StatsFilter(since: end - 365 * day)),
            ("by operator, one year", .operator, StatsFilter(since: end - 365 * day)),
            ("by hour, one year", .hour, StatsFilter(since: end - 365 * day)),
            ("by day, one year", .day, StatsFilter(since: end - 365 * day)),
            ("by altitude, 30 days", .altitude, StatsFilter(since: end - 30 * day)),
            ("by type, one day, B73*", .type, StatsFilter(since: end - day, typePattern: "B73*")),
            ("by type, one year, B73* towards KMIA", .type, StatsFilter(since: end - 365 * day, typePattern: "B73*", towards: miami)),
            ("total, one year, within 20 km", nil, StatsFilter(since: end - 365 * day, withinKm: 20)),
        ]
        var timings: [Timing] = []
        for (name, dimension, filter) in cases {
            let began = clock.now
            let rows = try dimension.map { try database.statistics(by: $0, filter: filter).count } ?? database.statisticsTotal(filter: filter).visits
            timings.append(Timing(name: name, duration: clock.now - began, rows: rows))
        }
        let began = clock.now
        let pick = try database.randomVisit(filter: StatsFilter(since: end - day))
        timings.append(Timing(name: "random aircraft of the last day", duration: clock.now - began, rows: pick == nil ? 0 : 1))
        return timings
    }
}
