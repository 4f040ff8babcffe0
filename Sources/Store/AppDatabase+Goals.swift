import Foundation
import GRDB

/// Goals on SQLite (`GoalStore`).
extension AppDatabase: GoalStore {
    static func goal(_ row: Row) -> Goal? {
        guard let kind = Goal.Kind(rawValue: row["kind"]) else { return nil }
        return Goal(id: row["id"], userId: row["userId"], groupId: row["groupId"], name: row["name"], kind: kind, type: row["type"], distance: row["distance"],
                    target: row["target"], start: row["startsAt"], end: row["endsAt"], progress: row["progress"],
                    counted: Goal.counted(json: row["counted"]), completedAt: row["completedAt"], completedAddress: row["completedAddress"],
                    completedVisitId: row["completedVisitId"], createdAt: row["createdAt"])
    }

    public func addGoal(_ goal: Goal) throws -> Goal {
        var g = try goal.validated()
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO goal (userId, groupId, name, kind, type, distance, target, startsAt, endsAt, progress, counted, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [g.userId, g.groupId, g.name, g.kind.rawValue, g.type, g.distance, g.target, g.start, g.end, g.progress, g.countedJSON, g.createdAt])
            g.id = db.lastInsertedRowID
        }
        return g
    }

    public func goals(userId: Int64) throws -> [Goal] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM goal WHERE userId = ?
                   OR groupId IN (SELECT groupId FROM groupMember WHERE userId = ? AND role IN ('owner', 'member'))
                ORDER BY id
                """, arguments: [userId, userId]).compactMap(Self.goal)
        }
    }

    public func activeGoals(now: Double) throws -> [Goal] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM goal WHERE completedAt IS NULL AND endsAt > ? ORDER BY id", arguments: [now]).compactMap(Self.goal)
        }
    }

    public func saveProgress(_ goals: [Goal]) throws {
        try writer.write { db in
            for g in goals {
                guard let id = g.id else { continue }
                try db.execute(sql: """
                    UPDATE goal SET progress = ?, counted = ?, completedAt = ?, completedAddress = ?, completedVisitId = ? WHERE id = ?
                    """, arguments: [g.progress, g.countedJSON, g.completedAt, g.completedAddress, g.completedVisitId, id])
            }
        }
    }

    public func removeGoal(id: Int64, userId: Int64) throws {
        try writer.write { db in
            try db.execute(sql: """
                DELETE FROM goal WHERE id = ? AND (userId = ?
                    OR groupId IN (SELECT groupId FROM groupMember WHERE userId = ? AND role = 'owner'))
                """, arguments: [id, userId, userId])
            guard db.changesCount == 1 else { throw GoalError.unknownGoal(id) }
        }
    }
}
