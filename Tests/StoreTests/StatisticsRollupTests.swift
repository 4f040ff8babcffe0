import Foundation
import GRDB
import ModeS
import Testing
import Tracking
@testable import Services
@testable import Store

@Suite("Statistics rollups")
struct StatisticsRollupTests {
    static let t0 = StatisticsTests.t0
    static let day = 86_400.0

    /// The first 1000 visits of the generated log (3 days, 400 aircraft, 250 callsigns) with every
    /// seventh visit still open (open visits are never in the rollups).
    static func log() -> [VisitRecord] {
        StatisticsTests.generatedLog().prefix(1000).enumerated().map { i, v in
            var v = v
            v.closed = i % 7 != 0
            return v
        }
    }

    /// `log()` with its group keys, worked out once for the whole suite.
    static let keyedLog = KeyedLog(log())

    struct Window: Sendable, CustomStringConvertible {
        var name: String
        var since: Double?
        var until: Double?
        var description: String { name }
        func admits(_ v: VisitRecord) -> Bool { v.lastSeen >= (since ?? -.infinity) && v.firstSeen <= (until ?? .infinity) }
    }

    /// Windows with at least one whole day, starting and ending on day edges and mid-day.
    static let windows: [Window] = [
        Window(name: "everything"),
        Window(name: "since mid-day 0", since: t0 + 0.5 * day),
        Window(name: "mid-day 0 to mid-day 2", since: t0 + 0.25 * day, until: t0 + 2.6 * day),
        Window(name: "until mid-day 2", until: t0 + 2.3 * day),
        Window(name: "days 1 and 2 exactly", since: t0 + day, until: t0 + 3 * day),
        Window(name: "day 1 exactly", since: t0 + day, until: t0 + 2 * day),
        Window(name: "a second into day 1 to a second before day 3", since: t0 + day - 1, until: t0 + 3 * day - 1),
    ]

    /// A log with every visit's group keys worked out once (the brute force runs many times).
    struct KeyedLog {
        var visits: [VisitRecord]
        var keys: [[StatsDimension: String]]
        init(_ visits: [VisitRecord]) {
            self.visits = visits
            keys = visits.map { v in Dictionary(uniqueKeysWithValues: StatsDimension.allCases.map { ($0, StatisticsTests.key(v, $0)) }) }
        }

        /// The counts by brute force.
        func bruteForce(_ dimension: StatsDimension?, _ admit: (VisitRecord) -> Bool) async -> [String: StatsRow] {
            var groups: [String: (Set<Int>, Set<String>, Int, Int)] = [:]
            for (v, k) in zip(visits, keys) where admit(v) {
                let key = dimension.map { k[$0]! } ?? "total"
                var g = groups[key] ?? ([], [], 0, 0)
                g.0.insert(v.address)
                if let c = v.callsign { g.1.insert(c) }
                g.2 += 1
                g.3 += v.messages
                groups[key] = g
            }
            return Dictionary(uniqueKeysWithValues: groups.map { ($0.key, StatsRow(key: $0.key, aircraft: $0.value.0.count, flights: $0.value.1.count, visits: $0.value.2, messages: $0.value.3)) })
        }
    }

    /// Every dimension and the total from `path` equal the brute-force count.
    static func check(_ db: AppDatabase, _ log: KeyedLog, filter: StatsFilter, path: StatsPath,
                      admit: (VisitRecord) -> Bool) async throws {
        try await check(log, filter: filter, path: path, admit: admit) { dimension, filter, path in
            try await db.statistics.groups(by: dimension, filter: filter, path: path)
        }
    }

    /// Every dimension and the total that `answer` gives (`nil`: the total, one row) equal
    /// the brute-force count.
    static func check(_ log: KeyedLog, filter: StatsFilter, path: StatsPath, admit: (VisitRecord) -> Bool,
                      answer: (StatsDimension?, StatsFilter, StatsPath) async throws -> [StatsRow]) async throws {
        for dimension in StatsDimension.allCases {
            // By day with a type pattern is answered from the visit rows.
            let path = filter.typePattern != nil && dimension == .day && path == .rollup ? .automatic : path
            let rows = try await answer(dimension, filter, path)
            let expected = await log.bruteForce(dimension, admit)
            #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) }) == expected, "\(dimension) \(filter)")
            #expect(rows.count == expected.count, "\(dimension)")
        }
        let total = try await answer(nil, filter, path)
        await #expect(total == [log.bruteForce(nil, admit)["total"] ?? StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0)], "total \(filter)")
    }

