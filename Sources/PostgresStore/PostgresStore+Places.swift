import PostgresNIO
import Store

/// Saved places and reminders on PostgreSQL: the SQLite store's rules and errors
/// (`PlaceError`); another user's place or reminder is unknown.
extension PostgresStore {
    static let placeColumns = "id, userId, name, latitude, longitude, altitude, radius, airport, createdAt"
    static let reminderColumns = "id, userId, placeId, watchRuleId, event, leadMinutes, createdAt"

    static func place(_ row: PostgresRow) throws -> PlaceRecord {
        let (id, userId, name, lat, lon, alt, radius, airport, created) =
            try row.decode((Int64, Int64, String, Double, Double, Int?, Double, String?, Double).self)
        return PlaceRecord(id: id, userId: userId, name: name, latitude: lat, longitude: lon, altitude: alt, radius: radius,
                           airport: airport, createdAt: created)
    }

    static func reminder(_ row: PostgresRow) throws -> ReminderRecord? {
        let (id, userId, placeId, ruleId, event, lead, created) = try row.decode((Int64, Int64, Int64?, Int64?, String, Int, Double).self)
        guard let kind = ReminderRecord.Event(rawValue: event) else { return nil }
        return ReminderRecord(id: id, userId: userId, placeId: placeId, watchRuleId: ruleId, event: kind, leadMinutes: lead, createdAt: created)
    }

    public func places(userId: Int64) throws -> [PlaceRecord] {
        try blocking { [client, logger] in
            var out: [PlaceRecord] = []
            let rows = try await client.query("SELECT \(unescaped: Self.placeColumns) FROM place WHERE userId = \(userId) ORDER BY lower(name)", logger: logger)
            for try await row in rows { out.append(try Self.place(row)) }
            return out
        }
    }

