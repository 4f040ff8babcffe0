import Foundation
import GRDB
import ModeS
import PostgresStore
import PostgresTestSupport
import Testing
import Tracking
@testable import Services
@testable import Store

/// The store's behaviour on both engines: every test runs against SQLite and against a real
/// PostgreSQL server (`PostgresTestServer`), and where both hold the same log they must
/// give the same answers.
@Suite(.serialized, .timeLimit(.minutes(3))) struct EngineParityTests {
    static let start = 1_795_000_000.0
    static let receivers = ["north-pi", "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9", "south-pi"].map { ReceiverID.uuid($0) ?? ReceiverID(rawValue: $0)! }
    static let types = ["B738", "A320", "A388", "B77W", "E190", nil]
    static let operators = ["KLM", "Lufthansa", "Emirates", nil]

    /// A day of generated sightings: `count` aircraft, each seen in one or two visits at
    /// varied hours, altitudes, distances, tracks and receivers; alice tracks B738s.
    static func fill(_ store: any SightingStore, aircraft count: Int = 60) async throws -> SightingRecorder {
        try await store.accounts.add(username: "alice", password: "correct horse", now: start, cost: testCost)
        try await store.watchlists.add(username: "alice", kind: .type, value: "B738", now: start)
        var settings = RecorderSettings()
        settings.retention = nil
        settings.rulesReloadInterval = nil
        let recorder = try await SightingRecorder(store: store, settings: settings)
        var rng = SplitMix64(seed: 42)
        var schedule: [(time: Double, observation: Observation)] = []
        for i in 0..<count {
            let visits = 1 + Int(rng.next() % 2)
            for v in 0..<visits {
                let first = start + Double(rng.next() % 80_000) + Double(v) * 3_000
                let track = Double(rng.next() % 360)
                let base = Coordinate(latitude: 50 + Double(rng.next() % 400) / 100, longitude: 2 + Double(rng.next() % 500) / 100)
                let heard = (0..<3).filter { _ in rng.next() % 2 == 0 }.map { receivers[$0] }
                for step in 0..<6 {
                    let t = first + Double(step) * 20
                    var o = Observation(key: UInt32(0x400000 + i), callsign: i % 7 == 0 ? nil : "FT\(i % 40)",
                                        typeCode: types[i % types.count], operatorName: operators[i % operators.count],
                                        category: i % 3 == 0 ? "A3" : nil, altitude: i % 5 == 0 ? nil : 1000 * (i % 45) + step * 100,
                                        position: Coordinate(latitude: base.latitude + Double(step) * 0.01, longitude: base.longitude),
                                        positionTime: t, track: track, groundSpeed: 400, distance: Double(i % 50) + Double(step),
                                        messages: 10 * (step + 1), lastSeen: t)
                    for (k, r) in heard.enumerated() { o.receivers[r] = ReceiverHearing(lastSeen: t, messages: 3 * (step + 1), signal: -10 - Double(k)) }
                    schedule.append((t, o))
                }
            }
        }
        schedule.sort { $0.time < $1.time }
        var batch: [Observation] = []
        var batchTime = schedule.first?.time ?? start
        for (t, o) in schedule {
            if t - batchTime >= 30 {
                try await recorder.record(batch, at: batchTime)
                batch = []
                batchTime = t
            }
            batch.append(o)
        }
        try await recorder.record(batch, at: batchTime)
        try await recorder.finish(at: start + 100_000)
        return recorder
    }

    /// Visits without their ids, in a fixed order.
    static func visits(_ store: any SightingStore) async throws -> [VisitRecord] {
        var all: [VisitRecord] = []
        for i in 0..<60 { await all += try store.sightings.visits(address: UInt32(0x400000 + i), limit: 10) }
        return all.map { var v = $0; v.id = nil; return v }.sorted { ($0.address, $0.firstSeen) < ($1.address, $1.firstSeen) }
    }

    @Test(arguments: Engine.allCases)
    func migrationsAreTheSameListOnBothEngines(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let ids: [String]
        if let pg = store as? PostgresStore {
            ids = try await pg.appliedMigrations()
        } else {
            let database = try #require(store as? AppDatabase)
            ids = try await database.writer.read { db in try AppDatabase.migrator.appliedMigrations(db) }
        }
        #expect(ids == AppDatabase.migrator.migrations)
    }

    @Test(arguments: Engine.allCases)
    func accountsValidateAndRefuseDuplicatesRegardlessOfCase(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let alice = try await store.accounts.add(username: "Alice", password: "correct horse", now: 10, cost: testCost)
        #expect(alice.id != nil)
        await #expect(throws: UserError.duplicateUsername("alice")) { try await store.accounts.add(username: "alice", password: "another one", now: 11, cost: testCost) }
        await #expect(throws: UserError.weakPassword) { try await store.accounts.add(username: "bob", password: "short", now: 11, cost: testCost) }
        await #expect(throws: UserError.invalidUsername("bob'); DROP TABLE visit; --")) {
            try await store.accounts.add(username: "bob'); DROP TABLE visit; --", password: "correct horse", now: 11, cost: testCost)
        }
        #expect(try await store.accounts.user(named: "ALICE")?.id == alice.id)
        #expect(try await store.accounts.authenticate(username: "alice", password: "correct horse").username == "Alice")
        await #expect(throws: UserError.wrongPassword) { try await store.accounts.authenticate(username: "alice", password: "wrong horse") }
        await #expect(throws: UserError.unknownUser("carol")) { try await store.accounts.authenticate(username: "carol", password: "correct horse") }
        try await store.accounts.add(username: "bob", password: "correct horse", now: 12, cost: testCost)
        #expect(try await store.accounts.all().map(\.username) == ["Alice", "bob"])
    }

    @Test(arguments: Engine.allCases)
    func settingsPasswordsAndTheDeliveryLogPersist(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        var alice = try await store.accounts.add(username: "alice", password: "correct horse", now: 1, cost: testCost)
        alice.units = .aeronautical
        alice.darkMode = true
        alice.language = "fr"
        alice.email = "alice@example.org"
        alice.channels = [NotificationChannel(url: "https://hooks.example.org/a?b=c")]
        try await store.accounts.update(alice)
        await #expect(try store.accounts.user(id: alice.id!) == alice)
        var bad = alice
        bad.channels = [NotificationChannel(url: "javascript:alert(1)")]
        await #expect(throws: UserError.invalidURL("javascript:alert(1)")) { try await store.accounts.update(bad) }
        await #expect(try store.accounts.user(id: alice.id!) == alice, "nothing written")
        // The same webhook twice would post every alert twice: refused, however it is spelt.
        bad.channels = alice.channels + [NotificationChannel(url: "HTTPS://Hooks.Example.org/a/?b=c")]
        await #expect(throws: UserError.duplicateChannel("HTTPS://Hooks.Example.org/a/?b=c")) { try await store.accounts.update(bad) }
        await #expect(try store.accounts.user(id: alice.id!) == alice, "nothing written")
        bad.channels = alice.channels + [NotificationChannel(url: "https://hooks.example.org/other")]
        try await store.accounts.update(bad)
        await #expect(try store.accounts.user(id: alice.id!)?.channels.count == 2, "another URL is a second webhook")
        try await store.accounts.update(alice)
        // Only a language with a message catalogue: its texts would otherwise fall back unseen.
        bad = alice
        bad.language = "nl"
        await #expect(throws: UserError.unknownLanguage("nl", known: ["en", "de", "fr"])) { try await store.accounts.update(bad) }
        #expect(throws: UserError.unknownLanguage("nl", known: ["en", "de", "fr"])) { try bad.setLanguage("nl") }
        try bad.setLanguage("DE")
        #expect(bad.language == "de")
        await #expect(try store.accounts.user(id: alice.id!) == alice, "nothing written")
        try await store.accounts.setPassword(username: "alice", password: "battery staple", cost: testCost)
        await #expect(throws: UserError.wrongPassword) { try await store.accounts.authenticate(username: "alice", password: "correct horse") }
        await #expect(try store.accounts.authenticate(username: "alice", password: "battery staple").id == alice.id)
        await #expect(throws: UserError.weakPassword) { try await store.accounts.setPassword(username: "alice", password: "short", cost: testCost) }
        let first = try await store.deliveryLog.record(AlertDeliveryRecord(userId: alice.id!, journalEventId: nil, url: "https://hooks.example.org/a",
                                                                 time: 10, attempt: 1, status: 500, success: false, error: "HTTP 500"))
        let second = try await store.deliveryLog.record(AlertDeliveryRecord(userId: alice.id!, journalEventId: nil, url: "https://hooks.example.org/a",
                                                                  time: 12, attempt: 2, status: 204, success: true, error: nil))
        #expect(first.id != nil && second.id != nil)
        #expect(try await store.deliveryLog.deliveries(limit: 10) == [second, first])
        await #expect(try store.accounts.user(id: 999_999) == nil)
    }

    @Test(arguments: Engine.allCases)
    func watchRulesBelongToTheirUserAndGoWithIt(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        try await store.accounts.add(username: "alice", password: "correct horse", now: 1, cost: testCost)
        try await store.accounts.add(username: "bob", password: "correct horse", now: 1, cost: testCost)
        let rule = try await store.watchlists.add(username: "alice", kind: .registration, value: "d-aiup", label: "Lufthansa A320", now: 2)
        #expect(rule.value == "DAIUP")
        await #expect(throws: WatchRuleError.duplicate(kind: .registration, value: "DAIUP")) {
            try await store.watchlists.add(username: "alice", kind: .registration, value: "D-AIUP", label: nil, now: 3)
        }
        await #expect(throws: WatchRuleError.self) { try await store.watchlists.add(username: "alice", kind: .squawk, value: "9999", label: nil, now: 3) }
        try await store.watchlists.add(username: "bob", kind: .type, value: "A38*", label: nil, now: 4)
        #expect(try await store.watchlists.rules(username: "alice").map(\.value) == ["DAIUP"])
        await #expect(throws: WatchRuleError.unknownRule(rule.id!)) { try await store.watchlists.remove(username: "bob", id: rule.id!) }
        #expect(try await store.watchlists.all().count == 2)
        try await store.accounts.delete(username: "alice")
        #expect(try await store.watchlists.all().map(\.value) == ["A38*"], "a deleted user's rules go with them")
    }

    @Test("The alert log summary (journal events with their delivery outcomes) is the same on both engines")
    func alertLogOnBothEngines() async throws {
        var summaries: [[AlertLogSummary]] = []
        for engine in Engine.allCases {
            let store = try await engine.makeStore()
            _ = try await Self.fill(store)
            let events = try await store.watchlists.journal(username: "alice", limit: 1000).sorted { ($0.time, $0.id!) < ($1.time, $1.id!) }
            #expect(events.count >= 3)
            let url = "https://hooks.example.org/a"
            func log(_ e: JournalEventRecord, attempt: Int, success: Bool) async throws {
                _ = try await store.deliveryLog.record(AlertDeliveryRecord(userId: e.userId, journalEventId: e.id, url: url, time: e.time + 1,
                                                                 attempt: attempt, status: success ? 200 : nil, success: success, error: nil))
            }
            try await log(events[0], attempt: 1, success: false)
            try await log(events[0], attempt: 2, success: true)
            try await log(events[1], attempt: 0, success: false)   // held back
            try await log(events[2], attempt: 1, success: false)
            let since = events[0].time
            let summary = try await store.deliveryLog.summaries(since: since)
            var everyone: [JournalEventRecord] = []
            for user in try await store.accounts.all() { everyone += try await store.watchlists.journal(username: user.username, limit: 1000) }
            #expect(summary.count == everyone.filter { $0.time >= since }.count)
            let byId = Dictionary(uniqueKeysWithValues: summary.map { ($0.event.id!, $0) })
            #expect(byId[events[0].id!].map { [$0.logged, $0.attempted, $0.succeeded] } == [2, 2, 1])
            #expect(byId[events[1].id!].map { [$0.logged, $0.attempted, $0.succeeded] } == [1, 0, 0])
            #expect(byId[events[2].id!].map { [$0.logged, $0.attempted, $0.succeeded] } == [1, 1, 0])
            #expect(summary.map(\.event.time) == summary.map(\.event.time).sorted(), "oldest first")
            summaries.append(summary.map { var s = $0; s.event.id = nil; s.event.visitId = nil; s.event.watchRuleId = nil; return s })
        }
        #expect(summaries[0] == summaries[1])
    }

    @Test func theSameSightingsGiveTheSameLogOnBothEngines() async throws {
        let sqlite = try await Engine.sqlite.makeStore()
        let postgres = try await Engine.postgresql.makeStore()
        _ = try await Self.fill(sqlite)
        _ = try await Self.fill(postgres)
        let a = try await Self.visits(sqlite), b = try await Self.visits(postgres)
        #expect(a.count > 60)
        #expect(a == b)
        let journalA = try await sqlite.watchlists.journal(username: "alice", limit: 1000).map { var e = $0; e.id = nil; e.visitId = nil; e.watchRuleId = nil; return e }
        let journalB = try await postgres.watchlists.journal(username: "alice", limit: 1000).map { var e = $0; e.id = nil; e.visitId = nil; e.watchRuleId = nil; return e }
        #expect(!journalA.isEmpty)
        #expect(journalA == journalB)
        // Every journal event is tied to its visit on both.
        await #expect(try postgres.watchlists.journal(username: "alice", limit: 1000).allSatisfy { $0.visitId != nil })
        // Visit receivers: the same per visit.
        for i in [0, 7, 13, 42] {
            let va = try await sqlite.sightings.visits(address: UInt32(0x400000 + i), limit: 10), vb = try await postgres.sightings.visits(address: UInt32(0x400000 + i), limit: 10)
            #expect(va.count == vb.count)
            for (x, y) in zip(va, vb) {
                let ra = try await sqlite.sightings.visitReceivers(visitId: x.id!).map { var r = $0; r.visitId = 0; return r }
                let rb = try await postgres.sightings.visitReceivers(visitId: y.id!).map { var r = $0; r.visitId = 0; return r }
                #expect(ra == rb)
            }
        }
    }

    @Test func statisticsAgreeOnEveryDimensionAndFilter() async throws {
        let sqlite = try await Engine.sqlite.makeStore()
        let postgres = try await Engine.postgresql.makeStore()
        _ = try await Self.fill(sqlite)
        _ = try await Self.fill(postgres)
        let filters: [StatsFilter] = [
            StatsFilter(),
            StatsFilter(since: Self.start + 20_000, until: Self.start + 60_000),
            StatsFilter(typePattern: "A3*"),
            StatsFilter(typePattern: "B738"),
            StatsFilter(towards: Coordinate(latitude: 60, longitude: 4), tolerance: 45),
            StatsFilter(withinKm: 40),
            StatsFilter(receiver: Self.receivers[1].rawValue),
            StatsFilter(since: Self.start + 10_000, typePattern: "B7*", receiver: Self.receivers[0].rawValue),
            StatsFilter(receiver: "nobody' OR '1'='1"),
        ]
        for filter in filters {
            for dimension in StatsDimension.allCases {
                let a = try await sqlite.statistics.withTotal(by: dimension, filter: filter, limit: nil)
                let b = try await postgres.statistics.withTotal(by: dimension, filter: filter, limit: nil)
                #expect(a.rows == b.rows, "\(dimension) \(filter)")
                #expect(a.total == b.total, "\(dimension) \(filter)")
            }
        }
        let everything = try await postgres.statistics.withTotal(by: .type, filter: StatsFilter(), limit: 3)
        #expect(everything.rows.count == 3)
        #expect(everything.total.aircraft == 60)
        await #expect(try postgres.statistics.withTotal(by: .day, filter: StatsFilter(receiver: "nobody' OR '1'='1"), limit: nil).total.visits == 0)
    }

    @Test func retentionRemovesTheSameRowsOnBothEngines() async throws {
        let sqlite = try await Engine.sqlite.makeStore()
        let postgres = try await Engine.postgresql.makeStore()
        _ = try await Self.fill(sqlite)
        _ = try await Self.fill(postgres)
        let policy = RetentionPolicy(trackPointDays: 0.5, visitDays: 0.6, journalDays: 0.7, deliveryDays: 1, maxTrackPoints: 300)
        let a = try await sqlite.sightings.prune(policy, now: Self.start + 86_400)
        let b = try await postgres.sightings.prune(policy, now: Self.start + 86_400)
        #expect(a == b)
        #expect(a.visits > 0 && a.trackPoints > 0)
        await #expect(try Self.visits(sqlite) == Self.visits(postgres))
    }
}

