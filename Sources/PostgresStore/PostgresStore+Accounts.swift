import Foundation
import HummingbirdBcrypt
import PostgresNIO
import Store

/// Accounts and watchlists on PostgreSQL: the same validation and errors as the SQLite
/// store (`UserError`, `WatchRuleError`), usernames unique regardless of case.
extension PostgresStore {
    static let userColumns = "id, username, email, passwordHash, units, darkMode, language, channels, createdAt, timeFormat"

    static func user(_ row: PostgresRow) throws -> UserRecord {
        let (id, username, email, hash, units, dark, language, channels, created, timeFormat) =
            try row.decode((Int64, String, String?, String, String, Bool, String, String, Double, String).self)
        let decoded = (try? JSONDecoder().decode([NotificationChannel].self, from: Data(channels.utf8))) ?? []
        return UserRecord(id: id, username: username, email: email, passwordHash: hash, units: Units(rawValue: units) ?? .metric,
                          darkMode: dark, language: language, channels: decoded, createdAt: created,
                          timeFormat: TimeFormat(rawValue: timeFormat) ?? .minutes)
    }

    public func addUser(username: String, password: String, email: String?, units: Units, now: Double, cost: UInt8) throws -> UserRecord {
        try AppDatabase.validate(username: username)
        if let email { try AppDatabase.validate(email: email) }
        guard password.count >= 8 else { throw UserError.weakPassword }
        let hash = Bcrypt.hash(password, cost: cost)
        do {
            return try blocking { [client, logger] in
                let rows = try await client.query("""
                    INSERT INTO "user" (username, email, passwordHash, units, createdAt)
                    VALUES (\(username), \(email), \(hash), \(units.rawValue), \(now)) RETURNING \(unescaped: Self.userColumns)
                    """, logger: logger)
                for try await row in rows { return try Self.user(row) }
                throw StoreError(description: "the new user was not returned")
            }
        } catch where Self.sqlState(error) == "23505" {
            throw UserError.duplicateUsername(username)
        }
    }

    public func user(named username: String) throws -> UserRecord? {
        try blocking { [client, logger] in
            let rows = try await client.query("SELECT \(unescaped: Self.userColumns) FROM \"user\" WHERE lower(username) = lower(\(username))", logger: logger)
            for try await row in rows { return try Self.user(row) }
            return nil
        }
    }

    public func users() throws -> [UserRecord] {
        try blocking { [client, logger] in
            var out: [UserRecord] = []
            for try await row in try await client.query("SELECT \(unescaped: Self.userColumns) FROM \"user\" ORDER BY lower(username)", logger: logger) {
                out.append(try Self.user(row))
            }
            return out
        }
    }

    public func authenticate(username: String, password: String) throws -> UserRecord {
        let user = try requireUser(named: username)
        guard Bcrypt.verify(password, hash: user.passwordHash) else { throw UserError.wrongPassword }
        return user
    }

    public func deleteUser(username: String) throws {
        let user = try requireUser(named: username)
        let id = user.id!
        try blocking { [client, logger] in
            try await client.query("DELETE FROM \"user\" WHERE id = \(id)", logger: logger)
            return ()
        }
    }

    // MARK: Watchlists

    static func rule(_ row: PostgresRow) throws -> WatchRule {
        let (id, userId, kind, value, label, created) = try row.decode((Int64, Int64, String, String, String?, Double).self)
        guard let k = WatchKind(rawValue: kind) else { throw StoreError(description: "unknown watch kind '\(kind)' in the database") }
        return WatchRule(id: id, userId: userId, kind: k, value: value, label: label, createdAt: created)
    }

