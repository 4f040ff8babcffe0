import Foundation
import ModeS
import Testing
import Tracking
@testable import Services
@testable import Store

/// The feed's automatic posts: only the kinds enabled, each once.
@Suite("Automatic posts")
struct AutoPosterTests {
    static func snapshot(squawk: UInt16, at t: Double) throws -> TableSnapshot {
        let receiver = Coordinate(latitude: 52.3, longitude: 4.76)
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver))
        let p = Geodesy.destination(from: receiver, bearing: 90, distance: 12)
        for (i, frame) in [SyntheticFrames.identification(address: 0x4840D6, callsign: "KLM1023"),
                           SyntheticFrames.airbornePosition(address: 0x4840D6, position: p, altitude: 9000, format: .even),
                           SyntheticFrames.airbornePosition(address: 0x4840D6, position: p, altitude: 9000, format: .odd),
                           SyntheticFrames.surveillanceIdentity(address: 0x4840D6, squawk: squawk)].enumerated() {
            let message = try #require(ModeSMessage.decode(frame))
            table.apply(message, received: ReceivedFrame(frame: frame), at: t + Double(i) * 0.1)
        }
        return table.snapshot(at: t + 1)
    }

    @Test("Emergencies once per aircraft and code, the first of a type once, goals to friends; nothing not enabled")
    func posts() async throws {
        let db = try AppDatabase.inMemory()
        let ann = try await db.accounts.add(username: "ann", password: "correct horse", now: 0, cost: testCost)
        var old = SightingBatch()
        old.visits = [VisitRecord(address: 1, firstSeen: 0, lastSeen: 10, typeCode: "B738", closed: true)]
        _ = try await db.write(old)
        let poster = AutoPoster(store: db, kinds: [.emergency, .newType, .goal])
        let emergency = try Self.snapshot(squawk: 0o7700, at: 100)
        let quiet = try Self.snapshot(squawk: 0o1000, at: 200)
        let closed = [VisitRecord(id: 50, address: 2, firstSeen: 100, lastSeen: 160, callsign: "UAE1", typeCode: "A388", closed: true),
                      VisitRecord(id: 51, address: 3, firstSeen: 100, lastSeen: 170, callsign: "KLM9", typeCode: "B738", closed: true),
                      VisitRecord(id: 52, address: 4, firstSeen: 100, lastSeen: 180, callsign: "UAE2", typeCode: "A388", closed: true)]
        let goal = JournalEventRecord(userId: ann.id!, watchRuleId: nil, visitId: nil, address: 2, time: 160, kind: .goal, ruleLabel: "an A380")
        var texts = try await poster.post(snapshot: emergency, closed: [], goalEvents: []).map(\.text)
        await texts += try poster.post(snapshot: emergency, closed: closed.map { var v = $0; v.id = nil; return v }, goalEvents: [goal]).map(\.text)
        await texts += try poster.post(snapshot: quiet, closed: [], goalEvents: []).map(\.text)
        await texts += try poster.post(snapshot: emergency, closed: [], goalEvents: []).map(\.text)
        #expect(texts == ["Emergency squawk 7700 (general emergency): KLM1023, 12 NM from the receiver",
                          "First A388 seen here: UAE1", "ann reached a goal: an A380",
                          "Emergency squawk 7700 (general emergency): KLM1023, 12 NM from the receiver"], "\(texts)")
        let feed = try await db.posts.posts(.everyone, viewer: nil, before: nil, limit: 10)
        #expect(feed.count == 3 && feed.allSatisfy { $0.userId == nil }, "site posts are public; the goal went to friends")
        let none = AutoPoster(store: db, kinds: [])
        await #expect(try none.post(snapshot: emergency, closed: closed, goalEvents: [goal]).isEmpty)
    }
}
