import Foundation
import GRDB
import ModeS
import Store
import Tracking

/// `flytracker bench --store --feed`: a site with many users, friendships, groups and
/// posts, and the time of each kind of feed page (50 posts) on it.
public enum PostsBenchmark {
    public struct Timing: Sendable {
        public var name: String
        /// Best of the repetitions, seconds.
        public var seconds: Double
        public var rows: Int
    }

    /// Fills `database` with `users` users (each with 20 friends), 50 groups of 40 members and
    /// `posts` posts (70 % public, 20 % friends, 10 % group; 5 % about an aircraft), in large
    /// transactions. Returns the time it took.
    public static func fill(_ database: AppDatabase, users: Int = 1000, posts: Int, seed: UInt64 = 1) throws -> Double {
        let clock = ContinuousClock()
        let began = clock.now
        var rng = SplitMix64(seed: seed)
        func next() -> UInt64 { rng.next() }
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
        try database.writer.write { db in
            for u in 1...users {
                try db.execute(sql: "INSERT INTO user (id, username, passwordHash, createdAt) VALUES (?, ?, 'x', 0)", arguments: [u, "user\(u)"])
            }
            for u in 1...users {
                for k in 1...10 {
                    let other = (u + k * 37) % users + 1
                    guard other != u else { continue }
                    try db.execute(sql: "INSERT OR IGNORE INTO friendship (userId, otherId, state, createdAt) VALUES (?, ?, 'friends', 0), (?, ?, 'friends', 0)",
                                   arguments: [u, other, other, u])
                }
                if u % 97 == 0 { try db.execute(sql: "INSERT INTO userBlock (userId, blockedId, createdAt) VALUES (?, ?, 0)", arguments: [u, (u * 7) % users + 1]) }
            }
            for g in 1...50 {
                try db.execute(sql: "INSERT INTO spottingGroup (id, name, open, createdAt) VALUES (?, ?, 1, 0)", arguments: [g, "group \(g)"])
                for m in 0..<40 {
                    try db.execute(sql: "INSERT OR IGNORE INTO groupMember (groupId, userId, role, since) VALUES (?, ?, ?, 0)",
                                   arguments: [g, (g * 13 + m * 17) % users + 1, m == 0 ? "owner" : "member"])
                }
            }
        }
        var written = 0
        while written < posts {
            let n = min(100_000, posts - written)
            try database.writer.write { db in
                let insert = try db.makeStatement(sql: "INSERT INTO post (userId, audience, groupId, text, address, createdAt) VALUES (?, ?, ?, ?, ?, ?)")
                for i in 0..<n {
                    let r = next()
                    let user = Int(r % UInt64(users)) + 1
                    let pick = (r >> 16) % 100
                    let audience = pick < 70 ? "public" : pick < 90 ? "friends" : "group"
                    let group: Int? = audience == "group" ? Int((r >> 24) % 50) + 1 : nil
                    let address: Int? = (r >> 32) % 20 == 0 ? 0x400000 + Int((r >> 40) % 5000) : nil
                    try insert.execute(arguments: [user, audience, group, "post \(written + i) by user\(user)", address, Double(written + i)])
                }
            }
            written += n
        }
        return (clock.now - began).seconds
    }

    /// Times each kind of page (best of `repetitions`): the first and a deep page of the public
    /// feed logged out and logged in, a user's friends feed, a group's, an aircraft's thread.
    public static func pages(_ database: AppDatabase, repetitions: Int = 20) async throws -> [Timing] {
        let newest = try await database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM post") } ?? 0
        let cases: [(String, PostsView, Int64?, Int64?)] = [
            ("everyone, first page, logged out", .everyone, nil, nil),
            ("everyone, first page, logged in", .everyone, 97, nil),
            ("everyone, a page half-way down", .everyone, 5, newest / 2),
            ("friends, first page", .friends, 42, nil),
            ("friends, a page half-way down", .friends, 42, newest / 2),
            ("group, first page", .group(7), 7 * 13 % 1000 + 1, nil),
            ("aircraft thread, first page", .aircraft(0x400000 + 123), 3, nil),
        ]
        let clock = ContinuousClock()
        var timings: [Timing] = []
        for (name, view, viewer, before) in cases {
            var best = Double.infinity
            var rows = 0
            for _ in 0..<repetitions {
                let began = clock.now
                rows = try await database.posts.posts(view, viewer: viewer, before: before, limit: 50).count
                best = min(best, (clock.now - began).seconds)
            }
            timings.append(Timing(name: name, seconds: best, rows: rows))
        }
        return timings
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
