import Foundation
import GRDB
import ModeS

/// How a user wants the time of a predicted event shown.
public enum TimeFormat: String, Codable, Sendable, CaseIterable {
    /// "in 7 min"
    case minutes
    /// "at 14:32"
    case clock
    /// "in 7 min (14:32)"
    case both
}

/// One row of `place`: a position a user saved, to be told when tracked aircraft pass it or
/// land there.
public struct PlaceRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "place"

    public var id: Int64?
    public var userId: Int64
    /// Unique per user, case-insensitively; 1–64 characters.
    public var name: String
    /// Degrees, WGS-84.
    public var latitude: Double
    public var longitude: Double
    /// Height of the place, ft above mean sea level (an airport's elevation).
    public var altitude: Int?
    /// "Passes within" distance, NM.
    public var radius: Double
    /// The airport's ident (ICAO code or OurAirports ident) when the place is an airport:
    /// arrivals are predicted for it.
    public var airport: String?
    public var createdAt: Double

    public init(id: Int64? = nil, userId: Int64, name: String, latitude: Double, longitude: Double, altitude: Int? = nil,
                radius: Double = PlaceRecord.defaultRadius, airport: String? = nil, createdAt: Double) {
        self.id = id
        self.userId = userId
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.radius = radius
        self.airport = airport
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// 5 km.
    public static let defaultRadius = 5 / 1.852
    /// 200 NM: beyond that "passes within" means nothing a receiver can see.
    public static let maximumRadius = 200.0

    /// The place's values checked: a name, a position on the Earth, a sensible radius and
    /// altitude. Throws the first problem.
    public func validated() throws(PlaceError) -> PlaceRecord {
        var p = self
        p.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(p.name.count), !p.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidName(name)
        }
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw .invalidPosition(latitude: latitude, longitude: longitude)
        }
        guard radius.isFinite, radius > 0, radius <= Self.maximumRadius else { throw .invalidRadius(radius) }
        if let altitude, !(-1500...60_000).contains(altitude) { throw .invalidAltitude(altitude) }
        return p
    }
}