    public func addRule(username: String, kind: WatchKind, value: String, label: String?, now: Double) throws -> WatchRule {
        let normalized = try WatchRule.normalize(kind: kind, value: value)
        let user = try requireUser(named: username)
        let userId = user.id!
        do {
            return try blocking { [client, logger] in
                let rows = try await client.query("""
                    INSERT INTO watchRule (userId, kind, value, label, createdAt)
                    VALUES (\(userId), \(kind.rawValue), \(normalized), \(label), \(now))
                    RETURNING id, userId, kind, value, label, createdAt
                    """, logger: logger)
                for try await row in rows { return try Self.rule(row) }
                throw StoreError(description: "the new rule was not returned")
            }
        } catch where Self.sqlState(error) == "23505" {
            throw WatchRuleError.duplicate(kind: kind, value: normalized)
        }
    }

    public func rules(username: String) throws -> [WatchRule] {
        let userId = try requireUser(named: username).id!
        return try queryRules("SELECT id, userId, kind, value, label, createdAt FROM watchRule WHERE userId = \(userId) ORDER BY id")
    }

    public func allRules() throws -> [WatchRule] {
        try queryRules("SELECT id, userId, kind, value, label, createdAt FROM watchRule ORDER BY id")
    }

    func queryRules(_ query: PostgresQuery) throws -> [WatchRule] {
        try blocking { [client, logger] in
            var out: [WatchRule] = []
            for try await row in try await client.query(query, logger: logger) { out.append(try Self.rule(row)) }
            return out
        }
    }

    public func removeRule(username: String, id: Int64) throws {
        let userId = try requireUser(named: username).id!
        let deleted = try blocking { [client, logger] in
            var n = 0
            for try await _ in try await client.query("DELETE FROM watchRule WHERE id = \(id) AND userId = \(userId) RETURNING id", logger: logger) { n += 1 }
            return n
        }
        guard deleted > 0 else { throw WatchRuleError.unknownRule(id) }
    }

    public func airlineCodes() throws -> AirlineCodes {
        let pairs = try blocking { [client, logger] in
            var out: [String: String] = [:]
            for try await (iata, icao) in try await client.query("SELECT iata, icao FROM airlineCode", logger: logger).decode((String, String).self) {
                out[iata] = icao
            }
            return out
        }
        return AirlineCodes(extra: pairs)
    }
}

/// Settings, passwords and the alert delivery log on PostgreSQL.
extension PostgresStore {
    public func user(id: Int64) throws -> UserRecord? {
        try blocking { [client, logger] in
            let rows = try await client.query("SELECT \(unescaped: Self.userColumns) FROM \"user\" WHERE id = \(id)", logger: logger)
            for try await row in rows { return try Self.user(row) }
            return nil
        }
    }

    public func updateUser(_ user: UserRecord) throws {
        try AppDatabase.validate(settings: user)
        guard let id = user.id else { throw UserError.unknownUser(user.username) }
        let channels = String(decoding: try JSONEncoder().encode(user.channels), as: UTF8.self)
        try blocking { [client, logger] in
            try await client.query("""
                UPDATE "user" SET email = \(user.email), units = \(user.units.rawValue), darkMode = \(user.darkMode),
                    language = \(user.language), channels = \(channels), timeFormat = \(user.timeFormat.rawValue) WHERE id = \(id)
                """, logger: logger)
            return ()
        }
    }

    public func setPassword(username: String, password: String, cost: UInt8) throws {
        guard password.count >= 8 else { throw UserError.weakPassword }
        let id = try requireUser(named: username).id!
        let hash = Bcrypt.hash(password, cost: cost)
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("UPDATE \"user\" SET passwordHash = \(hash) WHERE id = \(id)", logger: logger)
                // A new password ends every session: whoever knew the old one is logged out.
                try await connection.query("DELETE FROM loginSession WHERE userId = \(id)", logger: logger)
            }
        }
    }
}

/// The imported aircraft database on PostgreSQL (`db import-aircraft --db postgres://…`).
extension PostgresStore: AircraftStore {
    static let aircraftColumns = "icao, registration, registrationKey, typeCode, description, flags, year, ownerOperator"

    static func aircraft(_ row: PostgresRow) throws -> AircraftRecord {
        let (icao, registration, _, typeCode, description, flags, year, owner) =
            try row.decode((Int, String?, String?, String?, String?, Int, Int?, String?).self)
        return AircraftRecord(icao: UInt32(truncatingIfNeeded: icao), registration: registration, typeCode: typeCode,
                              description: description, flags: flags, year: year, ownerOperator: owner)
    }

