import ModeS
import Foundation

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
public struct WatchRule: Codable, Sendable, Hashable {
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
            let key = RegistrationKey.normalize(v)
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

/// Watchlists: each user's rules, the airline table flight rules are matched through, and
/// the journal of what the rules matched. Written once for both engines, on the storage seam
/// (`store.watchlists`); a duplicate rule is told by the unique key (userId, kind, value).
public struct WatchlistRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    var accounts: AccountRepository { AccountRepository(database) }

    /// Adds a rule for `username` after validating the value (`WatchRule.normalize`).
    @discardableResult
    public func add(username: String, kind: WatchKind, value: String, label: String? = nil, now: Double) async throws -> WatchRule {
        let normalized = try WatchRule.normalize(kind: kind, value: value)
        let userId = try await accounts.require(named: username).id!
        do {
            let rows = try await database.write("""
                INSERT INTO watchRule (userId, kind, value, label, createdAt)
                VALUES (\(userId), \(kind.rawValue), \(normalized), \(label), \(now)) RETURNING *
                """)
            return try rows[0].decode(record: WatchRule.self)
        } catch where database.isUniqueViolation(error) {
            throw WatchRuleError.duplicate(kind: kind, value: normalized)
        }
    }

    /// A user's rules, oldest first.
    public func rules(username: String) async throws -> [WatchRule] {
        try await rules(userId: accounts.require(named: username).id!)
    }

    /// The rules of the account with this id, oldest first.
    public func rules(userId: Int64) async throws -> [WatchRule] {
        try await database.all("SELECT * FROM watchRule WHERE userId = \(userId) ORDER BY id")
    }

    /// Every rule of every user, oldest first (what `SightingStore.watchRules()` adds the
    /// groups' rules to).
    public func all() async throws -> [WatchRule] {
        try await database.all("SELECT * FROM watchRule ORDER BY id")
    }

    /// Removes one of the user's rules by id (`WatchRuleError.unknownRule` when it is not theirs).
    public func remove(username: String, id: Int64) async throws {
        let userId = try await accounts.require(named: username).id!
        let deleted = try await database.write("DELETE FROM watchRule WHERE id = \(id) AND userId = \(userId) RETURNING id")
        guard !deleted.isEmpty else { throw WatchRuleError.unknownRule(id) }
    }

    /// The built-in airline table with the database's additions.
    public func airlineCodes() async throws -> AirlineCodes {
        let rows = try await database.query("SELECT iata, icao FROM airlineCode")
        var extra: [String: String] = [:]
        for row in rows { extra[try row.decode(0, as: String.self)] = try row.decode(1, as: String.self) }
        return AirlineCodes(extra: extra)
    }

    /// Adds or replaces an IATA → ICAO airline designator pair.
    public func addAirlineCode(_ record: AirlineCodeRecord) async throws {
        try await database.write("""
            INSERT INTO airlineCode (iata, icao, name) VALUES (\(record.iata), \(record.icao), \(record.name))
            ON CONFLICT (iata) DO UPDATE SET icao = excluded.icao, name = excluded.name
            """)
    }

    /// A user's journal, newest first. Events of a kind this version does not know (written
    /// by a newer one) are left out.
    public func journal(username: String, limit: Int = 100) async throws -> [JournalEventRecord] {
        let userId = try await accounts.require(named: username).id!
        return try await database.all("""
            SELECT * FROM journalEvent WHERE userId = \(userId) AND kind IN (\(SQL.list(JournalKind.allCases.map(\.rawValue))))
            ORDER BY time DESC, id DESC LIMIT \(limit)
            """)
    }
}
