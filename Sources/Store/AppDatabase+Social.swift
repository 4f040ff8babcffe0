import Foundation
import GRDB

/// Friends and blocks on SQLite (`SocialStore`).
extension AppDatabase: SocialStore {
    public func friendship(from userId: Int64, to otherId: Int64) throws -> String? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT state FROM friendship WHERE userId = ? AND otherId = ?", arguments: [userId, otherId])
        }
    }

    public func blocks(_ userId: Int64, _ otherId: Int64) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM userBlock WHERE userId = ? AND blockedId = ?)", arguments: [userId, otherId]) ?? false
        }
    }

    public func changeSocial(set: [(Int64, Int64, String)], clear: [(Int64, Int64)], block: (Int64, Int64)?, unblock: (Int64, Int64)?, now: Double) throws {
        try writer.write { db in
            for (a, b) in clear { try db.execute(sql: "DELETE FROM friendship WHERE userId = ? AND otherId = ?", arguments: [a, b]) }
            for (a, b, state) in set {
                try db.execute(sql: """
                    INSERT INTO friendship (userId, otherId, state, createdAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (userId, otherId) DO UPDATE SET state = excluded.state
                    """, arguments: [a, b, state, now])
            }
            if let (a, b) = block {
                try db.execute(sql: "INSERT OR IGNORE INTO userBlock (userId, blockedId, createdAt) VALUES (?, ?, ?)", arguments: [a, b, now])
            }
            if let (a, b) = unblock { try db.execute(sql: "DELETE FROM userBlock WHERE userId = ? AND blockedId = ?", arguments: [a, b]) }
        }
    }

    public func friendList(userId: Int64) throws -> FriendList {
        try writer.read { db in
            func names(_ sql: String) throws -> [String] {
                try String.fetchAll(db, sql: sql + " ORDER BY username COLLATE NOCASE", arguments: [userId])
            }
            return FriendList(
                friends: try names("SELECT u.username FROM friendship f JOIN user u ON u.id = f.otherId WHERE f.userId = ? AND f.state = 'friends'"),
                incoming: try names("SELECT u.username FROM friendship f JOIN user u ON u.id = f.userId WHERE f.otherId = ? AND f.state = 'requested'"),
                outgoing: try names("SELECT u.username FROM friendship f JOIN user u ON u.id = f.otherId WHERE f.userId = ? AND f.state = 'requested'"),
                blocked: try names("SELECT u.username FROM userBlock b JOIN user u ON u.id = b.blockedId WHERE b.userId = ?"))
        }
    }
}