extension EngineParityTests {
    @Test(arguments: Engine.allCases)
    func visitsByRegistrationAndARandomVisitHonourTheirFilters(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        var settings = RecorderSettings()
        settings.retention = nil
        let recorder = try await SightingRecorder(store: store, settings: settings)
        try await recorder.record([
            Observation(key: 0x3C66B0, registration: "D-AIUP", typeCode: "A320", messages: 4, lastSeen: 100),
            Observation(key: 0x4840D6, registration: "PH-BXA", typeCode: "B738", messages: 4, lastSeen: 100),
        ], at: 100)
        try await recorder.finish(at: 500)
        await #expect(try store.sightings.visits(registration: "d aiup", limit: 10).map(\.address) == [0x3C66B0])
        await #expect(try store.sightings.visits(registration: "N12345", limit: 10).isEmpty)
        for _ in 0..<5 {
            await #expect(try store.statistics.randomVisit(filter: StatsFilter(typePattern: "B73*"))?.address == 0x4840D6)
        }
        await #expect(try store.statistics.randomVisit(filter: StatsFilter(typePattern: "A388")) == nil)
    }
}

extension EngineParityTests {
    @Test(arguments: Engine.allCases)
    func theAircraftDatabaseImportsAndLooksUpTheSameOnBothEngines(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let aircraft = store.aircraft
        let csv = """
            4840d6;PH-BXA;B738;00;BOEING 737-800;1999;KLM
            3c66b0;D-AIUP;A320;00;AIRBUS A-320;;Lufthansa
            ae1234;;C17;10;BOEING C-17;;USAF
            nothex;X-XXXX;A320;00;;;
            4840d6;PH-BXA;B738;00;BOEING 737-800;2000;KLM Royal Dutch Airlines
            """
        let report = try await AircraftImporter(database: aircraft, batchSize: 2).importData(Array(csv.utf8))
        #expect(report.imported == 4)
        #expect(report.rejected == 1)
        #expect(try await aircraft.count() == 3)
        let klm = try #require(try await aircraft.aircraft(address: 0x4840D6))
        #expect(klm.year == 2000 && klm.ownerOperator == "KLM Royal Dutch Airlines", "a later row replaces an earlier one")
        #expect(try await aircraft.aircraft(registration: "d aiup").map(\.address) == [0x3C66B0])
        #expect(try await aircraft.aircraft(address: 0xAE1234)?.isMilitary == true)
        #expect(try await aircraft.aircraft(address: 0x000001) == nil)
        let some = try await aircraft.aircraft(addresses: [0x4840D6, 0x000001, 0xAE1234, 0x4840D6])
        #expect(some.keys.sorted() == [0x4840D6, 0xAE1234], "one query answers for many addresses, the unknown left out")
    }
}

