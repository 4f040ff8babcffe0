import ModeS

/// The imported airports (`airport`, written by `db import-airports` from OurAirports'
/// `airports.csv`), on the storage seam for both engines, with the built-in list behind them.
public struct AirportRepository: Sendable {
    let database: any SQLDatabase

    public init(_ database: any SQLDatabase) {
        self.database = database
    }

    static let columns = "ident, iata, name, latitude, longitude, kind"
    /// Rows per `INSERT` (6 values each).
    static let rowsPerStatement = 1000

    /// An imported airport by ICAO code, else by IATA code (uppercase), or nil.
    public func imported(code: String) async throws -> AirportRecord? {
        try await database.first("""
            SELECT \(raw: Self.columns) FROM airport WHERE ident = \(code) OR iata = \(code)
            ORDER BY (ident = \(code)) DESC, COALESCE(kind, '') LIMIT 1
            """)
    }

    /// An airport by ICAO or IATA code (any case): imported ones first, then the built-in set.
    public func airport(code: String) async throws -> AirportRecord? {
        let c = code.uppercased()
        return try await imported(code: c) ?? Airports.builtIn(code: c)
    }

    /// Airports whose name contains `text` (any case) or whose code is `text`: imported ones
    /// (exact codes first, then large airports, then by name), then built-in ones not
    /// imported; at most `limit`.
    public func search(_ text: String, limit: Int) async throws -> [AirportRecord] {
        let pattern = "%" + Airports.escapeLike(text) + "%", code = text.uppercased()
        let imported: [AirportRecord] = try await database.all("""
            SELECT \(raw: Self.columns) FROM airport
            WHERE lower(name) LIKE lower(\(pattern)) ESCAPE '\\' OR ident = \(code) OR iata = \(code)
            ORDER BY (ident = \(code) OR COALESCE(iata, '') = \(code)) DESC, COALESCE(kind, '') = 'large_airport' DESC, name
            LIMIT \(max(limit, 0))
            """)
        return Airports.merged(imported, Airports.searchBuiltIn(text), limit: limit)
    }

    /// Inserts or replaces airports in one transaction (the last of an ident wins).
    public func save(_ airports: [AirportRecord]) async throws {
        try await database.insert(airports.lastOfEach(\.ident), into: "airport (\(Self.columns))", rowsPerStatement: Self.rowsPerStatement,
                                  onConflict: """
                                    ON CONFLICT (ident) DO UPDATE SET iata = excluded.iata, name = excluded.name,
                                    latitude = excluded.latitude, longitude = excluded.longitude, kind = excluded.kind
                                    """) { a in
            "(\(a.ident), \(a.iata), \(a.name), \(a.latitude), \(a.longitude), \(a.kind))"
        }
    }

    /// Imports OurAirports' `airports.csv` (`Airports.parse`); returns the number of airports stored.
    @discardableResult
    public func importCSV(_ bytes: [UInt8]) async throws -> Int {
        let rows = try Airports.parse(csv: bytes)
        try await save(rows)
        return rows.count
    }

    /// The place `text` names (`LAT,LON` or an airport code), for the commands' `--towards`
    /// and `--near`: these airports, then the built-in ones.
    public func place(_ text: String) async throws -> (name: String, coordinate: Coordinate) {
        try await CommandInput.place(text) { try await airport(code: $0) }
    }
}
