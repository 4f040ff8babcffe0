import Foundation
import GRDB

/// Groups on SQLite (`GroupStore`).
extension AppDatabase: GroupStore {
    static func group(_ row: Row) -> GroupRecord {
        GroupRecord(id: row["id"], name: row["name"], description: row["description"], open: row["open"], createdAt: row["createdAt"])
    }

    public func createGroup(ownerId: Int64, name: String, description: String?, open: Bool, now: Double) throws -> GroupRecord {
        let name = try GroupRecord.validate(name: name)
        return try writer.write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spottingGroup WHERE name = ? COLLATE NOCASE", arguments: [name]) == 0 else {
                throw GroupError.duplicateName(name)
            }
            try db.execute(sql: "INSERT INTO spottingGroup (name, description, open, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [name, description, open, now])
            let id = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO groupMember (groupId, userId, role, since) VALUES (?, ?, 'owner', ?)", arguments: [id, ownerId, now])
            return GroupRecord(id: id, name: name, description: description, open: open, createdAt: now)
        }
    }

    public func group(named name: String) throws -> GroupRecord? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM spottingGroup WHERE name = ? COLLATE NOCASE", arguments: [name]).map(Self.group)
        }
    }

    public func deleteGroup(id: Int64) throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM spottingGroup WHERE id = ?", arguments: [id]) }
    }

    public func members(groupId: Int64) throws -> [(userId: Int64, username: String, role: GroupRole)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.userId, u.username, m.role FROM groupMember m JOIN user u ON u.id = m.userId
                WHERE m.groupId = ? ORDER BY u.username COLLATE NOCASE
                """, arguments: [groupId]).compactMap { row in
                GroupRole(rawValue: row["role"]).map { (row["userId"], row["username"], $0) }
            }
        }
    }

    public func setRole(groupId: Int64, userId: Int64, role: GroupRole?, now: Double) throws {
        try writer.write { db in
            if let role {
                try db.execute(sql: """
                    INSERT INTO groupMember (groupId, userId, role, since) VALUES (?, ?, ?, ?)
                    ON CONFLICT (groupId, userId) DO UPDATE SET role = excluded.role, since = excluded.since
                    """, arguments: [groupId, userId, role.rawValue, now])
            } else {
                try db.execute(sql: "DELETE FROM groupMember WHERE groupId = ? AND userId = ?", arguments: [groupId, userId])
            }
        }
    }

    public func groups(userId: Int64) throws -> [(group: GroupRecord, role: GroupRole)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT g.*, m.role FROM groupMember m JOIN spottingGroup g ON g.id = m.groupId WHERE m.userId = ? ORDER BY g.name COLLATE NOCASE
                """, arguments: [userId]).compactMap { row in GroupRole(rawValue: row["role"]).map { (Self.group(row), $0) } }
        }
    }

    public func groupRules(groupId: Int64) throws -> [WatchRule] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM groupRule WHERE groupId = ? ORDER BY id", arguments: [groupId]).compactMap(Self.groupRule)
        }
    }

    static func groupRule(_ row: Row) -> WatchRule? {
        WatchKind(rawValue: row["kind"]).map {
            WatchRule(id: row["id"], userId: 0, kind: $0, value: row["value"], label: row["label"], createdAt: row["createdAt"])
        }
    }

    public func addGroupRule(groupId: Int64, kind: WatchKind, value: String, label: String?, now: Double) throws -> WatchRule {
        let normalized = try WatchRule.normalize(kind: kind, value: value)
        return try writer.write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM groupRule WHERE groupId = ? AND kind = ? AND value = ?",
                                   arguments: [groupId, kind.rawValue, normalized]) == 0 else {
                throw WatchRuleError.duplicate(kind: kind, value: normalized)
            }
            try db.execute(sql: "INSERT INTO groupRule (groupId, kind, value, label, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [groupId, kind.rawValue, normalized, label, now])
            return WatchRule(id: db.lastInsertedRowID, userId: 0, kind: kind, value: normalized, label: label, createdAt: now)
        }
    }

    public func removeGroupRule(groupId: Int64, id: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM groupRule WHERE groupId = ? AND id = ?", arguments: [groupId, id])
            guard db.changesCount == 1 else { throw GroupError.unknownRule(id) }
        }
    }

    public func allGroupRules() throws -> [(group: GroupRecord, rule: WatchRule, members: [Int64])] {
        try writer.read { db in
            let groups = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT * FROM spottingGroup WHERE id IN (SELECT groupId FROM groupRule)")
                .map { (($0["id"] as Int64), Self.group($0)) })
            var members: [Int64: [Int64]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT groupId, userId FROM groupMember WHERE role IN ('owner', 'member') ORDER BY userId") {
                members[row["groupId"], default: []].append(row["userId"])
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM groupRule ORDER BY id").compactMap { row in
                guard let rule = Self.groupRule(row), let g = groups[row["groupId"]] else { return nil }
                return (g, rule, members[g.id] ?? [])
            }
        }
    }

    public func groupSightings(_ group: GroupRecord, limit: Int) throws -> [JournalEventRecord] {
        try writer.read { db in
            try JournalEventRecord.fetchAll(db, sql: """
                SELECT * FROM journalEvent WHERE id IN (
                    SELECT MIN(id) FROM journalEvent WHERE substr(ruleLabel, 1, ?) = ? AND kind IN ('firstSeen', 'closestApproach')
                    GROUP BY address, kind, time)
                ORDER BY time DESC, id DESC LIMIT ?
                """, arguments: [group.labelPrefix.count, group.labelPrefix, limit])
        }
    }
}
