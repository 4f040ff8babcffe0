import ModeS

/// The imported aircraft database (`aircraft`, written by `db import-aircraft`), on the
/// storage seam for both engines: what the live table looks up once a second for the
/// addresses it has just met (`aircraft(addresses:)`), and what the import writes.
public struct AircraftRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    static let columns = "icao, registration, registrationKey, typeCode, description, flags, year, ownerOperator"
    /// Rows per `INSERT` (8 values each: far below both engines' bound-value limits).
    static let rowsPerStatement = 1000
    /// Addresses per `IN (…)` lookup.
    static let addressesPerQuery = 2000

    /// The aircraft with this ICAO address (the low 24 bits), if imported.
    public func aircraft(address: UInt32) async throws -> AircraftInfo? {
        try await database.query("SELECT \(raw: Self.columns) FROM aircraft WHERE icao = \(Int(address & 0xFF_FFFF))").first.map(Self.info)
    }

    /// The imported aircraft among `addresses` (low 24 bits), by address; the others are not
    /// in the result.
    public func aircraft(addresses: [UInt32]) async throws -> [UInt32: AircraftInfo] {
        let wanted = Array(Set(addresses.map { Int($0 & 0xFF_FFFF) })).sorted()
        var found: [UInt32: AircraftInfo] = [:]
        var start = 0
        while start < wanted.count {
            let chunk = Array(wanted[start..<min(start + Self.addressesPerQuery, wanted.count)])
            start += chunk.count
            for row in try await database.query("SELECT \(raw: Self.columns) FROM aircraft WHERE icao IN (\(SQL.list(chunk)))") {
                let info = try Self.info(row)
                found[info.address] = info
            }
        }
        return found
    }

    /// Aircraft with this registration (compared without `-`, spaces, dots and case), by address.
    public func aircraft(registration: String) async throws -> [AircraftInfo] {
        try await database.query("""
            SELECT \(raw: Self.columns) FROM aircraft WHERE registrationKey = \(RegistrationKey.normalize(registration)) ORDER BY icao
            """).map(Self.info)
    }

    /// The number of imported aircraft.
    public func count() async throws -> Int {
        try await database.value("SELECT COUNT(*) FROM aircraft") ?? 0
    }

    /// Inserts or replaces `records` in one transaction: the last record of an address wins.
    public func save(_ records: [AircraftInfo]) async throws {
        try await database.insert(records.lastOfEach(\.address), into: "aircraft (\(Self.columns))", rowsPerStatement: Self.rowsPerStatement,
                                  onConflict: """
                                    ON CONFLICT (icao) DO UPDATE SET registration = excluded.registration, registrationKey = excluded.registrationKey,
                                    typeCode = excluded.typeCode, description = excluded.description, flags = excluded.flags, year = excluded.year,
                                    ownerOperator = excluded.ownerOperator
                                    """) { r in
            "(\(Int(r.address)), \(r.registration), \(r.registration.map(RegistrationKey.normalize)), \(r.typeCode), \(r.typeDescription), \(r.flags.rawValue), \(r.year), \(r.ownerOperator))"
        }
    }

    /// A row of `columns` as the record it holds (`registrationKey`, the lookup key of the
    /// registration, is the store's own).
    static func info(_ row: SQLRow) throws -> AircraftInfo {
        AircraftInfo(address: UInt32(truncatingIfNeeded: try row.decode(0, as: Int.self)), registration: try row.decode(1),
                     typeCode: try row.decode(3), typeDescription: try row.decode(4), ownerOperator: try row.decode(7),
                     year: try row.decode(6, as: Int?.self), flags: AircraftFlags(rawValue: try row.decode(5)))
    }
}
