import Foundation
import PostgresNIO
import Store

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