    /// Whether the user has another place of this name (any case).
    static func nameTaken(_ c: PostgresConnection, userId: Int64, name: String, except: Int64?, logger: Logger) async throws -> Bool {
        let rows = try await c.query("""
            SELECT 1 FROM place WHERE userId = \(userId) AND lower(name) = lower(\(name)) AND id IS DISTINCT FROM \(except)
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func addPlace(_ place: PlaceRecord) throws -> PlaceRecord {
        let p = try place.validated()
        return try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                if try await Self.nameTaken(c, userId: p.userId, name: p.name, except: nil, logger: logger) { throw PlaceError.duplicateName(p.name) }
                let rows = try await c.query("""
                    INSERT INTO place (userId, name, latitude, longitude, altitude, radius, airport, createdAt)
                    VALUES (\(p.userId), \(p.name), \(p.latitude), \(p.longitude), \(p.altitude), \(p.radius), \(p.airport), \(p.createdAt))
                    RETURNING \(unescaped: Self.placeColumns)
                    """, logger: logger)
                for try await row in rows { return try Self.place(row) }
                throw StoreError(description: "PostgreSQL returned no place")
            }
        }
    }

    public func renamePlace(userId: Int64, id: Int64, name: String) throws -> PlaceRecord {
        try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                var found: PlaceRecord?
                for try await row in try await c.query("SELECT \(unescaped: Self.placeColumns) FROM place WHERE id = \(id) AND userId = \(userId)", logger: logger) {
                    found = try Self.place(row)
                }
                guard var p = found else { throw PlaceError.unknownPlace(id) }
                p.name = name
                p = try p.validated()
                if try await Self.nameTaken(c, userId: userId, name: p.name, except: id, logger: logger) { throw PlaceError.duplicateName(p.name) }
                try await c.query("UPDATE place SET name = \(p.name) WHERE id = \(id)", logger: logger)
                return p
            }
        }
    }

    public func removePlace(userId: Int64, id: Int64) throws {
        guard try rowsTouched("DELETE FROM place WHERE id = \(id) AND userId = \(userId) RETURNING 1") == 1 else { throw PlaceError.unknownPlace(id) }
    }

    public func reminders(userId: Int64) throws -> [ReminderRecord] {
        try fetchReminders("WHERE userId = $1 ORDER BY id", userId)
    }

    public func allReminders() throws -> [ReminderRecord] {
        try fetchReminders("ORDER BY id", nil)
    }

    private func fetchReminders(_ tail: String, _ userId: Int64?) throws -> [ReminderRecord] {
        var binds = PostgresBindings()
        if let userId { binds.append(userId) }
        let query = PostgresQuery(unsafeSQL: "SELECT \(Self.reminderColumns) FROM reminder \(tail)", binds: binds)
        return try blocking { [client, logger] in
            var out: [ReminderRecord] = []
            for try await row in try await client.query(query, logger: logger) {
                if let r = try Self.reminder(row) { out.append(r) }
            }
            return out
        }
    }

    public func addReminder(_ reminder: ReminderRecord) throws -> ReminderRecord {
        let r = reminder
        return try blocking { [client, logger] in
            try await client.withTransaction(logger: logger) { c in
                var place: PlaceRecord?
                if let id = r.placeId {
                    for try await row in try await c.query("SELECT \(unescaped: Self.placeColumns) FROM place WHERE id = \(id) AND userId = \(r.userId)", logger: logger) {
                        place = try Self.place(row)
                    }
                    guard place != nil else { throw PlaceError.unknownPlace(id) }
                }
                if let rule = r.watchRuleId {
                    var owned = false
                    for try await _ in try await c.query("SELECT 1 FROM watchRule WHERE id = \(rule) AND userId = \(r.userId)", logger: logger) { owned = true }
                    guard owned else { throw PlaceError.unknownRule(rule) }
                }
                try r.validate(place: place)
                let placeKey = r.placeId ?? 0, ruleKey = r.watchRuleId ?? 0
                for try await _ in try await c.query("""
                    SELECT 1 FROM reminder WHERE userId = \(r.userId) AND COALESCE(placeId, 0) = \(placeKey)
                    AND COALESCE(watchRuleId, 0) = \(ruleKey) AND event = \(r.event.rawValue) AND leadMinutes = \(r.leadMinutes)
                    """, logger: logger) {
                    throw PlaceError.duplicateReminder
                }
                let rows = try await c.query("""
                    INSERT INTO reminder (userId, placeId, watchRuleId, event, leadMinutes, createdAt)
                    VALUES (\(r.userId), \(r.placeId), \(r.watchRuleId), \(r.event.rawValue), \(r.leadMinutes), \(r.createdAt))
                    RETURNING \(unescaped: Self.reminderColumns)
                    """, logger: logger)
                for try await row in rows { if let saved = try Self.reminder(row) { return saved } }
                throw StoreError(description: "PostgreSQL returned no reminder")
            }
        }
    }

    public func removeReminder(userId: Int64, id: Int64) throws {
        guard try rowsTouched("DELETE FROM reminder WHERE id = \(id) AND userId = \(userId) RETURNING 1") == 1 else { throw PlaceError.unknownReminder(id) }
    }

    public func searchAirports(_ text: String, limit: Int) throws -> [AirportRecord] {
        let pattern = "%" + Airports.escapeLike(text) + "%"
        let code = text.uppercased()
        let imported = try blocking { [client, logger] in
            var out: [AirportRecord] = []
            let rows = try await client.query("""
                SELECT ident, iata, name, latitude, longitude, kind FROM airport
                WHERE name ILIKE \(pattern) ESCAPE '\\' OR ident = \(code) OR iata = \(code)
                ORDER BY (ident = \(code) OR iata IS NOT DISTINCT FROM \(code)) DESC, kind = 'large_airport' DESC, name LIMIT \(limit)
                """, logger: logger)
            for try await (ident, iata, name, lat, lon, kind) in rows.decode((String, String?, String, Double, Double, String?).self) {
                out.append(AirportRecord(ident: ident, iata: iata, name: name, latitude: lat, longitude: lon, kind: kind))
            }
            return out
        }
        return Airports.merged(imported, Airports.searchBuiltIn(text), limit: limit)
    }
}
