import Foundation
import PostgresNIO
import Store

/// Profiles on PostgreSQL (`ProfileStore`), as on SQLite.
extension PostgresStore: ProfileStore {
    public func profile(userId: Int64) throws -> ProfileRecord? {
        try blocking { [client, logger] in
            let rows = try await client.query("""
                SELECT displayName, bio, homePlaceId, visibility, pictureType, pictureUpdatedAt FROM profile WHERE userId = \(userId)
                """, logger: logger)
            for try await (name, bio, home, visibility, type, updated) in rows.decode((String?, String?, Int64?, String, String?, Double?).self) {
                return ProfileRecord(userId: userId, displayName: name, bio: bio, homePlaceId: home,
                                     visibility: ProfileRecord.visibility(json: visibility), pictureType: type, pictureUpdatedAt: updated)
            }
            return nil
        }
    }

    public func saveProfile(_ profile: ProfileRecord, now: Double) throws {
        let p = try profile.validated()
        let visibility = p.visibilityJSON
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                if let home = p.homePlaceId {
                    var owned = false
                    for try await _ in try await c.query("SELECT 1 FROM place WHERE id = \(home) AND userId = \(p.userId)", logger: logger) { owned = true }
                    guard owned else { throw ProfileError.unknownPlace(home) }
                }
                try await c.query("""
                    INSERT INTO profile (userId, displayName, bio, homePlaceId, visibility, updatedAt)
                    VALUES (\(p.userId), \(p.displayName), \(p.bio), \(p.homePlaceId), \(visibility), \(now))
                    ON CONFLICT (userId) DO UPDATE SET displayName = excluded.displayName, bio = excluded.bio,
                        homePlaceId = excluded.homePlaceId, visibility = excluded.visibility, updatedAt = excluded.updatedAt
                    """, logger: logger)
            }
        }
    }

    public func setPicture(userId: Int64, data: [UInt8]?, type: String?, now: Double) throws {
        let bytes = data.map { ByteBuffer(bytes: $0) }
        let updated: Double? = data == nil ? nil : now
        try blocking { [client, logger] in
            try await client.query("""
                INSERT INTO profile (userId, visibility, picture, pictureType, pictureUpdatedAt, updatedAt)
                VALUES (\(userId), '{}', \(bytes), \(type), \(updated), \(now))
                ON CONFLICT (userId) DO UPDATE SET picture = excluded.picture, pictureType = excluded.pictureType,
                    pictureUpdatedAt = excluded.pictureUpdatedAt, updatedAt = excluded.updatedAt
                """, logger: logger)
            return ()
        }
    }

    public func picture(userId: Int64) throws -> (data: [UInt8], type: String)? {
        try blocking { [client, logger] in
            let rows = try await client.query("SELECT picture, pictureType FROM profile WHERE userId = \(userId) AND picture IS NOT NULL", logger: logger)
            for try await (data, type) in rows.decode((ByteBuffer, String).self) { return (Array(buffer: data), type) }
            return nil
        }
    }

    public func sightingSummary(userIds: [Int64], start: Double, end: Double) throws -> (summary: UserSightingSummary, perType: [(type: String, aircraft: Int)]) {
        guard !userIds.isEmpty else { return (UserSightingSummary(), []) }
        return try blocking { [client, logger] in
            var summary = UserSightingSummary()
            for try await (a, t, f, l, d) in try await client.query("""
                SELECT COUNT(DISTINCT address), COUNT(DISTINCT typeCode), MIN(time), MAX(time), MAX(distance) FROM journalEvent
                WHERE userId = ANY(\(userIds)) AND kind NOT IN ('reminder', 'goal') AND time >= \(start) AND time < \(end)
                """, logger: logger).decode((Int, Int, Double?, Double?, Double?).self) {
                summary = UserSightingSummary(aircraft: a, types: t, firstSighting: f, lastSighting: l, longestDistance: d)
            }
            var types: [(type: String, aircraft: Int)] = []
            for try await (type, n) in try await client.query("""
                SELECT typeCode, COUNT(DISTINCT address) AS n FROM journalEvent
                WHERE userId = ANY(\(userIds)) AND kind NOT IN ('reminder', 'goal') AND time >= \(start) AND time < \(end) AND typeCode IS NOT NULL
                GROUP BY typeCode ORDER BY n DESC, typeCode
                """, logger: logger).decode((String, Int).self) { types.append((type, n)) }
            return (summary, types)
        }
    }
}
