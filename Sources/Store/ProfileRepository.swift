import Foundation

/// Profiles: a user's display name, bio, home place, what each field shows to whom, and
/// the picture. Written once for both engines, on the storage seam (`SQLDatabase`).
public struct ProfileRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    public func profile(userId: Int64) async throws -> ProfileRecord? {
        guard let row = try await database.query("""
            SELECT displayName, bio, homePlaceId, visibility, pictureType, pictureUpdatedAt FROM profile WHERE userId = \(userId)
            """).first else { return nil }
        return ProfileRecord(userId: userId, displayName: try row.decode("displayName"), bio: try row.decode("bio"),
                             homePlaceId: try row.decode("homePlaceId"), visibility: ProfileRecord.visibility(json: try row.decode("visibility")),
                             pictureType: try row.decode("pictureType"), pictureUpdatedAt: try row.decode("pictureUpdatedAt"))
    }

    /// Saves the text and visibility (not the picture), validated; the home place must be
    /// one of the user's own (checked in the same statement that writes).
    public func save(_ profile: ProfileRecord, now: Double) async throws {
        let p = try profile.validated()
        let ownsHome: SQL = p.homePlaceId.map { "EXISTS (SELECT 1 FROM place WHERE id = \($0) AND userId = \(p.userId))" } ?? "1 = 1"
        // Typed values: PostgreSQL infers no type for a bare NULL in a SELECT list.
        let written = try await database.write("""
            INSERT INTO profile (userId, displayName, bio, homePlaceId, visibility, updatedAt)
            SELECT \(p.userId), CAST(\(p.displayName) AS TEXT), CAST(\(p.bio) AS TEXT), CAST(\(p.homePlaceId) AS BIGINT), \(p.visibilityJSON), \(now)
            WHERE \(ownsHome)
            ON CONFLICT (userId) DO UPDATE SET displayName = excluded.displayName, bio = excluded.bio,
                homePlaceId = excluded.homePlaceId, visibility = excluded.visibility, updatedAt = excluded.updatedAt
            RETURNING 1
            """)
        if written.isEmpty, let home = p.homePlaceId { throw ProfileError.unknownPlace(home) }
    }

    /// Sets (or with nil removes) the picture, already validated and re-encoded.
    public func setPicture(userId: Int64, data: [UInt8]?, type: String?, now: Double) async throws {
        let updated: Double? = data == nil ? nil : now
        try await database.write("""
            INSERT INTO profile (userId, visibility, picture, pictureType, pictureUpdatedAt, updatedAt)
            VALUES (\(userId), '{}', \(data.map { Data($0) }), \(type), \(updated), \(now))
            ON CONFLICT (userId) DO UPDATE SET picture = excluded.picture, pictureType = excluded.pictureType,
                pictureUpdatedAt = excluded.pictureUpdatedAt, updatedAt = excluded.updatedAt
            """)
    }

    public func picture(userId: Int64) async throws -> (data: [UInt8], type: String)? {
        guard let row = try await database.query("SELECT picture, pictureType FROM profile WHERE userId = \(userId) AND picture IS NOT NULL").first
        else { return nil }
        return ([UInt8](try row.decode(0, as: Data.self)), try row.decode(1, as: String.self))
    }

    /// The numbers of the journals of `userIds` together (each aircraft once) for events in
    /// `start..<end`, and different aircraft per type, most first.
    public func sightingSummary(userIds: [Int64], start: Double, end: Double) async throws -> (summary: UserSightingSummary, perType: [(type: String, aircraft: Int)]) {
        guard !userIds.isEmpty else { return (UserSightingSummary(), []) }
        let admitted: SQL = "userId IN (\(SQL.list(userIds))) AND kind NOT IN ('reminder', 'goal') AND time >= \(start) AND time < \(end)"
        let row = try await database.query("""
            SELECT COUNT(DISTINCT address), COUNT(DISTINCT typeCode), MIN(time), MAX(time), MAX(distance) FROM journalEvent WHERE \(admitted)
            """)[0]
        let summary = UserSightingSummary(aircraft: try row.decode(0), types: try row.decode(1), firstSighting: try row.decode(2),
                                          lastSighting: try row.decode(3), longestDistance: try row.decode(4))
        let types = try await database.query("""
            SELECT typeCode, COUNT(DISTINCT address) AS n FROM journalEvent WHERE \(admitted) AND typeCode IS NOT NULL
            GROUP BY typeCode ORDER BY n DESC, typeCode
            """).map { (type: try $0.decode(0, as: String.self), aircraft: try $0.decode(1, as: Int.self)) }
        return (summary, types)
    }

    /// The user's numbers from their whole journal.
    public func sightingSummary(userId: Int64) async throws -> UserSightingSummary {
        try await sightingSummary(userIds: [userId], start: -1e15, end: 1e15).summary
    }
}
