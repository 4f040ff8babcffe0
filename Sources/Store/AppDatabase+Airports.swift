import Foundation
import GRDB

/// Airport search on SQLite (`AirportStore`): the imported list, then the built-in one.
extension AppDatabase {
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
}
