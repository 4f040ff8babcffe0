import Foundation
import PostgresTestSupport
import Testing
@testable import Store

/// Friends and blocks on both engines: requests, acceptance, declining, removal; a block
/// ends everything between two users and hides the blocker from the blocked.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SocialStoreTests {
    static func store(_ engine: Engine) throws -> (any SightingStore, [String: Int64]) {
        let store = try engine.makeStore()
        var ids: [String: Int64] = [:]
        for name in ["ann", "bob", "cy", "dee"] { ids[name] = try store.addUser(username: name, password: "correct horse", now: 0, cost: testCost).id! }
        return (store, ids)
    }

    @Test(arguments: Engine.allCases)
    func requestsAcceptDeclineAndRemove(_ engine: Engine) throws {
        let (s, id) = try Self.store(engine)
        #expect(try s.requestFriend(userId: id["ann"]!, name: "bob", now: 1) == .requested)
        #expect(try s.relation(of: id["ann"]!, to: id["bob"]!) == .requested)
        #expect(try s.relation(of: id["bob"]!, to: id["ann"]!) == .invited)
        #expect(throws: SocialError.alreadyRequested("bob")) { try s.requestFriend(userId: id["ann"]!, name: "BOB", now: 2) }
        #expect(try s.friendList(userId: id["bob"]!) == FriendList(incoming: ["ann"]))
        try s.acceptFriend(userId: id["bob"]!, name: "ann", now: 3)
        #expect(try s.relation(of: id["ann"]!, to: id["bob"]!) == .friend && s.relation(of: id["bob"]!, to: id["ann"]!) == .friend)
        #expect(throws: SocialError.alreadyFriends("bob")) { try s.requestFriend(userId: id["ann"]!, name: "bob", now: 4) }
        // Crossing requests: cy asks ann, ann asks cy: friends.
        try s.requestFriend(userId: id["cy"]!, name: "ann", now: 5)
        #expect(try s.requestFriend(userId: id["ann"]!, name: "cy", now: 6) == .friend)
        #expect(try s.friendList(userId: id["ann"]!) == FriendList(friends: ["bob", "cy"]))
        // Declining and withdrawing.
        try s.requestFriend(userId: id["dee"]!, name: "ann", now: 7)
        try s.removeFriend(userId: id["ann"]!, name: "dee", now: 8)
        #expect(try s.relation(of: id["dee"]!, to: id["ann"]!) == .none)
        #expect(throws: SocialError.noRequest("dee")) { try s.acceptFriend(userId: id["ann"]!, name: "dee", now: 9) }
        try s.removeFriend(userId: id["bob"]!, name: "ann", now: 10)
        #expect(try s.friendList(userId: id["ann"]!) == FriendList(friends: ["cy"]))
        #expect(throws: SocialError.notFriends("bob")) { try s.removeFriend(userId: id["ann"]!, name: "bob", now: 11) }
        #expect(throws: SocialError.yourself) { try s.requestFriend(userId: id["ann"]!, name: "ann", now: 12) }
        #expect(throws: SocialError.unknownUser("zed")) { try s.requestFriend(userId: id["ann"]!, name: "zed", now: 13) }
    }

    @Test(arguments: Engine.allCases)
    func aBlockEndsEverythingAndHidesTheBlocker(_ engine: Engine) throws {
        let (s, id) = try Self.store(engine)
        try s.requestFriend(userId: id["bob"]!, name: "ann", now: 1)
        try s.acceptFriend(userId: id["ann"]!, name: "bob", now: 2)
        try s.requestFriend(userId: id["cy"]!, name: "ann", now: 3)
        try s.block(userId: id["ann"]!, name: "bob", now: 4)
        try s.block(userId: id["ann"]!, name: "cy", now: 5)
        #expect(try s.friendList(userId: id["ann"]!) == FriendList(blocked: ["bob", "cy"]))
        #expect(try s.friendList(userId: id["bob"]!) == FriendList(), "bob sees nothing of ann, not even the block")
        #expect(try s.relation(of: id["bob"]!, to: id["ann"]!) == .blocked)
        // To bob, ann does not exist; ann must unblock before asking bob.
        for action in [{ try s.requestFriend(userId: id["bob"]!, name: "ann", now: 6) }, { _ = try s.acceptFriend(userId: id["bob"]!, name: "ann", now: 6) },
                       { try s.removeFriend(userId: id["bob"]!, name: "ann", now: 6) }] as [() throws -> Any] {
            #expect(throws: SocialError.unknownUser("ann")) { _ = try action() }
        }
        #expect(throws: SocialError.blocking("bob")) { try s.requestFriend(userId: id["ann"]!, name: "bob", now: 7) }
        try s.unblock(userId: id["ann"]!, name: "bob", now: 8)
        #expect(throws: SocialError.unknownUser("bob")) { try s.unblock(userId: id["ann"]!, name: "bob", now: 9) }
        #expect(try s.relation(of: id["bob"]!, to: id["ann"]!) == .none, "unblocking does not restore the friendship")
        #expect(try s.requestFriend(userId: id["bob"]!, name: "ann", now: 10) == .requested)
    }
}