    @Test("The rollup path equals a brute-force count for windows of whole and partial days", arguments: windows)
    func rollupWindows(_ w: Window) async throws {
        let log = Self.keyedLog
        let db = try StatisticsTests.database(log.visits)
        try await Self.check(db, log, filter: StatsFilter(since: w.since, until: w.until), path: .rollup, admit: w.admits)
        try await Self.check(db, log, filter: StatsFilter(since: w.since, until: w.until, typePattern: "B73*"), path: .rollup) {
            w.admits($0) && $0.typeCode?.hasPrefix("B73") == true
        }
        try await Self.check(db, log, filter: StatsFilter(since: w.since, until: w.until, typePattern: "a320"), path: .rollup) {
            w.admits($0) && $0.typeCode == "A320"
        }
    }

    @Test("Filters the rollups do not carry, and windows without a whole day, are answered from the visits")
    func fallsBack() async throws {
        let db = try StatisticsTests.database(Self.log())
        let shortWindow = StatsFilter(since: Self.t0 + 0.5 * Self.day, until: Self.t0 + 1.4 * Self.day)
        for filter in [StatsFilter(withinKm: 50), StatsFilter(towards: StatisticsTests.miami), shortWindow, StatsFilter(typePattern: "U*")] {
            await #expect(throws: StoreError.self) { try await db.statistics.total(filter: filter, path: .rollup) }
        }
        await #expect(throws: StoreError.self) { try await db.statistics.groups(by: .day, filter: StatsFilter(typePattern: "B73*"), limit: nil, path: .rollup) }
        // …and the automatic path still gives the brute-force answer for them.
        let log = Self.keyedLog
        try await Self.check(db, log, filter: shortWindow, path: .automatic) {
            $0.lastSeen >= Self.t0 + 0.5 * Self.day && $0.firstSeen <= Self.t0 + 1.4 * Self.day
        }
    }

    @Test("Deleting closed visits (retention) keeps every answer exact; a rebuild makes every day rollup-backed again")
    func deletions() async throws {
        var log = Self.log()
        let db = try StatisticsTests.database(log)
        let cutoff = Self.t0 + 1.2 * Self.day
        try await db.writer.write { d in try d.execute(sql: "DELETE FROM visit WHERE closed AND lastSeen < ?", arguments: [cutoff]) }
        log.removeAll { $0.closed && $0.lastSeen < cutoff }
        let validFrom = try await db.writer.read { d in try Int.fetchOne(d, sql: "SELECT validFrom FROM statMeta") }
        #expect(validFrom == Int(Self.t0 / Self.day) + 2)
        let keyed = KeyedLog(log)
        try await Self.check(db, keyed, filter: StatsFilter(), path: .rollup) { _ in true }
        try await Self.check(db, keyed, filter: StatsFilter(since: Self.t0 + 0.5 * Self.day), path: .rollup) { $0.lastSeen >= Self.t0 + 0.5 * Self.day }
        try db.rebuildStatistics()
        await #expect(try db.writer.read { d in try Int.fetchOne(d, sql: "SELECT validFrom FROM statMeta") } == 0)
        try await Self.check(db, keyed, filter: StatsFilter(), path: .rollup) { _ in true }
    }

