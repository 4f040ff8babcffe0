import PostgresNIO
import Store

/// Posts on PostgreSQL (`PostStore`), the same queries as SQLite's (`PostQuery`).
extension PostgresStore: PostStore {
    static func post(_ row: PostgresRow) throws -> PostRecord? {
        let c = try row.makeRandomAccess()
        guard let audience = PostRecord.Audience(rawValue: try c[2].decode(String.self)) else { return nil }
        return PostRecord(id: try c[0].decode(Int64.self), userId: try c[1].decode(Int64?.self), audience: audience,
                          groupId: try c[3].decode(Int64?.self), text: try c[4].decode(String.self), address: try c[5].decode(Int?.self),
                          visitId: try c[6].decode(Int64?.self), createdAt: try c[7].decode(Double.self), author: try c[8].decode(String?.self),
                          comments: try c[9].decode(Int.self))
            .picture(try c[10].decode(String?.self))
    }

    func posts(_ sql: String, _ binds: PostgresBindings) throws -> [PostRecord] {
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        return try blocking { [client, logger] in
            var out: [PostRecord] = []
            for try await row in try await client.query(query, logger: logger) { if let p = try Self.post(row) { out.append(p) } }
            return out
        }
    }

    public func addPost(_ post: PostRecord) throws -> PostRecord {
        var p = post
        p.text = try PostRecord.validate(text: post.text, limit: 1000)
        let q = p
        p.id = try blocking { [client, logger] in
            var id: Int64 = 0
            for try await v in try await client.query("""
                INSERT INTO post (userId, audience, groupId, text, address, visitId, createdAt)
                VALUES (\(q.userId), \(q.audience.rawValue), \(q.groupId), \(q.text), \(q.address), \(q.visitId), \(q.createdAt)) RETURNING id
                """, logger: logger).decode(Int64.self) { id = v }
            return id
        }
        return p
    }

    public func posts(_ view: PostsView, viewer: Int64?, before: Int64?, limit: Int) throws -> [PostRecord] {
        var binds = PostgresBindings()
        let sql = PostQuery.page(view, viewer: viewer, before: before, limit: limit) { binds.append($0); return "$\(binds.count)" }
        return try posts(sql, binds)
    }

    public func post(id: Int64, viewer: Int64?) throws -> PostRecord? {
        var binds = PostgresBindings()
        let sql = PostQuery.one(id: id, viewer: viewer) { binds.append($0); return "$\(binds.count)" }
        return try posts(sql, binds).first
    }

    public func deletePost(id: Int64) throws {
        guard try rowsTouched("DELETE FROM post WHERE id = \(id) RETURNING 1") == 1 else { throw PostError.unknownPost(id) }
    }

    public func setPostPicture(id: Int64, data: [UInt8], type: String) throws {
        let bytes = ByteBuffer(bytes: data)
        guard try rowsTouched("UPDATE post SET picture = \(bytes), pictureType = \(type) WHERE id = \(id) RETURNING 1") == 1 else { throw PostError.unknownPost(id) }
    }

    public func postPicture(id: Int64) throws -> (data: [UInt8], type: String)? {
        try blocking { [client, logger] in
            for try await (data, type) in try await client.query("SELECT picture, pictureType FROM post WHERE id = \(id) AND picture IS NOT NULL", logger: logger)
                .decode((ByteBuffer, String).self) { return (Array(buffer: data), type) }
            return nil
        }
    }

    public func addComment(_ comment: CommentRecord) throws -> CommentRecord {
        var c = comment
        c.text = try PostRecord.validate(text: comment.text, limit: 500)
        let q = c
        c.id = try blocking { [client, logger] in
            var id: Int64 = 0
            for try await v in try await client.query("""
                INSERT INTO comment (postId, userId, text, createdAt) VALUES (\(q.postId), \(q.userId), \(q.text), \(q.createdAt)) RETURNING id
                """, logger: logger).decode(Int64.self) { id = v }
            return id
        }
        return c
    }

    public func comments(postId: Int64) throws -> [CommentRecord] {
        try blocking { [client, logger] in
            var out: [CommentRecord] = []
            let rows = try await client.query("""
                SELECT c.id, c.postId, c.userId, u.username, c.text, c.createdAt FROM comment c JOIN "user" u ON u.id = c.userId
                WHERE c.postId = \(postId) ORDER BY c.id
                """, logger: logger)
            for try await (id, post, user, name, text, created) in rows.decode((Int64, Int64, Int64, String, String, Double).self) {
                out.append(CommentRecord(id: id, postId: post, userId: user, author: name, text: text, createdAt: created))
            }
            return out
        }
    }

    public func report(postId: Int64, userId: Int64, reason: String, now: Double) throws {
        let why = try PostRecord.validate(text: reason, limit: 300)
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                for try await _ in try await c.query("SELECT 1 FROM postReport WHERE postId = \(postId) AND userId = \(userId)", logger: logger) {
                    throw PostError.alreadyReported
                }
                try await c.query("INSERT INTO postReport (postId, userId, reason, createdAt) VALUES (\(postId), \(userId), \(why), \(now))", logger: logger)
            }
        }
    }

    public func reports(limit: Int) throws -> [ReportRecord] {
        try blocking { [client, logger] in
            var out: [ReportRecord] = []
            let rows = try await client.query("""
                SELECT r.postId, u.username, r.reason, r.createdAt, p.text FROM postReport r JOIN "user" u ON u.id = r.userId
                JOIN post p ON p.id = r.postId ORDER BY r.createdAt DESC LIMIT \(limit)
                """, logger: logger)
            for try await (post, name, reason, created, text) in rows.decode((Int64, String, String, Double, String).self) {
                out.append(ReportRecord(postId: post, reporter: name, reason: reason, createdAt: created, text: text))
            }
            return out
        }
    }

    public func knownTypes(excludingVisits: Set<Int64>) throws -> Set<String> {
        let excluded = Array(excludingVisits)
        return try blocking { [client, logger] in
            var types = Set<String>()
            for try await t in try await client.query("""
                SELECT DISTINCT upper(typeCode) FROM visit WHERE typeCode IS NOT NULL AND NOT (id = ANY(\(excluded)))
                """, logger: logger).decode(String.self) { types.insert(t) }
            return types
        }
    }

    public func isAdmin(userId: Int64) throws -> Bool {
        try blocking { [client, logger] in
            for try await _ in try await client.query("SELECT 1 FROM siteAdmin WHERE userId = \(userId)", logger: logger) { return true }
            return false
        }
    }

    public func setAdmin(userId: Int64, _ admin: Bool) throws {
        try blocking { [client, logger] in
            if admin {
                try await client.query("INSERT INTO siteAdmin (userId) VALUES (\(userId)) ON CONFLICT DO NOTHING", logger: logger)
            } else {
                try await client.query("DELETE FROM siteAdmin WHERE userId = \(userId)", logger: logger)
            }
            return ()
        }
    }
}
