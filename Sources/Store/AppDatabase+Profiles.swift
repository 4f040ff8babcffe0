import Foundation
import GRDB

/// Profiles on SQLite (`ProfileStore`).
extension AppDatabase: ProfileStore {
    public func profile(userId: Int64) throws -> ProfileRecord? {
        try writer.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT displayName, bio, homePlaceId, visibility, pictureType, pictureUpdatedAt FROM profile WHERE userId = ?
                """, arguments: [userId]) else { return nil }
            return ProfileRecord(userId: userId, displayName: row["displayName"], bio: row["bio"], homePlaceId: row["homePlaceId"],
                                 visibility: ProfileRecord.visibility(json: row["visibility"]), pictureType: row["pictureType"],
                                 pictureUpdatedAt: row["pictureUpdatedAt"])
        }
    }

    public func saveProfile(_ profile: ProfileRecord, now: Double) throws {
        let p = try profile.validated()
        try writer.write { db in
            if let home = p.homePlaceId,
               try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place WHERE id = ? AND userId = ?", arguments: [home, p.userId]) != 1 {
                throw ProfileError.unknownPlace(home)
            }
            try db.execute(sql: """
                INSERT INTO profile (userId, displayName, bio, homePlaceId, visibility, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (userId) DO UPDATE SET displayName = excluded.displayName, bio = excluded.bio,
                    homePlaceId = excluded.homePlaceId, visibility = excluded.visibility, updatedAt = excluded.updatedAt
                """, arguments: [p.userId, p.displayName, p.bio, p.homePlaceId, p.visibilityJSON, now])
        }
    }

    public func setPicture(userId: Int64, data: [UInt8]?, type: String?, now: Double) throws {
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO profile (userId, visibility, picture, pictureType, pictureUpdatedAt, updatedAt) VALUES (?, '{}', ?, ?, ?, ?)
                ON CONFLICT (userId) DO UPDATE SET picture = excluded.picture, pictureType = excluded.pictureType,
                    pictureUpdatedAt = excluded.pictureUpdatedAt, updatedAt = excluded.updatedAt
                """, arguments: [userId, data.map { Data($0) }, type, data == nil ? nil : now, now])
        }
    }

    public func picture(userId: Int64) throws -> (data: [UInt8], type: String)? {
        try writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT picture, pictureType FROM profile WHERE userId = ? AND picture IS NOT NULL",
                                             arguments: [userId]),
                  let data = row["picture"] as Data?, let type = row["pictureType"] as String? else { return nil }
            return ([UInt8](data), type)
        }
    }

    public func sightingSummary(userIds: [Int64], start: Double, end: Double) throws -> (summary: UserSightingSummary, perType: [(type: String, aircraft: Int)]) {
        guard !userIds.isEmpty else { return (UserSightingSummary(), []) }
        let list = userIds.map { _ in "?" }.joined(separator: ",")
        let args = StatementArguments(userIds) + [start, end]
        return try writer.read { db in
            let where_ = "userId IN (\(list)) AND kind != 'reminder' AND kind != 'goal' AND time >= ? AND time < ?"
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT address) AS a, COUNT(DISTINCT typeCode) AS t, MIN(time) AS f, MAX(time) AS l, MAX(distance) AS d
                FROM journalEvent WHERE \(where_)
                """, arguments: args)!
            let types = try Row.fetchAll(db, sql: """
                SELECT typeCode, COUNT(DISTINCT address) AS n FROM journalEvent WHERE \(where_) AND typeCode IS NOT NULL
                GROUP BY typeCode ORDER BY n DESC, typeCode
                """, arguments: args).map { (type: $0["typeCode"] as String, aircraft: $0["n"] as Int) }
            return (UserSightingSummary(aircraft: row["a"], types: row["t"], firstSighting: row["f"], lastSighting: row["l"], longestDistance: row["d"]), types)
        }
    }
}