/// One row of `reminder`: "tell me N minutes before a tracked aircraft is closest to (or
/// lands at) this place".
public struct ReminderRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "reminder"

    public enum Event: String, Codable, Sendable, CaseIterable {
        /// Closest approach, when it passes within the place's radius.
        case closest
        /// Landing (airport places).
        case arrival
    }

    public var id: Int64?
    public var userId: Int64
    /// The place; nil: the receiver's own position.
    public var placeId: Int64?
    /// The tracked item (watch rule); nil: every aircraft the user tracks.
    public var watchRuleId: Int64?
    public var event: Event
    /// Minutes before the event, 1…240.
    public var leadMinutes: Int
    public var createdAt: Double

    public init(id: Int64? = nil, userId: Int64, placeId: Int64?, watchRuleId: Int64? = nil, event: Event,
                leadMinutes: Int, createdAt: Double) {
        self.id = id
        self.userId = userId
        self.placeId = placeId
        self.watchRuleId = watchRuleId
        self.event = event
        self.leadMinutes = leadMinutes
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// What is wrong with a place or reminder.
public enum PlaceError: Error, Equatable, CustomStringConvertible {
    case invalidName(String)
    case invalidPosition(latitude: Double, longitude: Double)
    case invalidRadius(Double)
    case invalidAltitude(Int)
    case duplicateName(String)
    case unknownPlace(Int64)
    case unknownAirport(String)
    case unknownRule(Int64)
    case unknownReminder(Int64)
    case invalidLead(Int)
    case arrivalNeedsAirport(String)
    case duplicateReminder

    public var description: String {
        switch self {
        case .invalidName(let n): "invalid place name '\(n)' (1-64 characters)"
        case .invalidPosition(let lat, let lon): "position \(lat), \(lon) is not on the Earth (latitude -90…90, longitude -180…180)"
        case .invalidRadius(let r): "radius \(String(format: "%.1f", r * 1.852)) km is out of range (more than 0, at most \(Int(PlaceRecord.maximumRadius * 1.852)) km)"
        case .invalidAltitude(let a): "altitude \(a) ft is out of range (-1500…60000)"
        case .duplicateName(let n): "you already have a place named '\(n)'"
        case .unknownPlace(let id): "no place \(id)"
        case .unknownAirport(let code): "no airport '\(code)' (ICAO or IATA code, or a name; import more with 'flytracker db import-airports')"
        case .unknownRule(let id): "no tracked item \(id)"
        case .unknownReminder(let id): "no reminder \(id)"
        case .invalidLead(let m): "reminder lead \(m) min is out of range (1…240)"
        case .arrivalNeedsAirport(let n): "'\(n)' is not an airport: only airport places have arrivals"
        case .duplicateReminder: "that reminder exists already"
        }
    }
}

/// Saved places and reminders, per user: both engines provide them with the same results.
/// Saved places and reminders, written once for both engines on the storage seam
/// (`store.places`). Every operation names its user: another user's place or reminder is
/// unknown (`PlaceError.unknownPlace`), never touched. Names are unique per user whatever
/// their case, and a reminder once per place, rule, event and lead (both engines' unique
/// indexes say so).
public struct PlaceRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    /// The user's places, by name.
    public func places(userId: Int64) async throws -> [PlaceRecord] {
        try await database.all("SELECT * FROM place WHERE userId = \(userId) ORDER BY lower(name), id")
    }

    func place(userId: Int64, id: Int64) async throws -> PlaceRecord {
        guard let place = try await database.first("SELECT * FROM place WHERE id = \(id) AND userId = \(userId)", as: PlaceRecord.self) else {
            throw PlaceError.unknownPlace(id)
        }
        return place
    }

    /// Saves a new place (validated; names unique per user regardless of case).
    public func addPlace(_ place: PlaceRecord) async throws -> PlaceRecord {
        var p = try place.validated()
        do {
            p.id = try await database.write("""
                INSERT INTO place (userId, name, latitude, longitude, altitude, radius, airport, createdAt)
                VALUES (\(p.userId), \(p.name), \(p.latitude), \(p.longitude), \(p.altitude), \(p.radius), \(p.airport), \(p.createdAt))
                RETURNING id
                """)[0].decode(0)
            return p
        } catch where database.isUniqueViolation(error) {
            throw PlaceError.duplicateName(p.name)
        }
    }

    public func renamePlace(userId: Int64, id: Int64, name: String) async throws -> PlaceRecord {
        var p = try await place(userId: userId, id: id)
        p.name = name
        p = try p.validated()
        do {
            guard try await !database.write("UPDATE place SET name = \(p.name) WHERE id = \(id) AND userId = \(userId) RETURNING id").isEmpty else {
                throw PlaceError.unknownPlace(id)
            }
            return p
        } catch where database.isUniqueViolation(error) {
            throw PlaceError.duplicateName(p.name)
        }
    }

    /// Removes a place and its reminders.
    public func removePlace(userId: Int64, id: Int64) async throws {
        guard try await database.write("DELETE FROM place WHERE id = \(id) AND userId = \(userId) RETURNING id").count == 1 else {
            throw PlaceError.unknownPlace(id)
        }
    }

    public func reminders(userId: Int64) async throws -> [ReminderRecord] {
        try await database.all("SELECT * FROM reminder WHERE userId = \(userId) ORDER BY id")
    }

    /// Every user's reminders (the reminder service).
    public func allReminders() async throws -> [ReminderRecord] {
        try await database.all("SELECT * FROM reminder ORDER BY id")
    }

    /// Saves a reminder whose place and tracked item belong to its user.
    public func addReminder(_ reminder: ReminderRecord) async throws -> ReminderRecord {
        var r = reminder
        var place: PlaceRecord?
        if let id = r.placeId { place = try await self.place(userId: r.userId, id: id) }
        if let rule = r.watchRuleId, try await database.query("SELECT id FROM watchRule WHERE id = \(rule) AND userId = \(r.userId)").isEmpty {
            throw PlaceError.unknownRule(rule)
        }
        try r.validate(place: place)
        do {
            r.id = try await database.write("""
                INSERT INTO reminder (userId, placeId, watchRuleId, event, leadMinutes, createdAt)
                VALUES (\(r.userId), \(r.placeId), \(r.watchRuleId), \(r.event.rawValue), \(r.leadMinutes), \(r.createdAt))
                RETURNING id
                """)[0].decode(0)
            return r
        } catch where database.isUniqueViolation(error) {
            throw PlaceError.duplicateReminder
        }
    }

    public func removeReminder(userId: Int64, id: Int64) async throws {
        guard try await database.write("DELETE FROM reminder WHERE id = \(id) AND userId = \(userId) RETURNING id").count == 1 else {
            throw PlaceError.unknownReminder(id)
        }
    }
}

