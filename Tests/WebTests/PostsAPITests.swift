import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing
@testable import Web

/// The feed over HTTP: posts with pictures (through the image library), their visibility,
/// comments, moderation by the author and by admins, pages by cursor.
@Suite("Web: posts")
struct PostsAPITests {
    @Test("A post's picture is re-encoded and served only where the post is visible; hostile pictures 415; admins delete any post")
    func picturesAndModeration() async throws {
        let database = try AppDatabase.inMemory()
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: database, bcryptCost: 4)
        try await buildApplication(configuration: WebConfiguration(port: 0), sources: sources).test(.router) { client in
            let ann = try await AccountTests.register(client, "ann")
            let sam = try await AccountTests.register(client, "sam")
            func send(_ uri: String, _ method: HTTPRequest.Method, _ who: HTTPFields, _ body: ByteBuffer? = nil) async throws -> TestResponse {
                try await client.execute(uri: uri, method: method, headers: who, body: body) { $0 }
            }
            let open = try #require(try await send("/api/posts", .post, ann, ByteBuffer(string: #"{"text":"A380 at 27","hex":"896123"}"#)).json()["id"] as? Int)
            let closed = try #require(try await send("/api/posts", .post, ann, ByteBuffer(string: #"{"text":"friends only","audience":"friends"}"#)).json()["id"] as? Int)
            for id in [open, closed] {
                #expect(try await send("/api/posts/\(id)/picture", .put, ann, ByteBuffer(bytes: ProfileAPITests.png)).status == .ok)
            }
            #expect(try await send("/api/posts/\(open)/picture", .put, ann, ByteBuffer(string: "<svg/>")).status == .unsupportedMediaType)
            #expect(try await send("/api/posts/\(open)/picture", .put, sam, ByteBuffer(bytes: ProfileAPITests.png)).status == .forbidden)
            let page = try await send("/api/feed", .get, [:]).json()
            let first = try #require((page["posts"] as? [[String: Any]])?.first)
            #expect(first["picture"] as? String == "api/posts/\(open)/picture" && first["hex"] as? String == "896123")
            let picture = try await send("/api/posts/\(open)/picture", .get, [:])
            #expect(picture.status == .ok && picture.headers[.contentType] == "image/png")
            #expect(try await send("/api/posts/\(closed)/picture", .get, sam).status == .notFound, "the friends-only post's picture is not sam's to see")
            let thread = try await send("/api/aircraft/896123/thread", .get, sam).json()
            #expect((thread["posts"] as? [[String: Any]])?.count == 1)
            // Comments, then moderation.
            #expect(try await send("/api/posts/\(open)/comments", .post, sam, ByteBuffer(string: #"{"text":"nice one"}"#)).status == .created)
            #expect(try await send("/api/posts/\(open)", .delete, sam).status == .forbidden)
            try await database.posts.setAdmin(userId: try #require(try database.accounts.user(named: "sam")?.id), true)
            #expect(try await send("/api/posts/\(open)", .delete, sam).status == .noContent)
            #expect(try await send("/api/posts/\(open)", .get, ann).status == .notFound)
            #expect(try await send("/api/feed?view=friends", .get, [:]).status == .unauthorized)
            #expect(try await send("/api/feed?view=sideways", .get, ann).status == .badRequest)
            #expect(try await send("/api/feed?limit=0", .get, ann).status == .badRequest)
        }
    }
}
