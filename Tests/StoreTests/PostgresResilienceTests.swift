import Foundation
import GRDB
import ModeS
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing
@testable import Services
@testable import Store

/// PostgreSQL that is not there at start, or goes away mid-run: clear errors, and with
/// buffered writes nothing lost up to the queue's limit.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PostgresResilienceTests {
    final class Events: Sendable {
        let list = Mutex<[SightingQueueEvent]>([])
    }

    /// How long a test waits for the queue to drain after an outage: the drain's back-off
    /// (up to 30 s between tries) and a write, on a machine busy with the rest of the suite.
    static let drainLimit: Duration = .seconds(45)

    @Test func anUnreachableServerIsAClearErrorNamingTheAddress() async throws {
        let port = try PostgresTestServer.freePort()
        let url = PostgresURL(host: "127.0.0.1", port: port, username: "flytracker", database: "nowhere", tls: .disable)
        let started = ContinuousClock.now
        do {
            _ = try await PostgresStore.open(url, timeout: .seconds(3))
            Issue.record("opened a database nobody serves")
        } catch let error as StoreError {
            #expect(error.description.hasPrefix("cannot use PostgreSQL at postgres://flytracker@127.0.0.1:\(port)/nowhere:"))
        }
        #expect(ContinuousClock.now - started < .seconds(10), "gives up after its timeout")
    }

    @Test func aMissingDatabaseIsTheServersOwnMessage() async throws {
        let server = try PostgresTestServer.shared.get()
        let url = PostgresURL(host: "127.0.0.1", port: server.port, username: "flytracker", database: "no_such_db", tls: .disable)
        await #expect { try await PostgresStore.open(url, timeout: .seconds(5)) } throws: { error in
            "\(error)".contains("no_such_db") && "\(error)".contains("does not exist")
        }
    }

    @Test(arguments: ["mysql://x@y/z", "postgres://host/db", "postgres://u@/db", "postgres://u@h", "postgres://u@h/db?sslmode=maybe", "postgres://u@h/db?user=x"])
    func malformedAddressesAreRefused(_ text: String) {
        #expect(throws: StoreError.self) { try PostgresURL(text) }
    }

    @Test func addressesParseAsLibpqWritesThem() throws {
        let url = try PostgresURL("postgresql://fly%40club:s3cret@db.example.org:6543/aggregator?sslmode=require")
        #expect(url == PostgresURL(host: "db.example.org", port: 6543, username: "fly@club", password: "s3cret", database: "aggregator", tls: .require))
        #expect(url.description == "postgres://fly@club@db.example.org:6543/aggregator", "no password in messages")
    }

    /// The synchronous API blocks its caller; called from every thread of Swift's shared pool
    /// at once, it must still finish (its own work runs on a thread of its own).
    @Test(.timeLimit(.minutes(1))) func callsFromEveryPoolThreadAtOnceDoNotStarveEachOther() async throws {
        let store = try await Engine.postgresql.makeStore()
        try await store.accounts.add(username: "pool", password: "correct horse", now: 1, cost: testCost)
        let count = 4 * ProcessInfo.processInfo.activeProcessorCount
        let found = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count { group.addTask { await (try? store.accounts.user(named: "pool")) != nil } }
            var n = 0
            for await ok in group where ok { n += 1 }
            return n
        }
        #expect(found == count)
    }

    /// Observations of `count` aircraft at `time` (keys from `first`).
    func observations(_ first: Int, _ count: Int, at time: Double) -> [Observation] {
        (first..<(first + count)).map { i in
            Observation(key: UInt32(0x500000 + i), callsign: "Q\(i)", typeCode: "A320", altitude: 30000,
                        position: Coordinate(latitude: 52, longitude: 4 + Double(i) / 100), positionTime: time,
                        track: 90, groundSpeed: 420, distance: Double(i), messages: Int(time) % 1000 + 1, lastSeen: time)
        }
    }

    @Test func bufferedWritesSurviveTheServerGoingAwayMidRun() async throws {
        let server = try PostgresTestServer.dedicated()
        defer { server.shutDown() }
        let store = try await PostgresStore.open(try server.makeDatabase(), timeout: .seconds(2), bufferedWrites: true)
        defer { store.close() }
        let events = Events()
        store.onQueueEvent.withLock { $0 = { e in events.list.withLock { $0.append(e) } } }
        let sqlite = try AppDatabase.inMemory()
        var settings = RecorderSettings()
        settings.retention = nil
        settings.rulesReloadInterval = nil
        let recorders = await [try SightingRecorder(store: store, settings: settings), try SightingRecorder(store: sqlite, settings: settings)]
        func record(_ o: [Observation], at t: Double) async throws {
            for r in recorders { try await r.record(o, at: t) }
        }
        try await record(observations(0, 20, at: 1000), at: 1000)
        #expect(await store.flush())
        try server.stop()
        // While it is away, the receiver never waits for it.
        for step in 1...10 {
            let t = 1000 + Double(step) * 10
            let seen = observations(0, 20, at: t) + observations(20 + step * 3, 3, at: t)
            // Timed alone: the SQLite recorder beside it (the reference log) hops to GRDB's queue.
            let started = ContinuousClock.now
            try await recorders[0].record(seen, at: t)
            #expect(ContinuousClock.now - started < .milliseconds(500))
            try await recorders[1].record(seen, at: t)
        }
        #expect(Poll.until(seconds: 15) { store.queueState?.failing == true }, "the failure is noticed")
        #expect(events.list.withLock { $0.contains { if case .unavailable = $0 { true } else { false } } })
        try server.start()
        #expect(await store.flush(within: Self.drainLimit), "the queue drains once the server is back")
        for r in recorders { try await r.finish(at: 2000) }
        #expect(await store.flush(within: Self.drainLimit))
        let expected = try await sqlite.writer.read { db in try VisitRecord.order(Column("address")).fetchAll(db) }.map { var v = $0; v.id = nil; return v }
        let got = try await store.sightings.allVisits().sorted { $0.address < $1.address }.map { var v = $0; v.id = nil; return v }
        #expect(got.count == 50)
        #expect(got == expected, "every visit as the SQLite store has it: nothing lost")
        #expect(events.list.withLock { $0.contains { if case .recovered = $0 { true } else { false } } })
        #expect(store.queueState?.droppedRows == 0)
    }

    @Test("While the server is known to be away, calls through the storage seam fail at once with the reason; they work again once it is back")
    func theSeamRefusesAtOnceWhileTheServerIsAway() async throws {
        let server = try PostgresTestServer.dedicated()
        defer { server.shutDown() }
        let store = try await PostgresStore.open(try server.makeDatabase(), timeout: .seconds(2), bufferedWrites: true)
        defer { store.close() }
        var settings = RecorderSettings()
        settings.retention = nil
        settings.rulesReloadInterval = nil
        let recorder = try await SightingRecorder(store: store, settings: settings)
        try await recorder.record(observations(0, 5, at: 1000), at: 1000)
        #expect(await store.flush())
        #expect(try await store.loginSessions.user(tokenHash: "x", now: 0) == nil, "the seam answers while the server is there")
        try server.stop()
        try await recorder.record(observations(0, 5, at: 1010), at: 1010)
        #expect(Poll.until(seconds: 15) { store.queueState?.failing == true }, "the failure is noticed")
        let started = ContinuousClock.now
        do {
            _ = try await store.profiles.profile(userId: 1)
            Issue.record("a call through the seam succeeded with the server away")
        } catch {
            #expect("\(error)".contains("unavailable"), "\(error)")
        }
        #expect(ContinuousClock.now - started < .milliseconds(500), "no wait for a server known to be away")
        try server.start()
        #expect(await store.flush(within: Self.drainLimit), "the queue drains once the server is back")
        #expect(try await store.profiles.profile(userId: 1) == nil)
    }

    @Test("finishWriting at the end of a run writes the queue and tells what was left behind (nothing when the server takes it)")
    func finishWritingDrainsTheQueue() async throws {
        let database = try PostgresTestServer.shared.get().makeDatabase()
        let store: any SightingStore = try await PostgresStore.open(database, timeout: .seconds(5), bufferedWrites: true)
        var batch = SightingBatch()
        batch.visits = (0..<30).map { VisitRecord(address: 0x700000 + $0, firstSeen: 10, lastSeen: 20) }
        _ = try await store.write(batch)
        #expect(await store.finishWriting() == 0)
        let reader = try await PostgresStore.open(database, timeout: .seconds(5))
        defer { reader.close() }
        #expect(try await reader.sightings.allVisits().count == 30, "every queued row written before the store was released")
        #expect(try await AppDatabase.inMemory().finishWriting() == 0, "SQLite writes at once")
    }

    @Test func aBatchTheServerRefusesIsDroppedAndTheRestGoOn() async throws {
        let store = try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(5), bufferedWrites: true)
        defer { store.close() }
        let events = Events()
        store.onQueueEvent.withLock { $0 = { e in events.list.withLock { $0.append(e) } } }
        let key = VisitKey(address: 0x123456, firstSeen: 10)
        var bad = SightingBatch()
        bad.visits = [VisitRecord(address: key.address, firstSeen: 10, lastSeen: 10)]
        // A journal event of a user that does not exist: a foreign-key violation.
        bad.events = [(key, JournalEventRecord(userId: 987_654, watchRuleId: nil, visitId: nil, address: key.address, time: 10, kind: .firstSeen))]
        _ = try await store.write(bad)
        var good = SightingBatch()
        good.visits = [VisitRecord(address: 0x654321, firstSeen: 20, lastSeen: 25)]
        _ = try await store.write(good)
        #expect(await store.flush())
        #expect(try await store.sightings.allVisits().map(\.address) == [0x654321], "the refused batch is rolled back whole; the next one is written")
        #expect(events.list.withLock { $0.contains { if case .refused(let reason, 2) = $0 { reason.contains("23503") } else { false } } })
        #expect(store.isAvailable)
    }

    @Test func aFullQueueDropsTheOldestRowsAndSaysSo() async throws {
        let server = try PostgresTestServer.dedicated()
        defer { server.shutDown() }
        let store = try await PostgresStore.open(try server.makeDatabase(), timeout: .seconds(1), bufferedWrites: true, queueLimit: 100)
        defer { store.close() }
        let events = Events()
        store.onQueueEvent.withLock { $0 = { e in events.list.withLock { $0.append(e) } } }
        var settings = RecorderSettings()
        settings.retention = nil
        let recorder = try await SightingRecorder(store: store, settings: settings)
        try server.stop()
        for step in 0..<10 { try await recorder.record(observations(step * 30, 30, at: 1000 + Double(step)), at: 1000 + Double(step)) }
        let state = try #require(store.queueState)
        #expect(state.rows <= 100 || state.batchCount == 1)
        #expect(state.droppedRows > 0)
        #expect(events.list.withLock { $0.contains { if case .dropped = $0 { true } else { false } } })
    }
}
