import PostgresNIO
import Store

/// Groups on PostgreSQL (`GroupStore`), as on SQLite.
extension PostgresStore: GroupStore {
    static let groupColumns = "g.id, g.name, g.description, g.open, g.createdAt"

    static func group(_ row: PostgresRow) throws -> GroupRecord {
        let (id, name, description, open, created) = try row.decode((Int64, String, String?, Bool, Double).self)
        return GroupRecord(id: id, name: name, description: description, open: open, createdAt: created)
    }

    public func createGroup(ownerId: Int64, name: String, description: String?, open: Bool, now: Double) throws -> GroupRecord {
        let name = try GroupRecord.validate(name: name)
        return try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                for try await _ in try await c.query("SELECT 1 FROM spottingGroup WHERE lower(name) = lower(\(name))", logger: logger) {
                    throw GroupError.duplicateName(name)
                }
                var id: Int64 = 0
                for try await v in try await c.query("""
                    INSERT INTO spottingGroup (name, description, open, createdAt) VALUES (\(name), \(description), \(open), \(now)) RETURNING id
                    """, logger: logger).decode(Int64.self) { id = v }
                try await c.query("INSERT INTO groupMember (groupId, userId, role, since) VALUES (\(id), \(ownerId), 'owner', \(now))", logger: logger)
                return GroupRecord(id: id, name: name, description: description, open: open, createdAt: now)
            }
        }
    }

    public func group(named name: String) throws -> GroupRecord? {
        try blocking { [client, logger] in
            for try await row in try await client.query("SELECT \(unescaped: Self.groupColumns) FROM spottingGroup g WHERE lower(g.name) = lower(\(name))", logger: logger) {
                return try Self.group(row)
            }
            return nil
        }
    }

    public func deleteGroup(id: Int64) throws {
        try blocking { [client, logger] in
            try await client.query("DELETE FROM spottingGroup WHERE id = \(id)", logger: logger)
            return ()
        }
    }

    public func members(groupId: Int64) throws -> [(userId: Int64, username: String, role: GroupRole)] {
        try blocking { [client, logger] in
            var out: [(userId: Int64, username: String, role: GroupRole)] = []
            let rows = try await client.query("""
                SELECT m.userId, u.username, m.role FROM groupMember m JOIN "user" u ON u.id = m.userId
                WHERE m.groupId = \(groupId) ORDER BY lower(u.username)
                """, logger: logger)
            for try await (id, name, role) in rows.decode((Int64, String, String).self) {
                if let r = GroupRole(rawValue: role) { out.append((id, name, r)) }
            }
            return out
        }
    }

    public func setRole(groupId: Int64, userId: Int64, role: GroupRole?, now: Double) throws {
        try blocking { [client, logger] in
            if let role {
                try await client.query("""
                    INSERT INTO groupMember (groupId, userId, role, since) VALUES (\(groupId), \(userId), \(role.rawValue), \(now))
                    ON CONFLICT (groupId, userId) DO UPDATE SET role = excluded.role, since = excluded.since
                    """, logger: logger)
            } else {
                try await client.query("DELETE FROM groupMember WHERE groupId = \(groupId) AND userId = \(userId)", logger: logger)
            }
            return ()
        }
    }

    public func groups(userId: Int64) throws -> [(group: GroupRecord, role: GroupRole)] {
        try blocking { [client, logger] in
            var out: [(group: GroupRecord, role: GroupRole)] = []
            let rows = try await client.query("""
                SELECT \(unescaped: Self.groupColumns), m.role FROM groupMember m JOIN spottingGroup g ON g.id = m.groupId
                WHERE m.userId = \(userId) ORDER BY lower(g.name)
                """, logger: logger)
            for try await row in rows {
                let (id, name, description, open, created, role) = try row.decode((Int64, String, String?, Bool, Double, String).self)
                if let r = GroupRole(rawValue: role) { out.append((GroupRecord(id: id, name: name, description: description, open: open, createdAt: created), r)) }
            }
            return out
        }
    }

    static func groupRule(_ row: PostgresRow) throws -> WatchRule? {
        let (id, kind, value, label, created) = try row.decode((Int64, String, String, String?, Double).self)
        return WatchKind(rawValue: kind).map { WatchRule(id: id, userId: 0, kind: $0, value: value, label: label, createdAt: created) }
    }

    public func groupRules(groupId: Int64) throws -> [WatchRule] {
        try blocking { [client, logger] in
            var out: [WatchRule] = []
            for try await row in try await client.query("SELECT id, kind, value, label, createdAt FROM groupRule WHERE groupId = \(groupId) ORDER BY id", logger: logger) {
                if let r = try Self.groupRule(row) { out.append(r) }
            }
            return out
        }
    }

    public func addGroupRule(groupId: Int64, kind: WatchKind, value: String, label: String?, now: Double) throws -> WatchRule {
        let normalized = try WatchRule.normalize(kind: kind, value: value)
        return try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                for try await _ in try await c.query("SELECT 1 FROM groupRule WHERE groupId = \(groupId) AND kind = \(kind.rawValue) AND value = \(normalized)", logger: logger) {
                    throw WatchRuleError.duplicate(kind: kind, value: normalized)
                }
                var id: Int64 = 0
                for try await v in try await c.query("""
                    INSERT INTO groupRule (groupId, kind, value, label, createdAt) VALUES (\(groupId), \(kind.rawValue), \(normalized), \(label), \(now)) RETURNING id
                    """, logger: logger).decode(Int64.self) { id = v }
                return WatchRule(id: id, userId: 0, kind: kind, value: normalized, label: label, createdAt: now)
            }
        }
    }

    public func removeGroupRule(groupId: Int64, id: Int64) throws {
        guard try rowsTouched("DELETE FROM groupRule WHERE groupId = \(groupId) AND id = \(id) RETURNING 1") == 1 else { throw GroupError.unknownRule(id) }
    }

    public func allGroupRules() throws -> [(group: GroupRecord, rule: WatchRule, members: [Int64])] {
        try blocking { [client, logger] in
            var groups: [Int64: GroupRecord] = [:]
            for try await row in try await client.query("SELECT \(unescaped: Self.groupColumns) FROM spottingGroup g WHERE g.id IN (SELECT groupId FROM groupRule)", logger: logger) {
                let g = try Self.group(row)
                groups[g.id] = g
            }
            var members: [Int64: [Int64]] = [:]
            for try await (g, u) in try await client.query("SELECT groupId, userId FROM groupMember WHERE role IN ('owner', 'member') ORDER BY userId", logger: logger).decode((Int64, Int64).self) {
                members[g, default: []].append(u)
            }
            var out: [(group: GroupRecord, rule: WatchRule, members: [Int64])] = []
            for try await row in try await client.query("SELECT groupId, id, kind, value, label, createdAt FROM groupRule ORDER BY id", logger: logger) {
                let c = try row.makeRandomAccess()
                let groupId = try c[0].decode(Int64.self)
                guard let g = groups[groupId], let kind = WatchKind(rawValue: try c[2].decode(String.self)) else { continue }
                let rule = WatchRule(id: try c[1].decode(Int64.self), userId: 0, kind: kind, value: try c[3].decode(String.self),
                                     label: try c[4].decode(String?.self), createdAt: try c[5].decode(Double.self))
                out.append((g, rule, members[g.id] ?? []))
            }
            return out
        }
    }

    public func groupSightings(_ group: GroupRecord, limit: Int) throws -> [JournalEventRecord] {
        let prefix = group.labelPrefix
        return try blocking { [client, logger] in
            var out: [JournalEventRecord] = []
            let rows = try await client.query("""
                SELECT id, userId, watchRuleId, visitId, address, time, kind, callsign, registration, typeCode,
                       latitude, longitude, altitude, distance, ruleLabel, note
                FROM journalEvent WHERE id IN (
                    SELECT MIN(id) FROM journalEvent WHERE starts_with(ruleLabel, \(prefix)) AND kind IN ('firstSeen', 'closestApproach')
                    GROUP BY address, kind, time)
                ORDER BY time DESC, id DESC LIMIT \(limit)
                """, logger: logger)
            for try await row in rows { if let e = try Self.journalEvent(row) { out.append(e) } }
            return out
        }
    }
}