extension EngineParityTests {
    @Test(arguments: Engine.allCases)
    func airportsImportAndAnswerByEitherCodeOnBothEngines(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let airports = store.airports
        let csv = """
            "id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","gps_code","iata_code","local_code","home_link","wikipedia_link","keywords"
            1,"EHAM","large_airport","Amsterdam Airport Schiphol",52.308601,4.76389,-11,"EU","NL","NL-NH","Amsterdam","yes","EHAM","AMS","","","",""
            2,"XXXX","closed","Gone",10,10,0,"EU","NL","NL-NH","","no","","","","","",""
            3,"EGLL","large_airport","London Heathrow Airport",51.4706,-0.461941,83,"EU","GB","GB-ENG","London","yes","EGLL","LHR","","","",""
            """
        #expect(try await airports.importCSV(Array(csv.utf8)) == 2)
        #expect(try await airports.airport(code: "ams")?.ident == "EHAM")
        #expect(try await airports.airport(code: "EGLL")?.name == "London Heathrow Airport")
        #expect(try await airports.airport(code: "XXXX") == nil, "closed airports are skipped")
        #expect(try await airports.place("LHR").coordinate.latitude == 51.4706)
        await #expect(throws: (any Error).self) { try await airports.importCSV(Array("no,header\n1,2".utf8)) }
    }
}

