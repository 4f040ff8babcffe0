import Foundation
import GRDB
import ModeS
import Testing
import Tracking
@testable import Services
@testable import Store

@Suite("Sighting log and journal")
struct SightingRecorderTests {
    static let receiver = Coordinate(latitude: 52.0, longitude: 4.0)

    /// KLM601 (B738, PH-BXA) passes the receiver: one position a second for t = 0…60, closest
    /// (0.5 NM) at t = 30, climbing 10 ft/s, turning from 090 to 180 at t = 45; the callsign
    /// changes to KLM9 at t = 40; then silence.
    static func observation(at t: Int) -> Observation {
        let track: Double = t < 45 ? 90 : 180
        return Observation(key: 0x4840D6, callsign: t < 40 ? "KLM601" : "KLM9", registration: "PH-BXA", typeCode: "B738",
                           operatorName: "KLM Royal Dutch Airlines", category: "A3", squawk: "1000", altitude: 10000 + 10 * t,
                           position: Coordinate(latitude: 52.0 + Double(t) * 0.001, longitude: 4.0), positionTime: Double(t),
                           track: track, groundSpeed: 300, distance: abs(Double(t) - 30) * 0.1 + 0.5,
                           messages: 2 * t + 1, lastSeen: Double(t))
    }

    func runScript(_ db: AppDatabase) async throws -> SightingRecorder {
        let recorder = try await SightingRecorder(database: db)
        for t in 0...60 { try await recorder.record([Self.observation(at: t)], at: Double(t)) }
        for t in 61...200 { try await recorder.record([], at: Double(t)) }
        return recorder
    }

