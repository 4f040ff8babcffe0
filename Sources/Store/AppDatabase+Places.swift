import Foundation
import GRDB

/// Saved places and reminders on SQLite. Every operation names its user: another user's
/// place or reminder is unknown (`PlaceError.unknownPlace`), never touched.
extension AppDatabase: PlaceStore {
    public func places(userId: Int64) throws -> [PlaceRecord] {
        try writer.read { db in
            try PlaceRecord.filter(Column("userId") == userId).order(Column("name").collating(.nocase)).fetchAll(db)
        }
    }

    public func addPlace(_ place: PlaceRecord) throws -> PlaceRecord {
        var p = try place.validated()
        p.id = nil
        return try writer.write { db in
            if try Self.nameTaken(db, userId: p.userId, name: p.name, except: nil) { throw PlaceError.duplicateName(p.name) }
            try p.insert(db)
            return p
        }
    }

    public func renamePlace(userId: Int64, id: Int64, name: String) throws -> PlaceRecord {
        try writer.write { db in
            guard var p = try PlaceRecord.filter(Column("id") == id && Column("userId") == userId).fetchOne(db) else {
                throw PlaceError.unknownPlace(id)
            }
            p.name = name
            p = try p.validated()
            if try Self.nameTaken(db, userId: userId, name: p.name, except: id) { throw PlaceError.duplicateName(p.name) }
            try p.update(db)
            return p
        }
    }

    public func removePlace(userId: Int64, id: Int64) throws {
        try writer.write { db in
            guard try PlaceRecord.filter(Column("id") == id && Column("userId") == userId).deleteAll(db) == 1 else {
                throw PlaceError.unknownPlace(id)
            }
        }
    }

    public func reminders(userId: Int64) throws -> [ReminderRecord] {
        try writer.read { db in try ReminderRecord.filter(Column("userId") == userId).order(Column("id")).fetchAll(db) }
    }

    public func allReminders() throws -> [ReminderRecord] {
        try writer.read { db in try ReminderRecord.order(Column("id")).fetchAll(db) }
    }

    public func addReminder(_ reminder: ReminderRecord) throws -> ReminderRecord {
        var r = reminder
        r.id = nil
        return try writer.write { db in
            let place = try r.placeId.map { id in
                guard let p = try PlaceRecord.filter(Column("id") == id && Column("userId") == r.userId).fetchOne(db) else {
                    throw PlaceError.unknownPlace(id)
                }
                return p
            }
            if let rule = r.watchRuleId,
               try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM watchRule WHERE id = ? AND userId = ?", arguments: [rule, r.userId]) != 1 {
                throw PlaceError.unknownRule(rule)
            }
            try r.validate(place: place)
            let duplicate = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM reminder WHERE userId = ? AND COALESCE(placeId, 0) = ? AND COALESCE(watchRuleId, 0) = ?
                AND event = ? AND leadMinutes = ?
                """, arguments: [r.userId, r.placeId ?? 0, r.watchRuleId ?? 0, r.event.rawValue, r.leadMinutes]) ?? 0
            if duplicate > 0 { throw PlaceError.duplicateReminder }
            try r.insert(db)
            return r
        }
    }

    public func removeReminder(userId: Int64, id: Int64) throws {
        try writer.write { db in
            guard try ReminderRecord.filter(Column("id") == id && Column("userId") == userId).deleteAll(db) == 1 else {
                throw PlaceError.unknownReminder(id)
            }
        }
    }

    public func searchAirports(_ text: String, limit: Int) throws -> [AirportRecord] {
        let pattern = "%" + Airports.escapeLike(text) + "%"
        let imported = try writer.read { db in
            try AirportRecord.fetchAll(db, sql: """
                SELECT * FROM airport WHERE name LIKE ? ESCAPE '\\' OR ident = upper(?) OR iata = upper(?)
                ORDER BY (ident = upper(?) OR iata = upper(?)) DESC, kind = 'large_airport' DESC, name LIMIT ?
                """, arguments: [pattern, text, text, text, text, limit])
        }
        return Airports.merged(imported, Airports.searchBuiltIn(text), limit: limit)
    }

    static func nameTaken(_ db: Database, userId: Int64, name: String, except: Int64?) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place WHERE userId = ? AND name = ? COLLATE NOCASE AND id IS NOT ?",
                         arguments: [userId, name, except]) ?? 0 > 0
    }
}

extension ReminderRecord {
    /// The reminder's own values checked against its place (nil: the receiver's position).
    public func validate(place: PlaceRecord?) throws(PlaceError) {
        guard (1...240).contains(leadMinutes) else { throw .invalidLead(leadMinutes) }
        if event == .arrival, place?.airport == nil { throw .arrivalNeedsAirport(place?.name ?? "receiver") }
    }
}
