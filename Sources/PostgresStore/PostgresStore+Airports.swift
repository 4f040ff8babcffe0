import PostgresNIO
import Store

/// Airport search on PostgreSQL (`AirportStore`), as on SQLite.
extension PostgresStore {
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