    @Test("A scripted pass gives one visit with the right summary and downsampled track")
    func visit() async throws {
        let db = try await databaseWithUsers()
        let recorder = try await runScript(db)
        #expect(recorder.openVisits == 0)
        let visits = try await db.sightings.visits(address: 0x4840D6)
        #expect(visits.count == 1)
        let v = try #require(visits.first)
        #expect(v.firstSeen == 0 && v.lastSeen == 60 && v.closed)
        #expect(v.callsign == "KLM601" && v.callsigns == "KLM601 KLM9")
        #expect(v.registration == "PH-BXA" && v.typeCode == "B738" && v.category == "A3" && v.squawk == "1000")
        #expect(v.minAltitude == 10000 && v.maxAltitude == 10600)
        #expect(v.closestDistance == 0.5 && v.closestTime == 30)
        #expect(v.messages == 121 && v.positions == 61)
        #expect(v.lastTrack == 180)
        // A point every 10 s, plus one at the turn (t = 45), then 10 s after it.
        let points = try await db.sightings.trackPoints(visitId: try #require(v.id))
        #expect(points.map(\.time) == [0, 10, 20, 30, 40, 45, 55])
        #expect(points[5].track == 180 && points[5].altitude == 10450)
        await #expect(try db.sightings.visits(registration: "ph bxa").count == 1)
    }

    @Test("A watcher's journal: first seen, closest approach once moving away, throttled positions, lost")
    func journal() async throws {
        let db = try await databaseWithUsers()
        try await db.watchlists.add(username: "alice", kind: .flight, value: "KL601", label: "KLM to Oslo", now: 0)
        try await db.watchlists.add(username: "bob", kind: .type, value: "A32*", now: 0)
        _ = try await runScript(db)
        let events = try await db.watchlists.journal(username: "alice").reversed().map { $0 }
        #expect(events.map(\.kind) == [.firstSeen, .closestApproach, .position, .lost])
        #expect(events.map(\.time) == [0, 30, 60, 60])
        #expect(events[1].distance == 0.5 && events[1].altitude == 10300)
        #expect(events.allSatisfy { $0.ruleLabel == "KLM to Oslo" && $0.visitId != nil && $0.hex == "4840d6" })
        await #expect(try db.watchlists.journal(username: "bob").isEmpty)
    }

    @Test("A visit whose closing write failed stays open when the aircraft is heard again, and closes once")
    func failedCloseKeepsTheVisitOpen() async throws {
        let db = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(database: db)
        try await recorder.record([Observation(key: 0x123456, typeCode: "B738", messages: 10, lastSeen: 0)], at: 0)
        // The write that would close the visit fails (as on a full disk).
        try await db.writer.write { d in
            try d.execute(sql: """
                CREATE TEMP TRIGGER failClose BEFORE UPDATE OF closed ON visit WHEN NEW.closed = 1
                BEGIN SELECT RAISE(ABORT, 'disk full'); END
                """)
        }
        await #expect(throws: (any Error).self) { try await recorder.record([], at: 121) }
        try await db.writer.write { d in try d.execute(sql: "DROP TRIGGER failClose") }
        let stillOpen = try await db.sightings.visits(address: 0x123456)
        #expect(stillOpen.count == 1 && stillOpen.allSatisfy { !$0.closed })
        // Heard again before the retry: the same visit goes on, open.
        try await recorder.record([Observation(key: 0x123456, typeCode: "B738", messages: 14, lastSeen: 125)], at: 125)
        let continued = try await db.sightings.visits(address: 0x123456)
        #expect(continued.count == 1)
        #expect(continued.first?.closed == false && continued.first?.lastSeen == 125 && continued.first?.messages == 14)
        try await recorder.finish(at: 130)
        let visits = try await db.sightings.visits(address: 0x123456)
        #expect(visits.count == 1 && visits.allSatisfy(\.closed))
        #expect(visits.first?.firstSeen == 0 && visits.first?.lastSeen == 125 && visits.first?.messages == 14)
        // The statistics count it once.
        let total = try await db.statistics.total(filter: StatsFilter())
        #expect(total.visits == 1 && total.aircraft == 1 && total.messages == 14)
    }

    @Test("Silence closes a visit; the aircraft heard again opens a new one counting only new messages")
    func reappearance() async throws {
        let db = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(database: db)
        try await recorder.record([Observation(key: 0x123456, messages: 10, lastSeen: 0)], at: 0)
        try await recorder.record([Observation(key: 0x123456, messages: 10, lastSeen: 0)], at: 121)   // stale: not reopened
        #expect(recorder.openVisits == 0)
        try await recorder.record([Observation(key: 0x123456, messages: 25, lastSeen: 300)], at: 300)
        try await recorder.finish(at: 301)
        let visits = try await db.sightings.visits(address: 0x123456).sorted { $0.firstSeen < $1.firstSeen }
        #expect(visits.map(\.firstSeen) == [0, 300])
        #expect(visits.map(\.messages) == [10, 15])
        #expect(visits.allSatisfy { $0.closed })
    }

    @Test("Real frames through the aircraft table end up in the log")
    func fromTable() async throws {
        let db = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(database: db)
        var table = AircraftTable(configuration: TableConfiguration(receiver: Self.receiver))
        let address: UInt32 = 0x4840D6
        let start = Coordinate(latitude: 52.05, longitude: 4.0)
        for step in 0..<20 {
            let t = Double(step)
            let p = Geodesy.destination(from: start, bearing: 180, distance: 0.1 * t)
            var frames = [SyntheticFrames.identification(address: address, callsign: "KLM601"),
                          SyntheticFrames.airbornePosition(address: address, position: p, altitude: 3000, format: step % 2 == 0 ? .even : .odd),
                          SyntheticFrames.velocity(address: address, groundSpeed: 360, track: 180)]
            if step % 5 != 0 { frames.removeFirst() }
            for (i, frame) in frames.enumerated() {
                let message = try #require(ModeSMessage.decode(frame))
                table.apply(message, received: ReceivedFrame(frame: frame), at: t + Double(i) * 0.01)
            }
            try await recorder.record(table.snapshot(at: t + 0.5))
        }
        try await recorder.finish(at: 30)
        let v = try await #require(try db.sightings.visits(address: address).first)
        #expect(v.callsign == "KLM601")
        #expect(v.minAltitude == 3000 && v.maxAltitude == 3000)
        #expect(v.positions >= 15)
        #expect(v.messages >= 40)
        // Closest approach: the receiver is 3 NM south of the start; the path ends 1.1 NM short of it.
        let closest = try #require(v.closestDistance)
        #expect(abs(closest - 1.1) < 0.15)
        // The farthest point is the first one, 3 NM north.
        #expect(abs(try #require(v.farthestDistance) - 3.0) < 0.15)
        #expect(abs(try #require(v.lastTrack) - 180) < 1)
    }

    @Test("A rule added while recording takes effect at the next reload (every 60 s)")
    func ruleReload() async throws {
        let db = try await databaseWithUsers()
        let recorder = try await SightingRecorder(database: db)
        try await recorder.record([Observation(key: 0xAAAAAA, squawk: "7700", lastSeen: 0)], at: 0)
        try await db.watchlists.add(username: "alice", kind: .emergencies, value: "", now: 1)
        try await recorder.record([Observation(key: 0xAAAAAA, squawk: "7700", lastSeen: 30)], at: 30)
        await #expect(try db.watchlists.journal(username: "alice").isEmpty)
        try await recorder.record([Observation(key: 0xAAAAAA, squawk: "7700", lastSeen: 60)], at: 60)
        await #expect(try db.watchlists.journal(username: "alice").map(\.kind) == [.firstSeen])
    }

    /// Counts committed transactions that changed something.
    final class CommitCounter: TransactionObserver, @unchecked Sendable {
        var commits = 0
        var changed = false
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { changed = true }
        func databaseDidCommit(_ db: Database) { if changed { commits += 1 }; changed = false }
        func databaseDidRollback(_ db: Database) { changed = false }
    }

    @Test("Each call writes its visits, points and journal events in one transaction")
    func oneTransactionPerCall() async throws {
        let db = try await databaseWithUsers()
        try await db.watchlists.add(username: "alice", kind: .type, value: "B73*", now: 0)
        let recorder = try await SightingRecorder(database: db)
        let counter = CommitCounter()
        try await db.writer.write { d in d.add(transactionObserver: counter, extent: .databaseLifetime) }
        try await recorder.record([], at: 0)   // the first call also applies retention (its own transaction)
        counter.commits = 0
        for t in 1...5 {
            let observations = (0..<50).map { i in
                Observation(key: UInt32(0x100 + i), callsign: "TST\(i)", typeCode: "B738", altitude: 1000 + 100 * t,
                            position: Coordinate(latitude: 50 + Double(i) * 0.01, longitude: Double(t) * 0.01),
                            distance: Double(i), messages: 3 * t, lastSeen: Double(t))
            }
            try await recorder.record(observations, at: Double(t))
            #expect(counter.commits == t)
        }
        #expect(try count(db, "visit") == 50)
        #expect(try count(db, "journalEvent") == 50)
    }

    @Test("Retention deletes old rows and bounds the track points")
    func retention() async throws {
        let db = try await databaseWithUsers()
        _ = try await runScript(db)
        #expect(try count(db, "trackPoint") == 7)
        var policy = RetentionPolicy(trackPointDays: nil, visitDays: nil, journalDays: nil, deliveryDays: nil, maxTrackPoints: 3)
        await #expect(try db.sightings.prune(policy, now: 100).trackPoints == 4)
        await #expect(try db.writer.read { d in try Double.fetchAll(d, sql: "SELECT time FROM trackPoint ORDER BY time") } == [40, 45, 55])
        policy = RetentionPolicy(trackPointDays: nil, visitDays: 1, journalDays: nil, deliveryDays: nil, maxTrackPoints: nil)
        await #expect(try db.sightings.prune(policy, now: 60 + 86_400 - 1).visits == 0)
        await #expect(try db.sightings.prune(policy, now: 60 + 86_400 + 1).visits == 1)
        #expect(try count(db, "trackPoint") == 0)
    }
}

@Suite struct VisitReceiverWriteTests {
    /// One aircraft heard every second for 20 s; with `receiver`, by that receiver too.
    func run(receiver: Bool) async throws -> (rows: Int, stored: [VisitReceiverRecord]) {
        let database = try AppDatabase.inMemory()
        var settings = RecorderSettings()
        settings.retention = nil
        let recorder = try await SightingRecorder(store: database, settings: settings)
        let id = ReceiverID(rawValue: "north-pi")!
        for t in 0..<20 {
            var o = Observation(key: 0x4840D6, typeCode: "B738", messages: 10 * (t + 1), lastSeen: Double(t))
            if receiver { o.receivers[id] = ReceiverHearing(lastSeen: Double(t), messages: 5 * (t + 1), signal: -20) }
            try await recorder.record([o], at: Double(t))
        }
        try await recorder.finish(at: 100)
        let visit = try await #require(try database.sightings.visits(address: 0x4840D6, limit: 1).first)
        return await (recorder.rowsWritten, try database.sightings.visitReceivers(visitId: visit.id!))
    }

    @Test func receiverRowsAreWrittenWhenNewAndAtTheCloseNotEverySecond() async throws {
        let without = try await run(receiver: false)
        let with = try await run(receiver: true)
        #expect(with.rows - without.rows == 2, "the first sight and the close; nothing in between (interval 30 s)")
        #expect(with.stored.count == 1)
        #expect(with.stored.first?.lastSeen == 19)
        #expect(with.stored.first?.messages == 100)
        #expect(with.stored.first?.firstSeen == 0)
    }
}