    @Test("Retention prunes old visits and the rollup rows of their days; answers stay exact")
    func retention() async throws {
        var log = Self.log()
        let db = try StatisticsTests.database(log)
        let now = Self.t0 + 1.5 * Self.day + 730 * Self.day
        let policy = RetentionPolicy(trackPointDays: nil, visitDays: 730, journalDays: nil, deliveryDays: nil, maxTrackPoints: nil)
        let report = try await db.sightings.prune(policy, now: now)
        log.removeAll { $0.closed && $0.lastSeen < now - 730 * Self.day }
        #expect(report.visits > 0 && report.visits == 1000 - log.count)
        let (validFrom, oldRows) = try await db.writer.read { d in
            (try Int.fetchOne(d, sql: "SELECT validFrom FROM statMeta") ?? 0,
             try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM statDay WHERE day < (SELECT validFrom FROM statMeta)") ?? -1)
        }
        #expect(validFrom == Int(Self.t0 / Self.day) + 2 && oldRows == 0)
        try await Self.check(db, KeyedLog(log), filter: StatsFilter(), path: .rollup) { _ in true }
    }

    @Test("Migrating a database with visits from the previous schema backfills rollups that give the same answers")
    func migrationBackfill() async throws {
        let log = Self.keyedLog.visits
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try AppDatabase.migrator.migrate(queue, upTo: "v6-airports")
        // The columns of the v6 schema (later migrations add more).
        try await queue.write { d in
            for v in log {
                try d.execute(sql: """
                    INSERT INTO visit (id, address, firstSeen, lastSeen, callsign, typeCode, operatorName, category, maxAltitude, messages, closed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [v.id, v.address, v.firstSeen, v.lastSeen, v.callsign, v.typeCode, v.operatorName, v.category, v.maxAltitude,
                                     v.messages, v.closed])
            }
        }
        await #expect(try queue.read { d in try d.tableExists("statDay") } == false)
        let db = try AppDatabase(queue)
        #expect(try count(db, "statMember") > 0)
        let keyed = Self.keyedLog
        for w in Self.windows {
            try await Self.check(db, keyed, filter: StatsFilter(since: w.since, until: w.until), path: .rollup, admit: w.admits)
        }
        // The backfill and the triggers build the same rows.
        let fresh = try StatisticsTests.database(log)
        let sql = "SELECT * FROM statDay ORDER BY dimension, day, key"
        let migrated = try await db.writer.read { d in try Row.fetchAll(d, sql: sql) }
        let backfilled = try await fresh.writer.read { d in try Row.fetchAll(d, sql: sql) }
        #expect(backfilled == migrated)
        // Member day lists may be in another order; compare them as sets.
        func members(_ db: AppDatabase) throws -> [String: Set<Substring>] {
            try db.writer.read { d in
                var result: [String: Set<Substring>] = [:]
                for row in try Row.fetchAll(d, sql: "SELECT dimension, key, kind, member, firstDay, lastDay, days FROM statMember") {
                    let id = "\(row["dimension"] as Int)|\(row["key"] as String)|\(row["kind"] as Int)|\(row["member"] as DatabaseValue)|\(row["firstDay"] as Int)|\(row["lastDay"] as Int)"
                    result[id] = Set((row["days"] as String).split(separator: ","))
                }
                return result
            }
        }
        #expect(try members(db) == members(fresh))
    }

    @Test("An empty database migrates to the rollup tables, triggers and indexes")
    func emptyMigration() async throws {
        let db = try AppDatabase.inMemory()
        let names = try await db.writer.read { d in Set(try String.fetchAll(d, sql: "SELECT name FROM sqlite_master")) }
        for name in ["statDay", "statMember", "statMeta", "visit_stat_insert", "visit_stat_close", "visit_stat_change",
                     "visit_stat_delete", "visit_stat_type_insert", "visit_stat_type_close", "visit_open", "visit_duration", "visit_closest"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(try await db.statistics.total(filter: StatsFilter(), path: .rollup) == StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0))
        #expect(try await db.statistics.groups(by: .type, filter: StatsFilter(), limit: nil, path: .rollup).isEmpty)
    }

    @Test("The recorder's visits, open and closed, give the brute-force answers through the rollups")
    func recorder() async throws {
        let db = try AppDatabase.inMemory()
        var settings = RecorderSettings()
        settings.retention = nil
        settings.rulesReloadInterval = nil
        let recorder = try await SightingRecorder(database: db, settings: settings)
        var rng = SplitMix64(seed: 7)
        let types = ["B738", "A320", "E190", "B77W"]
        // 16 aircraft come and go over three days, a snapshot a minute; some callsigns change.
        var next = [Double](repeating: 0, count: 16)
        var until = [Double](repeating: -1, count: 16)
        var t = Self.t0 + 0.8 * Self.day
        let end = Self.t0 + 3.3 * Self.day
        while t < end {
            var seen: [Observation] = []
            for i in 0..<16 {
                if t > until[i], t >= next[i] {
                    until[i] = t + Double.random(in: 600...7200, using: &rng)
                    next[i] = until[i] + Double.random(in: 3600...40_000, using: &rng)
                }
                guard t <= until[i] else { continue }
                let flight = (Int(t / 10_000) + i) % 3 == 0 ? "DAL\(i)" : "AAL\(i % 11)"
                seen.append(Observation(key: UInt32(0xA0_0000 + i), callsign: i % 5 == 0 ? nil : flight,
                                        typeCode: i % 6 == 0 ? nil : types[i % types.count], operatorName: i % 2 == 0 ? "Delta" : "American",
                                        category: "A3", altitude: 1000 * (i + Int(t) % 20), messages: Int(t - Self.t0) / 3, lastSeen: t))
            }
            try await recorder.record(seen, at: t)
            t += 60
        }
        let log = try await db.writer.read { d in try VisitRecord.fetchAll(d) }
        #expect(log.contains { !$0.closed } && log.filter(\.closed).count > 40)
        let windows = [Window(name: "all"), Window(name: "since mid-day", since: Self.t0 + 1.5 * Self.day),
                       Window(name: "mid-day to mid-day", since: Self.t0 + 0.9 * Self.day, until: Self.t0 + 3.1 * Self.day)]
        let keyed = KeyedLog(log)
        for w in windows {
            try await Self.check(db, keyed, filter: StatsFilter(since: w.since, until: w.until), path: .rollup, admit: w.admits)
        }
    }

    @Test("Groups and total in one call equal the two separate answers, for every filter", arguments: StatisticsTests.filters)
    func groupsWithTotal(_ c: StatisticsTests.FilterCase) async throws {
        let log = Self.keyedLog
        let db = try StatisticsTests.database(log.visits)
        for dimension in StatsDimension.allCases {
            let (rows, total) = try await db.statistics.withTotal(by: dimension, filter: c.filter, limit: 3)
            await #expect(rows == Array(try db.statistics.groups(by: dimension, filter: c.filter, limit: nil, path: .raw).prefix(3)), "\(dimension)")
            await #expect(total == log.bruteForce(nil, c.admit)["total"] ?? StatsRow(key: "total", aircraft: 0, flights: 0, visits: 0, messages: 0))
        }
    }

    @Test("--towards counts exactly the visits heading to the place, for places anywhere on Earth")
    func towardsAnywhere() async throws {
        var rng = SplitMix64(seed: 11)
        let visits = (0..<4000).map { i in
            VisitRecord(address: i, firstSeen: Self.t0, lastSeen: Self.t0 + 60, lastLatitude: Double.random(in: -89...89, using: &rng),
                        lastLongitude: Double.random(in: -180...180, using: &rng),
                        lastTrack: i % 50 == 0 ? 0 : Double.random(in: 0..<360, using: &rng), closed: true)
        }
        let db = try StatisticsTests.database(visits)
        for _ in 0..<8 {
            let target = Coordinate(latitude: Double.random(in: -89...89, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
            let tolerance = [0.5, 20, 90, 179].randomElement(using: &rng)!
            let expected = visits.filter {
                StatsFilter.isHeading(from: Coordinate(latitude: $0.lastLatitude!, longitude: $0.lastLongitude!), track: $0.lastTrack!,
                                      to: target, tolerance: tolerance)
            }.count
            let total = try await db.statistics.total(filter: StatsFilter(towards: target, tolerance: tolerance), path: .raw)
            #expect(total.visits == expected, "\(target) ±\(tolerance)")
        }
    }

    @Test("Day lists: a member counts when one of its days is in the window")
    func dayLists() {
        #expect(AppDatabase.hasDay(firstDay: 10, lastDay: 20, days: ",10,20,", from: 12, to: 18) == false)
        #expect(AppDatabase.hasDay(firstDay: 10, lastDay: 20, days: ",20,15,10,", from: 12, to: 18))
        #expect(AppDatabase.hasDay(firstDay: 10, lastDay: 20, days: ",10,20,", from: 20, to: 30))
        #expect(AppDatabase.hasDay(firstDay: 10, lastDay: 20, days: ",10,20,", from: 0, to: 10))
        #expect(AppDatabase.hasDay(firstDay: 10, lastDay: 20, days: ",10,20,", from: 21, to: 30) == false)
        #expect(AppDatabase.hasDay(firstDay: 10, lastDay: 20, days: ",10,20,", from: 0, to: 9) == false)
        // Spanning both ends: the list decides (also for days before 1970).
        #expect(AppDatabase.hasDay(firstDay: -5, lastDay: 20, days: ",-5,20,", from: 5, to: 6) == false)
        #expect(AppDatabase.hasDay(firstDay: -5, lastDay: 20, days: ",-5,20,", from: -6, to: -5))
        #expect(AppDatabase.hasDay(firstDay: 1, lastDay: 20_460, days: ",20460,1,20455,", from: 20_450, to: 20_458))
    }
}
