import Foundation
import PostgresTestSupport
import Testing
@testable import Store

/// The feed on both engines: who sees which post, blocks, pagination by cursor, comments,
/// reports and deletion.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PostStoreTests {
    @Test(arguments: Engine.allCases)
    func visibilityPagesAndModeration(_ engine: Engine) async throws {
        let (s, id) = try await SocialStoreTests.store(engine)
        let (ann, bob, cy, dee) = (id["ann"]!, id["bob"]!, id["cy"]!, id["dee"]!)
        try await s.social.requestFriend(userId: bob, name: "ann", now: 0)
        try await s.social.acceptFriend(userId: ann, name: "bob", now: 0)
        try await s.social.block(userId: ann, name: "cy", now: 0)
        let club = try await s.groups.createGroup(ownerId: ann, name: "Club", description: nil, open: false, now: 0)
        var ids: [String: Int64] = [:]
        for (key, user, audience, group, text) in [("public", ann, PostRecord.Audience.public, nil as Int64?, "hello <script>"),
                                                   ("friends", ann, .friends, nil, "for friends"), ("group", ann, .group, club.id, "for the club"),
                                                   ("dee", dee, .public, nil, "dee here"), ("auto", nil, .public, nil, "Squawk 7700: KLM1")] as [(String, Int64?, PostRecord.Audience, Int64?, String)] {
            ids[key] = try await s.posts.addPost(PostRecord(userId: user, audience: audience, groupId: group, text: text, address: key == "auto" ? 0x4840D6 : nil, createdAt: 1)).id
        }
        func texts(_ view: PostsView, _ viewer: Int64?) async throws -> [String] { try await s.posts.posts(view, viewer: viewer, before: nil, limit: 50).map(\.text) }
        #expect(try await texts(.everyone, nil) == ["Squawk 7700: KLM1", "dee here", "hello <script>"])
        #expect(try await texts(.everyone, cy) == ["Squawk 7700: KLM1", "dee here"], "cy, blocked by ann, sees nothing of hers")
        #expect(try await texts(.friends, bob) == ["for friends", "hello <script>"])
        #expect(try await texts(.friends, dee) == ["dee here"])
        #expect(try await texts(.group(club.id), ann) == ["for the club"])
        #expect(try await texts(.group(club.id), bob).isEmpty)
        #expect(try await texts(.aircraft(0x4840D6), nil) == ["Squawk 7700: KLM1"])
        #expect(try await s.posts.post(id: ids["friends"]!, viewer: dee) == nil)
        #expect(try await s.posts.post(id: ids["friends"]!, viewer: bob)?.author == "ann")
        await #expect(try s.posts.post(id: ids["public"]!, viewer: cy) == nil)
        _ = try await s.posts.addComment(CommentRecord(postId: ids["public"]!, userId: bob, text: " nice ", createdAt: 2))
        #expect(try await s.posts.comments(postId: ids["public"]!).map(\.text) == ["nice"])
        #expect(try await s.posts.post(id: ids["public"]!, viewer: nil)?.comments == 1)
        await #expect(throws: PostError.invalidText(limit: 500)) { try await s.posts.addComment(CommentRecord(postId: ids["public"]!, userId: bob, text: "  ", createdAt: 2)) }
        try await s.posts.report(postId: ids["dee"]!, userId: bob, reason: "rude", now: 3)
        await #expect(throws: PostError.alreadyReported) { try await s.posts.report(postId: ids["dee"]!, userId: bob, reason: "again", now: 4) }
        await #expect(try s.posts.reports(limit: 10).map(\.reporter) == ["bob"])
        try await s.posts.setAdmin(userId: bob, true)
        #expect(try await s.posts.isAdmin(userId: bob))
        #expect(try await !s.posts.isAdmin(userId: ann))
        try await s.posts.deletePost(id: ids["dee"]!)
        await #expect(throws: PostError.unknownPost(ids["dee"]!)) { try await s.posts.deletePost(id: ids["dee"]!) }
        // Pages by cursor: 120 posts in pages of 50, 50, 20, each newest first, none twice.
        for i in 0..<120 { _ = try await s.posts.addPost(PostRecord(userId: dee, audience: .public, text: "post \(i)", createdAt: Double(10 + i))) }
        var seen: [String] = []
        var cursor: Int64?
        repeat {
            let page = try await s.posts.posts(.everyone, viewer: dee, before: cursor, limit: 50)
            seen += page.map(\.text)
            cursor = page.count == 50 ? page.last?.id : nil
        } while cursor != nil
        #expect(seen.count == 122 && Set(seen).count == 122 && seen.first == "post 119")
    }
}
