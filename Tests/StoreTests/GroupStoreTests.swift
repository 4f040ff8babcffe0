import Foundation
import ModeS
import PostgresTestSupport
import Testing
import Tracking
@testable import Services
@testable import Store

/// Spotting groups on both engines: membership by openness and invitation, the owner's
/// rights, and a shared watchlist whose matches reach every member's journal.
@Suite(.serialized, .timeLimit(.minutes(3))) struct GroupStoreTests {
    @Test(arguments: Engine.allCases)
    func membershipAndRights(_ engine: Engine) async throws {
        let (s, id) = try await SocialStoreTests.store(engine)
        let (ann, bob, cy, dee) = (id["ann"]!, id["bob"]!, id["cy"]!, id["dee"]!)
        let open = try await s.groups.createGroup(ownerId: ann, name: " Schiphol Spotters ", description: "Runway 27", open: true, now: 1)
        #expect(open.name == "Schiphol Spotters")
        await #expect(throws: GroupError.duplicateName("schiphol spotters")) { try await s.groups.createGroup(ownerId: bob, name: "schiphol spotters", description: nil, open: true, now: 1) }
        await #expect(throws: GroupError.invalidName("<b>")) { try await s.groups.createGroup(ownerId: bob, name: "<b>", description: nil, open: true, now: 1) }
        let closed = try await s.groups.createGroup(ownerId: ann, name: "Inner Circle", description: nil, open: false, now: 2)
        try await s.groups.joinGroup(userId: bob, name: "schiphol spotters", now: 3)
        await #expect(throws: GroupError.alreadyMember("you")) { try await s.groups.joinGroup(userId: bob, name: "Schiphol Spotters", now: 3) }
        // The invitation-only group does not exist for those not in it.
        await #expect(throws: GroupError.unknownGroup("Inner Circle")) { try await s.groups.joinGroup(userId: bob, name: "Inner Circle", now: 4) }
        await #expect(throws: GroupError.notOwner) { try await s.inviteToGroup(ownerId: bob, group: "Schiphol Spotters", username: "cy", now: 4) }
        try await s.inviteToGroup(ownerId: ann, group: "Inner Circle", username: "cy", now: 5)
        await #expect(try s.groups.visibleGroup("Inner Circle", to: cy).1 == .invited)
        try await s.groups.joinGroup(userId: cy, name: "Inner Circle", now: 6)
        await #expect(try s.groups.members(groupId: closed.id).map { "\($0.username):\($0.role.rawValue)" } == ["ann:owner", "cy:member"])
        // Dee blocks ann: ann cannot invite her (no such user to ann).
        try await s.social.block(userId: dee, name: "ann", now: 7)
        await #expect(throws: SocialError.unknownUser("dee")) { try await s.inviteToGroup(ownerId: ann, group: "Inner Circle", username: "dee", now: 8) }
        await #expect(throws: GroupError.ownerCannotLeave) { try await s.groups.leaveGroup(userId: ann, name: "Inner Circle", now: 9) }
        try await s.groups.removeFromGroup(ownerId: ann, group: "Inner Circle", username: "CY", now: 10)
        await #expect(throws: GroupError.unknownGroup("Inner Circle")) { try await s.groups.visibleGroup("Inner Circle", to: cy) }
        try await s.groups.leaveGroup(userId: ann, name: "Inner Circle", now: 11)
        await #expect(try s.groups.group(named: "Inner Circle") == nil, "the owner leaving as the last member deletes the group")
        try await s.groups.leaveGroup(userId: bob, name: "Schiphol Spotters", now: 12)
        #expect(try await s.groups.groups(userId: bob).isEmpty)
        #expect(try await s.groups.groups(userId: ann).map(\.group.name) == ["Schiphol Spotters"])
        _ = open
    }

    @Test(arguments: Engine.allCases)
    func theSharedWatchlistReachesEveryMembersJournal(_ engine: Engine) async throws {
        let (s, id) = try await SocialStoreTests.store(engine)
        let g = try await s.groups.createGroup(ownerId: id["ann"]!, name: "Heavies", description: nil, open: true, now: 0)
        try await s.groups.joinGroup(userId: id["bob"]!, name: "Heavies", now: 0)
        try await s.inviteToGroup(ownerId: id["ann"]!, group: "Heavies", username: "cy", now: 0)   // invited, not a member
        let rule = try await s.groups.addGroupRule(groupId: g.id, kind: .type, value: "a388", label: nil, now: 0)
        #expect(rule.value == "A388")
        await #expect(throws: WatchRuleError.duplicate(kind: .type, value: "A388")) { try await s.groups.addGroupRule(groupId: g.id, kind: .type, value: "A388", label: nil, now: 0) }
        try await s.watchlists.add(username: "bob", kind: .type, value: "A388", now: 0)   // bob also tracks it himself
        let rules = try await s.watchRules()
        #expect(rules.filter { $0.label?.hasPrefix("group Heavies: ") == true }.map(\.userId).sorted() == [id["ann"]!, id["bob"]!].sorted())
        var settings = RecorderSettings()
        settings.retention = nil
        settings.rulesReloadInterval = nil
        let recorder = try await SightingRecorder(store: s, settings: settings)
        for t in 0..<5 {
            try await recorder.record([Observation(key: 0x896123, callsign: "UAE1", typeCode: "A388", altitude: 30000,
                                             position: Coordinate(latitude: 52 + Double(t) * 0.01, longitude: 4), positionTime: Double(t),
                                             track: 0, groundSpeed: 450, distance: 20 - Double(t), lastSeen: Double(t))], at: Double(t))
        }
        try await recorder.finish(at: 1000)
        let annJournal = try await s.watchlists.journal(username: "ann", limit: 20)
        let bobJournal = try await s.watchlists.journal(username: "bob", limit: 20)
        #expect(annJournal.contains { $0.kind == .firstSeen && $0.ruleLabel == "group Heavies: type A388" && $0.watchRuleId == nil })
        #expect(bobJournal.filter { $0.kind == .firstSeen }.count == 2, "bob's own rule and the group's")
        await #expect(try s.watchlists.journal(username: "cy", limit: 20).isEmpty, "an invitation is not membership")
        let sightings = try await s.groups.groupSightings(g, limit: 10)
        #expect(sightings.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.closestApproach, .firstSeen], "each sighting once, whichever members logged it")
        try await s.groups.removeGroupRule(groupId: g.id, id: rule.id!)
        await #expect(throws: GroupError.unknownRule(rule.id!)) { try await s.groups.removeGroupRule(groupId: g.id, id: rule.id!) }
        await #expect(try s.watchRules().allSatisfy { $0.label?.hasPrefix("group") != true })
    }
}