extension EngineParityTests {
    /// SplitMix64: a seeded generator, so the draws can be repeated.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("A random visit is drawn by id: the same seed gives the same picks on both engines, each visit about equally often",
          arguments: Engine.allCases)
    func randomVisitsAreDrawnUniformlyByID(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        var batch = SightingBatch()
        batch.visits = (0..<11).map {
            VisitRecord(address: 0xA00000 + $0, firstSeen: 100 + Double($0), lastSeen: 200, typeCode: $0 == 5 ? "A320" : "B738", closed: true)
        }
        _ = try await store.write(batch)
        // One visit of eleven is not admitted: the draws that land on it go on to the next.
        let filter = StatsFilter(typePattern: "B738")
        var seeded = Seeded(state: 42), again = Seeded(state: 42)
        var counts: [Int: Int] = [:]
        var picks: [Int] = []
        for _ in 0..<1000 {
            let visit = try #require(try await store.statistics.randomVisit(filter: filter, using: &seeded))
            counts[visit.address, default: 0] += 1
            picks.append(visit.address)
        }
        var repeated: [Int] = []
        for _ in 0..<50 { repeated.append(try #require(try await store.statistics.randomVisit(filter: filter, using: &again)).address) }
        #expect(repeated == Array(picks.prefix(50)), "the draws, not a scan's RANDOM(), chose them")
        #expect(counts.count == 10 && counts[0xA00005] == nil)
        // 100 expected each; a binomial spread of ±10, so 60…140 is four of them.
        #expect(counts.values.allSatisfy { (60...140).contains($0) }, "\(counts)")
    }
}

extension EngineParityTests {
    @Test("One batch write on both engines: visits upserted by key (the last of a key in a batch wins), rows joined to their visit by key, a row whose visit is not stored left out, a closed visit final", arguments: Engine.allCases)
    func theBatchWriteIsTheSameOnBothEngines(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let open = VisitRecord(address: 0x4840D6, firstSeen: 100, lastSeen: 110, messages: 5)
        let key = VisitKey(open), nowhere = VisitKey(address: 0x123456, firstSeen: 50)
        var batch = SightingBatch()
        var earlier = open
        earlier.lastSeen = 105
        batch.visits = [earlier, open]
        batch.points = [(key, TrackPointRecord(visitId: 0, time: 105, latitude: 52, longitude: 4, altitude: nil, track: 90, groundSpeed: nil)),
                        (nowhere, TrackPointRecord(visitId: 0, time: 105, latitude: 1, longitude: 1))]
        batch.receivers = [(key, VisitReceiverRecord(visitId: 0, receiver: "a", firstSeen: 100, lastSeen: 105, messages: 2, bestSignal: nil)),
                           (key, VisitReceiverRecord(visitId: 0, receiver: "a", firstSeen: 100, lastSeen: 110, messages: 4, bestSignal: -10))]
        let first = try await store.write(batch)
        let id = try #require(first.visitIDs[key])
        #expect(first.visitIDs.count == 1)
        #expect(try await store.sightings.allVisits().map(\.lastSeen) == [110], "a visit twice in a batch: the last row wins")
        #expect(try await store.sightings.trackPoints(visitId: id).map(\.time) == [105], "the point of a visit not stored is left out")
        #expect(try await store.sightings.visitReceivers(visitId: id).map(\.messages) == [4], "the batch's last row of a receiver wins")

        // The next second: the same visit closed, by key, without its id.
        var closing = SightingBatch()
        var closed = open
        closed.lastSeen = 130
        closed.closed = true
        closing.visits = [closed]
        #expect(try await store.write(closing).visitIDs[key] == id)
        // Written again (a reply lost): a closed visit stays as it was.
        var again = closed
        again.lastSeen = 999
        closing.visits = [again]
        #expect(try await store.write(closing).visitIDs.isEmpty)
        let stored = try await store.sightings.allVisits()
        #expect(stored.count == 1 && stored[0].lastSeen == 130 && stored[0].closed)
    }
}