    public func aircraft(address: UInt32) throws -> AircraftRecord? {
        let icao = Int(address & 0xFF_FFFF)
        return try blocking { [client, logger] in
            for try await row in try await client.query("SELECT \(unescaped: Self.aircraftColumns) FROM aircraft WHERE icao = \(icao)", logger: logger) {
                return try Self.aircraft(row)
            }
            return nil
        }
    }

    public func aircraft(registration: String) throws -> [AircraftRecord] {
        let key = AircraftRecord.normalize(registration)
        return try blocking { [client, logger] in
            var out: [AircraftRecord] = []
            for try await row in try await client.query("SELECT \(unescaped: Self.aircraftColumns) FROM aircraft WHERE registrationKey = \(key) ORDER BY icao", logger: logger) {
                out.append(try Self.aircraft(row))
            }
            return out
        }
    }

    public func aircraftCount() throws -> Int {
        try blocking { [client, logger] in
            var n = 0
            for try await count in try await client.query("SELECT COUNT(*) FROM aircraft", logger: logger).decode(Int.self) { n = count }
            return n
        }
    }

    public func save(_ records: [AircraftRecord]) throws {
        // One row per address in a statement: the last record of an address wins, as INSERT OR REPLACE does.
        var latest: [Int: AircraftRecord] = [:]
        var order: [Int] = []
        for r in records {
            if latest.updateValue(r, forKey: r.icao) == nil { order.append(r.icao) }
        }
        let rows = order.map { latest[$0]! }
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                try await Self.insertRows(rows, into: "aircraft (\(Self.aircraftColumns))", columns: 8, suffix: """
                     ON CONFLICT (icao) DO UPDATE SET registration = excluded.registration, registrationKey = excluded.registrationKey,
                     typeCode = excluded.typeCode, description = excluded.description, flags = excluded.flags, year = excluded.year,
                     ownerOperator = excluded.ownerOperator
                    """, connection: connection, logger: logger) { binds, r in
                    binds.append(r.icao); binds.append(r.registration); binds.append(r.registrationKey); binds.append(r.typeCode)
                    binds.append(r.description); binds.append(r.flags); binds.append(r.year); binds.append(r.ownerOperator)
                }
            }
        }
    }
}

/// Imported airports on PostgreSQL (`db import-airports --db postgres://…`).
extension PostgresStore: AirportStore {
    public func importedAirport(code: String) throws -> AirportRecord? {
        try blocking { [client, logger] in
            let rows = try await client.query("""
                SELECT ident, iata, name, latitude, longitude, kind FROM airport
                WHERE ident = \(code) OR iata = \(code) ORDER BY (ident = \(code)) DESC, kind LIMIT 1
                """, logger: logger)
            for try await (ident, iata, name, lat, lon, kind) in rows.decode((String, String?, String, Double, Double, String?).self) {
                return AirportRecord(ident: ident, iata: iata, name: name, latitude: lat, longitude: lon, kind: kind)
            }
            return nil
        }
    }

    public func saveAirports(_ airports: [AirportRecord]) throws {
        var latest: [String: AirportRecord] = [:]
        for a in airports { latest[a.ident] = a }
        let rows = Array(latest.values)
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                try await Self.insertRows(rows, into: "airport (ident, iata, name, latitude, longitude, kind)", columns: 6, suffix: """
                     ON CONFLICT (ident) DO UPDATE SET iata = excluded.iata, name = excluded.name, latitude = excluded.latitude,
                     longitude = excluded.longitude, kind = excluded.kind
                    """, connection: connection, logger: logger) { binds, a in
                    binds.append(a.ident); binds.append(a.iata); binds.append(a.name); binds.append(a.latitude)
                    binds.append(a.longitude); binds.append(a.kind)
                }
            }
        }
    }
}