extension ReminderRecord {
    /// The reminder's own values checked against its place (nil: the receiver's position).
    public func validate(place: PlaceRecord?) throws(PlaceError) {
        guard (1...240).contains(leadMinutes) else { throw .invalidLead(leadMinutes) }
        if event == .arrival, place?.airport == nil { throw .arrivalNeedsAirport(place?.name ?? "receiver") }
    }
}

extension SightingStore {
    /// Saves several reminders of one user (one per lead) only if every one of them can be
    /// saved: its place and tracked item the user's, its lead and event valid, none there
    /// already. A refused request stores none.
    public func addReminders(_ reminders: [ReminderRecord]) async throws -> [ReminderRecord] {
        guard let userId = reminders.first?.userId else { return [] }
        let places = try await self.places.places(userId: userId)
        let existing = try await self.places.reminders(userId: userId)
        var seen = Set<String>()
        for r in reminders {
            let place = try r.placeId.map { id in
                guard let p = places.first(where: { $0.id == id }) else { throw PlaceError.unknownPlace(id) }
                return p
            }
            try r.validate(place: place)
            let key = "\(r.userId) \(r.placeId ?? 0) \(r.watchRuleId ?? 0) \(r.event) \(r.leadMinutes)"
            let there = existing.contains {
                $0.placeId == r.placeId && $0.watchRuleId == r.watchRuleId && $0.event == r.event && $0.leadMinutes == r.leadMinutes
            }
            guard r.userId == userId, !there, seen.insert(key).inserted else { throw PlaceError.duplicateReminder }
        }
        let asked = reminders.compactMap(\.watchRuleId)
        if !asked.isEmpty {
            let owned = Set(try await watchlists.rules(userId: userId).compactMap(\.id))
            if let rule = asked.first(where: { !owned.contains($0) }) { throw PlaceError.unknownRule(rule) }
        }
        var added: [ReminderRecord] = []
        for r in reminders { added.append(try await self.places.addReminder(r)) }
        return added
    }
}

/// Where a new place is: coordinates, an airport code (ICAO or IATA), or a search over
/// airport names (the best match).
public enum PlaceSource: Sendable, Equatable {
    case coordinates(latitude: Double, longitude: Double)
    case airport(String)
    case search(String)
}

extension PlaceRecord {
    /// A new place of `userId` from `source`: airports from `airports` (imported, then the
    /// built-in list), named after the airport unless `name` is given; nothing is stored.
    public static func make(userId: Int64, name: String?, source: PlaceSource, radius: Double?, altitude: Int?, now: Double,
                            airports: AirportRepository?) async throws -> PlaceRecord {
        var place: PlaceRecord
        switch source {
        case .coordinates(let lat, let lon):
            guard let name else { throw PlaceError.invalidName("") }
            place = PlaceRecord(userId: userId, name: name, latitude: lat, longitude: lon, altitude: altitude, createdAt: now)
        case .airport(let code), .search(let code):
            let found: AirportRecord?
            if case .airport = source {
                found = try await airports?.airport(code: code) ?? Airports.builtIn(code: code)
            } else {
                found = try await (airports?.search(code, limit: 1) ?? Array(Airports.searchBuiltIn(code).prefix(1))).first
            }
            guard let airport = found else { throw PlaceError.unknownAirport(code) }
            place = PlaceRecord(userId: userId, name: name ?? airport.name, latitude: airport.latitude, longitude: airport.longitude,
                                altitude: altitude, airport: airport.ident, createdAt: now)
        }
        if let radius { place.radius = radius }
        return try place.validated()
    }

    /// A distance with its unit, as NM: `5km`, `3nm`, `2mi`, `800m`, or a bare number of km.
    public static func parseRadius(_ text: String) throws(PlaceError) -> Double {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("km", 1 / 1.852), ("nm", 1), ("mi", 1.609344 / 1.852), ("m", 0.001 / 1.852)]
        for (suffix, factor) in units where t.hasSuffix(suffix) {
            if let v = Double(t.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), v.isFinite { return v * factor }
            throw .invalidRadius(.nan)
        }
        guard let km = Double(t), km.isFinite else { throw .invalidRadius(.nan) }
        return km / 1.852
    }
}
