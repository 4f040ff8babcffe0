import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing
@testable import Web

/// `GET /api/compare`: my numbers next to a friend's or a group's, only where allowed.
@Suite("Web: compare")
struct CompareAPITests {
    @Test("Side by side with a friend and with a group; a friend's private statistics are 403, a stranger 404")
    func compare() async throws {
        let database = try AppDatabase.inMemory()
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: database, bcryptCost: 4)
        try await buildApplication(configuration: WebConfiguration(port: 0), sources: sources).test(.router) { client in
            let ann = try await AccountTests.register(client, "ann")
            let bob = try await AccountTests.register(client, "bob")
            _ = try await AccountTests.register(client, "sam")
            func send(_ uri: String, _ method: HTTPRequest.Method, _ who: HTTPFields, _ json: String? = nil) async throws -> TestResponse {
                try await client.execute(uri: uri, method: method, headers: who, body: json.map { ByteBuffer(string: $0) }) { $0 }
            }
            _ = try await send("/api/me/friends", .post, ann, #"{"username":"bob"}"#)
            _ = try await send("/api/me/friends/ann/accept", .post, bob)
            _ = try await send("/api/groups", .post, ann, #"{"name":"Pair"}"#)
            _ = try await send("/api/groups/Pair/join", .post, bob)
            // Journals: ann 2 B738s and an A388; bob the same A388 and an E190.
            var batch = SightingBatch()
            let key = VisitKey(address: 1, firstSeen: 0)
            let now = Sky.now
            for (user, address, type) in [("ann", 1, "B738"), ("ann", 2, "B738"), ("ann", 3, "A388"), ("bob", 3, "A388"), ("bob", 4, "E190")] {
                let id = try await #require(try database.accounts.user(named: user)?.id)
                batch.events.append((key, JournalEventRecord(userId: id, watchRuleId: nil, visitId: nil, address: address, time: now - 3600,
                                                             kind: .firstSeen, typeCode: type, distance: Double(address * 10))))
            }
            _ = try await database.write(batch)
            let withBob = try await send("/api/compare?with=bob&period=all", .get, ann)
            #expect(withBob.status == .ok, "\(withBob.text)")
            let doc = try withBob.json()
            let me = try #require(doc["me"] as? [String: Any]), other = try #require(doc["other"] as? [String: Any])
            #expect(me["aircraft"] as? Int == 3 && me["types"] as? Int == 2 && other["aircraft"] as? Int == 2 && other["name"] as? String == "bob")
            #expect((me["per_type"] as? [[String: Any]])?.first?["type"] as? String == "B738")
            let group = try await send("/api/compare?group=Pair&period=all", .get, ann).json()
            #expect((group["other"] as? [String: Any])?["aircraft"] as? Int == 4, "the group's journals together, each aircraft once")
            #expect(try await send("/api/compare?with=sam", .get, ann).status == .notFound)
            #expect(try await send("/api/compare?group=Nope", .get, ann).status == .notFound)
            #expect(try await send("/api/compare", .get, ann).status == .badRequest)
            _ = try await send("/api/me/profile", .put, bob, #"{"visibility":{"stats":"me"}}"#)
            #expect(try await send("/api/compare?with=bob", .get, ann).status == .forbidden)
        }
    }
}
