import Foundation
import GRDB

/// What a watchlist rule matches on.
public enum WatchKind: String, Codable, Sendable, CaseIterable {
    /// ICAO address, 6 hex digits (`4840d6`).
    case address
    /// Tail number, compared without `-`, spaces, dots and case (`D-AIUP`).
    case registration
    /// ICAO callsign exactly (`BAW283`).
    case callsign
    /// Flight number, IATA (`BA283`) or ICAO (`BAW283`) form; IATA is translated through
    /// `AirlineCodes`.
    case flight
    /// ICAO type designator, exactly (`B738`) or with a trailing `*` (`A32*`, `B73*`).
    case type
    /// Mode A code, 4 octal digits (`7700`).
    case squawk
    /// Squawk 7500, 7600 or 7700, or an emergency status (value ignored, stored as `*`).
    case emergencies
    /// Military according to the aircraft database (value ignored, stored as `*`).
    case military
    /// Operator name from the aircraft database, or the airline designator (`BAW`) or name
    /// (`British Airways`) of the callsign; case-insensitive.
    case `operator`
}

/// One row of `watchRule`: a user tracks aircraft or flights.
public struct WatchRule: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "watchRule"

    public var id: Int64?
    public var userId: Int64
    public var kind: WatchKind
    /// Normalized value (see `WatchRule.normalize`).
    public var value: String
    public var label: String?
    public var createdAt: Double

    public init(id: Int64? = nil, userId: Int64, kind: WatchKind, value: String, label: String? = nil, createdAt: Double) {
        self.id = id
        self.userId = userId
        self.kind = kind
        self.value = value
        self.label = label
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public enum Columns {
        public static let userId = Column(CodingKeys.userId)
        public static let kind = Column(CodingKeys.kind)
        public static let value = Column(CodingKeys.value)
    }

    /// The stored form of a user's value, or `WatchRuleError.invalidValue`.
    public static func normalize(kind: WatchKind, value raw: String) throws(WatchRuleError) -> String {
        let v = raw.trimmingCharacters(in: .whitespaces).uppercased()
        func bad() -> WatchRuleError { .invalidValue(kind: kind, value: raw) }
        func all(_ s: String, _ ok: (Unicode.Scalar) -> Bool) -> Bool { !s.isEmpty && s.unicodeScalars.allSatisfy(ok) }
        let alnum: (Unicode.Scalar) -> Bool = { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        switch kind {
        case .address:
            let hex = v.hasPrefix("~") ? String(v.dropFirst()) : v
            guard hex.count == 6, all(hex, { $0.properties.isASCIIHexDigit }) else { throw bad() }
            return v.lowercased()
        case .registration:
            let key = AircraftRecord.normalize(v)
            guard key.count <= 10, all(key, alnum) else { throw bad() }
            return key
        case .callsign:
            guard v.count <= 8, all(v, alnum) else { throw bad() }
            return v
        case .flight:
            guard v.count <= 8, all(v, alnum), AirlineCodes.flightNumber(v) != nil else { throw bad() }
            return v
        case .type:
            let body = v.hasSuffix("*") ? String(v.dropLast()) : v
            guard body.count <= 4, body.isEmpty ? v == "*" : all(body, alnum) else { throw bad() }
            return v
        case .squawk:
            guard v.count == 4, all(v, { ("0"..."7").contains($0) }) else { throw bad() }
            return v
        case .emergencies, .military:
            guard v.isEmpty || v == "*" else { throw bad() }
            return "*"
        case .operator:
            guard !v.isEmpty, v.count <= 80 else { throw bad() }
            return v
        }
    }
}

/// Why a rule was refused (nothing is written then).
public enum WatchRuleError: Error, Equatable, CustomStringConvertible {
    case invalidValue(kind: WatchKind, value: String)
    case duplicate(kind: WatchKind, value: String)
    case unknownRule(Int64)

    public var description: String {
        switch self {
        case .invalidValue(let kind, let value):
            let hint: String = switch kind {
            case .address: "6 hex digits, such as 4840d6"
            case .registration: "a tail number, such as D-AIUP"
            case .callsign: "up to 8 letters and digits, such as BAW283"
            case .flight: "an airline code and a number, such as BA283 or BAW283"
            case .type: "an ICAO type such as B738, or a prefix with '*' such as A32*"
            case .squawk: "4 octal digits, such as 7700"
            case .emergencies, .military: "no value"
            case .operator: "an operator name or airline code"
            }
            return "invalid \(kind.rawValue) '\(value)': expected \(hint)"
        case .duplicate(let kind, let value): return "already tracking \(kind.rawValue) \(value)"
        case .unknownRule(let id): return "no watchlist rule \(id) for this user"
        }
    }
}

extension AppDatabase {
    /// Adds a rule for `username` after validating the value.
    @discardableResult
    public func addRule(username: String, kind: WatchKind, value: String, label: String? = nil, now: Double) throws -> WatchRule {
        let normalized = try WatchRule.normalize(kind: kind, value: value)
        let user = try requireUser(username)
        return try writer.write { db in
            let existing = try WatchRule.filter(WatchRule.Columns.userId == user.id! && WatchRule.Columns.kind == kind.rawValue
                                                && WatchRule.Columns.value == normalized).fetchCount(db)
            guard existing == 0 else { throw WatchRuleError.duplicate(kind: kind, value: normalized) }
            var rule = WatchRule(userId: user.id!, kind: kind, value: normalized, label: label, createdAt: now)
            try rule.insert(db)
            return rule
        }
    }

    /// A user's rules, oldest first.
    public func rules(username: String) throws -> [WatchRule] {
        let user = try requireUser(username)
        return try writer.read { db in
            try WatchRule.filter(WatchRule.Columns.userId == user.id!).order(Column("id")).fetchAll(db)
        }
    }

    /// Every rule of every user (to build a `WatchlistMatcher`).
    public func allRules() throws -> [WatchRule] {
        try writer.read { db in try WatchRule.order(Column("id")).fetchAll(db) }
    }

    /// Removes one of the user's rules by id.
    public func removeRule(username: String, id: Int64) throws {
        let user = try requireUser(username)
        let deleted = try writer.write { db in
            try WatchRule.filter(Column("id") == id && WatchRule.Columns.userId == user.id!).deleteAll(db)
        }
        guard deleted > 0 else { throw WatchRuleError.unknownRule(id) }
    }
}
