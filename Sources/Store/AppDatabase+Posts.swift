import Foundation
import GRDB

/// Posts on SQLite (`PostStore`).
extension AppDatabase: PostStore {
    static func post(_ row: Row) -> PostRecord? {
        guard let audience = PostRecord.Audience(rawValue: row[2]) else { return nil }
        return PostRecord(id: row[0], userId: row[1], audience: audience, groupId: row[3], text: row[4], address: row[5], visitId: row[6],
                          createdAt: row[7], author: row[8], comments: row[9])
            .picture(row[10])
    }

    public func addPost(_ post: PostRecord) throws -> PostRecord {
        var p = post
        p.text = try PostRecord.validate(text: post.text, limit: 1000)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO post (userId, audience, groupId, text, address, visitId, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [p.userId, p.audience.rawValue, p.groupId, p.text, p.address, p.visitId, p.createdAt])
            p.id = db.lastInsertedRowID
        }
        return p
    }

    public func posts(_ view: PostsView, viewer: Int64?, before: Int64?, limit: Int) throws -> [PostRecord] {
        var arguments: [any DatabaseValueConvertible] = []
        let sql = PostQuery.page(view, viewer: viewer, before: before, limit: limit) { arguments.append($0); return "?\(arguments.count)" }
        return try writer.read { db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).compactMap(Self.post) }
    }

    public func post(id: Int64, viewer: Int64?) throws -> PostRecord? {
        var arguments: [any DatabaseValueConvertible] = []
        let sql = PostQuery.one(id: id, viewer: viewer) { arguments.append($0); return "?\(arguments.count)" }
        return try writer.read { db in try Row.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)).flatMap(Self.post) }
    }

    public func deletePost(id: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM post WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw PostError.unknownPost(id) }
        }
    }

    public func setPostPicture(id: Int64, data: [UInt8], type: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE post SET picture = ?, pictureType = ? WHERE id = ?", arguments: [Data(data), type, id])
            guard db.changesCount == 1 else { throw PostError.unknownPost(id) }
        }
    }

    public func postPicture(id: Int64) throws -> (data: [UInt8], type: String)? {
        try writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT picture, pictureType FROM post WHERE id = ? AND picture IS NOT NULL", arguments: [id]),
                  let data = row[0] as Data?, let type = row[1] as String? else { return nil }
            return ([UInt8](data), type)
        }
    }

    public func addComment(_ comment: CommentRecord) throws -> CommentRecord {
        var c = comment
        c.text = try PostRecord.validate(text: comment.text, limit: 500)
        try writer.write { db in
            try db.execute(sql: "INSERT INTO comment (postId, userId, text, createdAt) VALUES (?, ?, ?, ?)", arguments: [c.postId, c.userId, c.text, c.createdAt])
            c.id = db.lastInsertedRowID
        }
        return c
    }

    public func comments(postId: Int64) throws -> [CommentRecord] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, c.postId, c.userId, u.username, c.text, c.createdAt FROM comment c JOIN "user" u ON u.id = c.userId
                WHERE c.postId = ? ORDER BY c.id
                """, arguments: [postId]).map {
                CommentRecord(id: $0[0], postId: $0[1], userId: $0[2], author: $0[3], text: $0[4], createdAt: $0[5])
            }
        }
    }

    public func report(postId: Int64, userId: Int64, reason: String, now: Double) throws {
        let why = try PostRecord.validate(text: reason, limit: 300)
        try writer.write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM postReport WHERE postId = ? AND userId = ?", arguments: [postId, userId]) == 0 else {
                throw PostError.alreadyReported
            }
            try db.execute(sql: "INSERT INTO postReport (postId, userId, reason, createdAt) VALUES (?, ?, ?, ?)", arguments: [postId, userId, why, now])
        }
    }

    public func reports(limit: Int) throws -> [ReportRecord] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT r.postId, u.username, r.reason, r.createdAt, p.text FROM postReport r JOIN "user" u ON u.id = r.userId
                JOIN post p ON p.id = r.postId ORDER BY r.createdAt DESC LIMIT ?
                """, arguments: [limit]).map { ReportRecord(postId: $0[0], reporter: $0[1], reason: $0[2], createdAt: $0[3], text: $0[4]) }
        }
    }

    public func knownTypes(excludingVisits: Set<Int64>) throws -> Set<String> {
        let ids = Array(excludingVisits)
        let list = ids.isEmpty ? "" : " AND id NOT IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
        return try writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT upper(typeCode) FROM visit WHERE typeCode IS NOT NULL\(list)",
                                    arguments: StatementArguments(ids)))
        }
    }

    public func isAdmin(userId: Int64) throws -> Bool {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM siteAdmin WHERE userId = ?", arguments: [userId]) == 1 }
    }

    public func setAdmin(userId: Int64, _ admin: Bool) throws {
        try writer.write { db in
            if admin {
                try db.execute(sql: "INSERT OR IGNORE INTO siteAdmin (userId) VALUES (?)", arguments: [userId])
            } else {
                try db.execute(sql: "DELETE FROM siteAdmin WHERE userId = ?", arguments: [userId])
            }
        }
    }
}
