import Foundation
import PostgresTestSupport
import Testing
@testable import Store

/// Friends and blocks on both engines: requests, acceptance, declining, removal; a block
/// ends everything between two users and hides the blocker from the blocked.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SocialStoreTests {
    static func store(_ engine: Engine) async throws -> (any SightingStore, [String: Int64]) {
        let store = try await engine.makeStore()
        var ids: [String: Int64] = [:]
        for name in ["ann", "bob", "cy", "dee"] { ids[name] = try await store.accounts.add(username: name, password: "correct horse", now: 0, cost: testCost).id! }
        return (store, ids)
    }

    @Test(arguments: Engine.allCases)
    func requestsAcceptDeclineAndRemove(_ engine: Engine) async throws {
        let (s, id) = try await Self.store(engine)
        #expect(try await s.social.requestFriend(userId: id["ann"]!, name: "bob", now: 1) == .requested)
        #expect(try await s.social.relation(of: id["ann"]!, to: id["bob"]!) == .requested)
        #expect(try await s.social.relation(of: id["bob"]!, to: id["ann"]!) == .invited)
        await #expect(throws: SocialError.alreadyRequested("bob")) { try await s.social.requestFriend(userId: id["ann"]!, name: "BOB", now: 2) }
        #expect(try await s.social.friendList(userId: id["bob"]!) == FriendList(incoming: ["ann"]))
        try await s.social.acceptFriend(userId: id["bob"]!, name: "ann", now: 3)
        #expect(try await s.social.relation(of: id["ann"]!, to: id["bob"]!) == .friend)
        #expect(try await s.social.relation(of: id["bob"]!, to: id["ann"]!) == .friend)
        await #expect(throws: SocialError.alreadyFriends("bob")) { try await s.social.requestFriend(userId: id["ann"]!, name: "bob", now: 4) }
        // Crossing requests: cy asks ann, ann asks cy: friends.
        try await s.social.requestFriend(userId: id["cy"]!, name: "ann", now: 5)
        #expect(try await s.social.requestFriend(userId: id["ann"]!, name: "cy", now: 6) == .friend)
        #expect(try await s.social.friendList(userId: id["ann"]!) == FriendList(friends: ["bob", "cy"]))
        // Declining and withdrawing.
        try await s.social.requestFriend(userId: id["dee"]!, name: "ann", now: 7)
        try await s.social.removeFriend(userId: id["ann"]!, name: "dee", now: 8)
        #expect(try await s.social.relation(of: id["dee"]!, to: id["ann"]!) == .none)
        await #expect(throws: SocialError.noRequest("dee")) { try await s.social.acceptFriend(userId: id["ann"]!, name: "dee", now: 9) }
        try await s.social.removeFriend(userId: id["bob"]!, name: "ann", now: 10)
        #expect(try await s.social.friendList(userId: id["ann"]!) == FriendList(friends: ["cy"]))
        await #expect(throws: SocialError.notFriends("bob")) { try await s.social.removeFriend(userId: id["ann"]!, name: "bob", now: 11) }
        await #expect(throws: SocialError.yourself) { try await s.social.requestFriend(userId: id["ann"]!, name: "ann", now: 12) }
        await #expect(throws: SocialError.unknownUser("zed")) { try await s.social.requestFriend(userId: id["ann"]!, name: "zed", now: 13) }
    }

    @Test(arguments: Engine.allCases)
    func aBlockEndsEverythingAndHidesTheBlocker(_ engine: Engine) async throws {
        let (s, id) = try await Self.store(engine)
        try await s.social.requestFriend(userId: id["bob"]!, name: "ann", now: 1)
        try await s.social.acceptFriend(userId: id["ann"]!, name: "bob", now: 2)
        try await s.social.requestFriend(userId: id["cy"]!, name: "ann", now: 3)
        try await s.social.block(userId: id["ann"]!, name: "bob", now: 4)
        try await s.social.block(userId: id["ann"]!, name: "cy", now: 5)
        #expect(try await s.social.friendList(userId: id["ann"]!) == FriendList(blocked: ["bob", "cy"]))
        #expect(try await s.social.friendList(userId: id["bob"]!) == FriendList(), "bob sees nothing of ann, not even the block")
        #expect(try await s.social.relation(of: id["bob"]!, to: id["ann"]!) == .blocked)
        // To bob, ann does not exist; ann must unblock before asking bob.
        await #expect(throws: SocialError.unknownUser("ann")) { try await s.social.requestFriend(userId: id["bob"]!, name: "ann", now: 6) }
        await #expect(throws: SocialError.unknownUser("ann")) { try await s.social.acceptFriend(userId: id["bob"]!, name: "ann", now: 6) }
        await #expect(throws: SocialError.unknownUser("ann")) { try await s.social.removeFriend(userId: id["bob"]!, name: "ann", now: 6) }
        await #expect(throws: SocialError.blocking("bob")) { try await s.social.requestFriend(userId: id["ann"]!, name: "bob", now: 7) }
        try await s.social.unblock(userId: id["ann"]!, name: "bob", now: 8)
        await #expect(throws: SocialError.unknownUser("bob")) { try await s.social.unblock(userId: id["ann"]!, name: "bob", now: 9) }
        #expect(try await s.social.relation(of: id["bob"]!, to: id["ann"]!) == .none, "unblocking does not restore the friendship")
        #expect(try await s.social.requestFriend(userId: id["bob"]!, name: "ann", now: 10) == .requested)
    }

    @Test(arguments: Engine.allCases)
    func profilesPicturesAndTheJournalSummary(_ engine: Engine) async throws {
        let (s, id) = try await Self.store(engine)
        let profiles = s.profiles
        let ann = id["ann"]!
        #expect(try await profiles.profile(userId: ann) == nil)
        let home = try await s.places.addPlace(PlaceRecord(userId: ann, name: "Home", latitude: 52, longitude: 4, createdAt: 0))
        let bobs = try await s.places.addPlace(PlaceRecord(userId: id["bob"]!, name: "Bob's", latitude: 52, longitude: 4, createdAt: 0))
        try await profiles.save(ProfileRecord(userId: ann, displayName: "  Ann  ", bio: "Spotter\nat EHAM", homePlaceId: home.id,
                                              visibility: [.bio: .me, .stats: .public]), now: 1)
        let p = try #require(try await profiles.profile(userId: ann))
        #expect(p.displayName == "Ann" && p.bio == "Spotter\nat EHAM" && p.homePlaceId == home.id)
        #expect(p.visibility(of: .bio) == .me && p.visibility(of: .stats) == .public && p.visibility(of: .home) == .me && p.visibility(of: .picture) == .public)
        await #expect(throws: ProfileError.unknownPlace(bobs.id!)) { try await profiles.save(ProfileRecord(userId: ann, homePlaceId: bobs.id), now: 2) }
        await #expect(throws: ProfileError.unknownPlace(999)) { try await profiles.save(ProfileRecord(userId: id["cy"]!, homePlaceId: 999), now: 2) }
        await #expect(throws: ProfileError.invalidDisplayName) { try await profiles.save(ProfileRecord(userId: ann, displayName: String(repeating: "a", count: 65)), now: 2) }
        await #expect(throws: ProfileError.invalidBio) { try await profiles.save(ProfileRecord(userId: ann, bio: String(repeating: "b", count: 501)), now: 2) }
        #expect(try await profiles.profile(userId: ann)?.displayName == "Ann", "nothing stored by a refused change")
        #expect(try await profiles.profile(userId: id["cy"]!) == nil, "a refused first profile writes no row")
        // Pictures: bytes in, the same bytes out, with their type; removed.
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255]
        try await profiles.setPicture(userId: ann, data: bytes, type: "image/png", now: 3)
        let picture = try await profiles.picture(userId: ann)
        #expect(picture?.data == bytes && picture?.type == "image/png")
        let withPicture = try await profiles.profile(userId: ann)
        #expect(withPicture?.pictureUpdatedAt == 3 && withPicture?.displayName == "Ann")
        try await profiles.setPicture(userId: ann, data: nil, type: nil, now: 4)
        #expect(try await profiles.picture(userId: ann) == nil)
        // A picture first, then text: both kept.
        try await profiles.setPicture(userId: id["cy"]!, data: bytes, type: "image/webp", now: 5)
        try await profiles.save(ProfileRecord(userId: id["cy"]!, displayName: "Cy"), now: 6)
        #expect(try await profiles.picture(userId: id["cy"]!)?.type == "image/webp")
        // The summary of the journal (reminders not counted).
        var batch = SightingBatch()
        let key = VisitKey(address: 1, firstSeen: 0)
        for (address, type, time, distance, kind) in [(0x4840D6, "B738", 100.0, 20.0, JournalKind.firstSeen), (0x4840D6, "B738", 200, 35, .closestApproach),
                                                      (0x3C6444, "A320", 300, 80, .firstSeen), (0xABCDEF, "A388", 400, 999, .reminder)] {
            batch.events.append((key, JournalEventRecord(userId: ann, watchRuleId: nil, visitId: nil, address: address, time: time, kind: kind,
                                                         typeCode: type, distance: distance)))
        }
        _ = try await s.write(batch)
        #expect(try await profiles.sightingSummary(userId: ann) == UserSightingSummary(aircraft: 2, types: 2, firstSighting: 100, lastSighting: 300, longestDistance: 80))
        #expect(try await profiles.sightingSummary(userId: id["bob"]!) == UserSightingSummary())
        let together = try await profiles.sightingSummary(userIds: [ann, id["bob"]!], start: 150, end: 1000)
        #expect(together.summary.aircraft == 2 && together.perType.map(\.type) == ["A320", "B738"])
    }
}
