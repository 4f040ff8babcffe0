import Foundation
import ModeS
import PostgresTestSupport
import Testing
import Tracking
@testable import Services
@testable import Store

/// Goals evaluated incrementally as visits close give the same progress and completion as a
/// brute-force recount of the month; completion reaches the journal (every group member's).
@Suite(.serialized, .timeLimit(.minutes(3))) struct GoalTests {
    static let month = (start: 1_793_491_200.0, end: 1_793_491_200.0 + 30 * 86_400)   // 2026-11-01, 30 days

    /// A month of generated visits (600 aircraft, types from a small set, some military), in
    /// the order they closed, with ids; a few begin before or after the month.
    static func visits() -> [VisitRecord] {
        var rng = SplitMix64(seed: 2026)
        let types = ["A388", "B738", "B38M", "A320", "E190", "C130", "B77W", nil]
        var out: [VisitRecord] = []
        for i in 0..<6000 {
            let address = 0x400000 + Int(rng.next() % 600)
            let first = month.start - 86_400 + Double(rng.next() % UInt64(32 * 86_400))
            let type = types[address % types.count]
            out.append(VisitRecord(id: Int64(i + 1), address: address, firstSeen: first + Double(i) / 8192, lastSeen: first + Double(60 + rng.next() % 3600),
                                   callsign: "FT\(address % 97)", typeCode: type, military: type == "C130", closed: true,
                                   farthestDistance: Double(rng.next() % 2300) / 10))
        }
        return out.sorted { ($0.lastSeen, $0.id!) < ($1.lastSeen, $1.id!) }
    }

    /// The goal counted straight from its definition (independently of `Goal.apply`): the
    /// members seen, up to the target, and the visit that reached it.
    static func bruteForce(_ g: Goal, _ visits: [VisitRecord]) -> (progress: Int, completedBy: Int64?) {
        var seen = Set<String>()
        var completedBy: Int64?
        for v in visits where v.firstSeen >= g.start && v.firstSeen < g.end {
            let key: String?
            switch g.kind {
            case .typeAircraft:
                let t = v.typeCode ?? ""
                let p = g.type!
                key = (p.hasSuffix("*") ? t.hasPrefix(p.dropLast()) : t == p) ? "\(v.address)" : nil
            case .distinctTypes: key = v.typeCode
            case .distinctAircraft: key = "\(v.address)"
            case .military: key = v.military ? "\(v.address)" : nil
            case .beyond: key = (v.farthestDistance ?? 0) > g.distance! ? "\(v.address)" : nil
            }
            if let key, seen.insert(key).inserted, seen.count == g.target, completedBy == nil { completedBy = v.id }
        }
        return (min(seen.count, g.target), completedBy)
    }

    static let definitions: [Goal] = [
        Goal(userId: 1, name: "10 A380s this month", kind: .typeAircraft, type: "A388", target: 10, start: month.start, end: month.end, createdAt: 0),
        Goal(userId: 1, name: "40 737s", kind: .typeAircraft, type: "B73*", target: 40, start: month.start, end: month.end, createdAt: 0),
        Goal(userId: 1, name: "7 types", kind: .distinctTypes, target: 7, start: month.start, end: month.end, createdAt: 0),
        Goal(userId: 1, name: "all 600 aircraft", kind: .distinctAircraft, target: 600, start: month.start, end: month.end, createdAt: 0),
        Goal(userId: 1, name: "a military aircraft", kind: .military, target: 1, start: month.start, end: month.end, createdAt: 0),
        Goal(userId: 1, name: "1000 aircraft (not reached)", kind: .distinctAircraft, target: 1000, start: month.start, end: month.end, createdAt: 0),
        Goal(userId: 1, name: "5 aircraft beyond 200 NM", kind: .beyond, distance: 200, target: 5, start: month.start, end: month.end, createdAt: 0),
    ]

    @Test("Incremental progress and completion equal a brute-force recount of a generated month, for every kind of goal",
          arguments: definitions.indices)
    func incrementalEqualsRecount(_ index: Int) {
        let visits = Self.visits()
        var g = Self.definitions[index]
        var rng = SplitMix64(seed: UInt64(index))
        var start = 0
        // Applied in batches of random size, as the recorder closes them.
        while start < visits.count {
            let n = 1 + Int(rng.next() % 50)
            for v in visits[start..<min(start + n, visits.count)] { g.apply(v) }
            start += n
        }
        let brute = Self.bruteForce(Self.definitions[index], visits)
        #expect(g.progress == brute.progress, "\(g.name)")
        #expect(g.completedVisitId == brute.completedBy, "\(g.name)")
        #expect(g.isComplete == (brute.completedBy != nil))
        #expect(g == Self.definitions[index].recounted(visits))
    }

    @Test("The goal service on both engines: progress saved, completion written once to the journal of the owner or of every group member",
          arguments: Engine.allCases)
    func service(_ engine: Engine) async throws {
        let (s, id) = try await SocialStoreTests.store(engine)
        let group = try await s.groups.createGroup(ownerId: id["ann"]!, name: "Heavies", description: nil, open: true, now: 0)
        try await s.groups.joinGroup(userId: id["bob"]!, name: "Heavies", now: 0)
        // Each member's journal speaks their own language.
        var bob = try await #require(try s.accounts.user(id: id["bob"]!))
        try bob.setLanguage("de")
        try await s.accounts.update(bob)
        var mine = Self.definitions[0]
        mine.userId = id["cy"]
        let personal = try await s.goals.addGoal(mine)
        var ours = Self.definitions[4]
        ours.userId = nil
        ours.groupId = group.id
        _ = try await s.goals.addGoal(ours)
        await #expect(throws: GoalError.invalidTarget(0)) { try await s.goals.addGoal(Goal(userId: id["ann"]!, name: "none", kind: .military, target: 0, start: 0, end: 1, createdAt: 0)) }
        await #expect(throws: GoalError.invalidType("<b>")) {
            try await s.goals.addGoal(Goal(userId: id["ann"]!, name: "bad", kind: .typeAircraft, type: "<b>", target: 1, start: 0, end: 1, createdAt: 0))
        }
        let service = GoalService(store: s)
        // The visits as the recorder leaves them: in the log, with the store's ids.
        var visits = Self.visits()
        var batch = SightingBatch()
        batch.visits = visits.map { var v = $0; v.id = nil; return v }
        let ids = try await s.write(batch).visitIDs
        visits = visits.map { var v = $0; v.id = ids[VisitKey(v)]; return v }
        #expect(visits.allSatisfy { $0.id != nil })
        var events: [JournalEventRecord] = []
        var i = 0
        while i < visits.count {
            let closed = Array(visits[i..<min(i + 200, visits.count)])
            await events += try service.apply(closed, now: Self.month.start)
            i += 200
        }
        #expect(events.map(\.kind).allSatisfy { $0 == .goal })
        #expect(Set(events.map(\.userId)) == [id["ann"]!, id["bob"]!, id["cy"]!])
        #expect(events.filter { $0.userId == id["cy"]! }.count == 1 && events.filter { $0.userId == id["ann"]! }.count == 1)
        let saved = try await #require(try s.goals.goals(userId: id["cy"]!).first { $0.id == personal.id })
        let brute = Self.bruteForce(Self.definitions[0], visits)
        #expect(saved.progress == brute.progress && saved.completedVisitId == brute.completedBy)
        await #expect(try s.goals.goals(userId: id["bob"]!).map(\.name) == ["a military aircraft"], "a member sees the group's goals")
        await #expect(try s.watchlists.journal(username: "bob", limit: 5).first?.note?.hasPrefix("Ziel erreicht: a military aircraft, mit ") == true)
        await #expect(try s.watchlists.journal(username: "ann", limit: 5).first?.note?.hasPrefix("Goal reached: a military aircraft, with ") == true)
        await #expect(throws: GoalError.unknownGoal(personal.id!)) { try await s.goals.removeGoal(id: personal.id!, userId: id["bob"]!) }
        try await s.goals.removeGoal(id: personal.id!, userId: id["cy"]!)
        await #expect(try s.goals.goals(userId: id["cy"]!).isEmpty)
    }
}
