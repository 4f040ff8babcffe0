import Foundation
import GRDB
import PostgresNIO
import PostgresTestSupport
import Testing
@testable import PostgresStore
@testable import Store

/// PostgreSQL's statistics rollups (`PostgresRollupSchema.v10`): the same answers as a brute-force
/// count and as SQLite, built by the same rules (trigger and backfill), kept exact through
/// retention, and not disturbed by a batch written twice.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PostgresRollupTests {
    typealias Rollup = StatisticsRollupTests

    /// A PostgreSQL store holding `log` (written as the recorder writes: batches of visits).
    static func store(_ log: [VisitRecord]) async throws -> PostgresStore {
        let store = try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(60))
        var start = 0
        while start < log.count {
            var batch = SightingBatch()
            batch.visits = Array(log[start..<min(start + 300, log.count)])
            _ = try await store.write(batch)
            start += batch.visits.count
        }
        return store
    }

    static func answer(_ store: PostgresStore) -> (StatsDimension?, StatsFilter, StatsPath) async throws -> [StatsRow] {
        { dimension, filter, path in try await store.statistics.groups(by: dimension, filter: filter, path: path) }
    }

    /// `SELECT` rows as text columns, sorted (to compare tables).
    static func rows(_ store: PostgresStore, _ sql: String) async throws -> [[String]] {
        var out: [[String]] = []
        for try await row in try await store.client.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test")) {
            out.append(try row.makeRandomAccess().map { try $0.decode(String?.self) ?? "NULL" })
        }
        return out.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// A SQLite value as PostgreSQL's `::text` writes it.
    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .int64(let i): String(i)
        case .double(let d): String(d)
        case .string(let s): s
        case .null: "NULL"
        case .blob(let b): b.base64EncodedString()
        }
    }

    /// Equal tables; a difference names the first few rows on either side only.
    static func expectSame(_ a: [[String]], _ b: [[String]], sourceLocation: SourceLocation = #_sourceLocation) {
        let (x, y) = (Set(a), Set(b))
        #expect(a.count == b.count && x == y, "only PostgreSQL: \(Array(x.subtracting(y).prefix(5))); only SQLite: \(Array(y.subtracting(x).prefix(5)))",
                sourceLocation: sourceLocation)
    }

    static func validFrom(_ store: PostgresStore) async throws -> Int {
        Int(try await rows(store, "SELECT validFrom::text FROM statMeta")[0][0])!
    }

    @Test("The rollup path equals a brute-force count for windows of whole and partial days, with and without a type",
          arguments: Rollup.windows)
    func rollupWindows(_ w: Rollup.Window) async throws {
        let log = Rollup.keyedLog
        let store = try await Self.store(log.visits)
        defer { store.close() }
        let answer = Self.answer(store)
        try await Rollup.check(log, filter: StatsFilter(since: w.since, until: w.until), path: .rollup, admit: w.admits, answer: answer)
        try await Rollup.check(log, filter: StatsFilter(since: w.since, until: w.until, typePattern: "B73*"), path: .rollup, admit: {
            w.admits($0) && $0.typeCode?.hasPrefix("B73") == true
        }, answer: answer)
        try await Rollup.check(log, filter: StatsFilter(since: w.since, until: w.until, typePattern: "a320"), path: .rollup, admit: {
            w.admits($0) && $0.typeCode == "A320"
        }, answer: answer)
    }

    @Test("Filters the rollups do not carry are refused by the rollup path and answered from the visits")
    func fallsBack() async throws {
        let store = try await Self.store(Rollup.keyedLog.visits)
        defer { store.close() }
        let shortWindow = StatsFilter(since: Rollup.t0 + 0.5 * Rollup.day, until: Rollup.t0 + 1.4 * Rollup.day)
        for filter in [StatsFilter(withinKm: 50), StatsFilter(towards: StatisticsTests.miami), shortWindow,
                       StatsFilter(typePattern: "U*"), StatsFilter(receiver: "north-pi")] {
            await #expect(throws: StoreError.self) { try await store.statistics.groups(by: nil, filter: filter, path: .rollup) }
        }
        await #expect(throws: StoreError.self) { try await store.statistics.groups(by: .day, filter: StatsFilter(typePattern: "B73*"), path: .rollup) }
        try await Rollup.check(Rollup.keyedLog, filter: shortWindow, path: .automatic, admit: {
            $0.lastSeen >= Rollup.t0 + 0.5 * Rollup.day && $0.firstSeen <= Rollup.t0 + 1.4 * Rollup.day
        }, answer: Self.answer(store))
    }

    @Test("The triggers build the same rollup rows as SQLite's, and as the backfill")
    func sameRowsAsSQLite() async throws {
        let log = Rollup.keyedLog.visits
        let store = try await Self.store(log)
        defer { store.close() }
        let sqlite = try StatisticsTests.database(log)
        let daySQL = "SELECT dimension, day, key, visits, messages, aircraft, flights FROM statDay"
        let fromSQLite = try await sqlite.writer.read { d in
            try Row.fetchAll(d, sql: daySQL).map { r in (0..<7).map { Self.text(r[$0]) } }
        }.sorted { $0.lexicographicallyPrecedes($1) }
        let castSQL = "SELECT dimension::text, day::text, key, visits::text, messages::text, aircraft::text, flights::text FROM statDay"
        let byTrigger = try await Self.rows(store, castSQL)
        #expect(byTrigger.count > 500)
        Self.expectSame(byTrigger, fromSQLite)
        // Members: the same rows, day lists compared as sets.
        let memberSQL = "SELECT dimension::text, key, kind::text, member, firstDay::text, lastDay::text, array_to_string(ARRAY(SELECT unnest(days) ORDER BY 1), ',') FROM statMember"
        let membersByTrigger = try await Self.rows(store, memberSQL)
        let sqliteMembers = try await sqlite.writer.read { d in
            try Row.fetchAll(d, sql: "SELECT dimension, key, kind, member, firstDay, lastDay, days FROM statMember").map { r -> [String] in
                let days = (r["days"] as String).split(separator: ",").compactMap { Int($0) }.sorted().map(String.init).joined(separator: ",")
                return ["\(r["dimension"] as Int)", r["key"], "\(r["kind"] as Int)", Self.text(r["member"]),
                        "\(r["firstDay"] as Int)", "\(r["lastDay"] as Int)", days]
            }
        }.sorted { $0.lexicographicallyPrecedes($1) }
        Self.expectSame(membersByTrigger, sqliteMembers)
        try await store.rebuildStatistics()
        #expect(try await Self.rows(store, castSQL) == byTrigger)
        #expect(try await Self.rows(store, memberSQL) == membersByTrigger)
    }

    @Test("Retention moves validFrom past the pruned days, cleans their rollup rows, and answers stay exact; a rebuild resets")
    func retention() async throws {
        var log = Rollup.log()
        let store = try await Self.store(log)
        defer { store.close() }
        let now = Rollup.t0 + 1.5 * Rollup.day + 730 * Rollup.day
        let policy = RetentionPolicy(trackPointDays: nil, visitDays: 730, journalDays: nil, deliveryDays: nil, maxTrackPoints: nil)
        let report = try await store.sightings.prune(policy, now: now)
        log.removeAll { $0.closed && $0.lastSeen < now - 730 * Rollup.day }
        #expect(report.visits > 0 && report.visits == 1000 - log.count)
        #expect(try await Self.validFrom(store) == Int(Rollup.t0 / Rollup.day) + 2)
        #expect(try await Self.rows(store, "SELECT COUNT(*)::text FROM statDay WHERE day < (SELECT validFrom FROM statMeta)") == [["0"]])
        let keyed = Rollup.KeyedLog(log)
        try await Rollup.check(keyed, filter: StatsFilter(), path: .rollup, admit: { _ in true }, answer: Self.answer(store))
        try await store.rebuildStatistics()
        #expect(try await Self.validFrom(store) == 0)
        try await Rollup.check(keyed, filter: StatsFilter(), path: .rollup, admit: { _ in true }, answer: Self.answer(store))
    }

    @Test("A batch written twice (a reply lost, the batch retried) leaves closed visits and the rollups as they were")
    func closedVisitsAreFinal() async throws {
        let log = Rollup.log()
        let store = try await Self.store(log)
        defer { store.close() }
        let before = try await Self.rows(store, "SELECT dimension::text, day::text, key, visits::text FROM statDay")
        var again = SightingBatch()
        again.visits = log.map { var v = $0; v.messages += 1; return v }
        _ = try await store.write(again)
        #expect(try await Self.rows(store, "SELECT dimension::text, day::text, key, visits::text FROM statDay") == before)
        #expect(try await Self.validFrom(store) == 0)
        // Open visits took the new values; closed ones kept theirs.
        let stored = try await store.sightings.allVisits()
        let opened = Dictionary(uniqueKeysWithValues: log.map { (VisitKey(address: $0.address, firstSeen: $0.firstSeen), $0) })
        for v in stored {
            let original = opened[VisitKey(address: v.address, firstSeen: v.firstSeen)]!
            #expect(v.messages == original.messages + (original.closed ? 0 : 1))
        }
        try await Rollup.check(Rollup.KeyedLog(stored), filter: StatsFilter(), path: .rollup, admit: { _ in true }, answer: Self.answer(store))
    }

    @Test("The recorder's visits, open and closing over three days, give the brute-force answers on every path")
    func recordedOverDays() async throws {
        let store = try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(60))
        defer { store.close() }
        let log = Rollup.log().map { v -> VisitRecord in var v = v; v.closed = false; return v }
        // Written open first, then closed (the recorder's order): the close trigger adds them.
        var open = SightingBatch()
        open.visits = log
        _ = try await store.write(open)
        var close = SightingBatch()
        close.visits = Rollup.log()
        _ = try await store.write(close)
        let keyed = await Rollup.KeyedLog(try store.sightings.allVisits())
        for path in [StatsPath.rollup, .raw] {
            try await Rollup.check(keyed, filter: StatsFilter(since: Rollup.t0 + 0.3 * Rollup.day), path: path,
                             admit: { $0.lastSeen >= Rollup.t0 + 0.3 * Rollup.day }, answer: Self.answer(store))
        }
    }
}
