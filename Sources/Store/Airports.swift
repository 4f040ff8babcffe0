import Foundation
import GRDB
import ModeS

/// One row of `airport`: an airport imported from OurAirports' `airports.csv`.
public struct AirportRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "airport"
    /// ICAO code (OurAirports `ident`).
    public var ident: String
    public var iata: String?
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// OurAirports `type` (`large_airport`, …), nil for built-in ones.
    public var kind: String?

    public init(ident: String, iata: String?, name: String, latitude: Double, longitude: Double, kind: String? = nil) {
        self.ident = ident
        self.iata = iata
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.kind = kind
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// Airports known without an import: major airports by ICAO and IATA code (aerodrome
/// reference points, rounded to about 100 m).
public enum Airports {
    public static let builtIn: [AirportRecord] = table.map {
        AirportRecord(ident: $0.0, iata: $0.1, name: $0.2, latitude: $0.3, longitude: $0.4)
    }

    private static let table: [(String, String, String, Double, Double)] = [
        ("KMIA", "MIA", "Miami International", 25.7959, -80.2870), ("KJFK", "JFK", "New York John F. Kennedy", 40.6398, -73.7789),
        ("KLAX", "LAX", "Los Angeles International", 33.9425, -118.4081), ("KORD", "ORD", "Chicago O'Hare", 41.9786, -87.9048),
        ("KATL", "ATL", "Atlanta Hartsfield-Jackson", 33.6367, -84.4281), ("KDFW", "DFW", "Dallas/Fort Worth", 32.8968, -97.0380),
        ("KDEN", "DEN", "Denver International", 39.8617, -104.6731), ("KSFO", "SFO", "San Francisco International", 37.6190, -122.3750),
        ("KSEA", "SEA", "Seattle-Tacoma", 47.4490, -122.3093), ("KBOS", "BOS", "Boston Logan", 42.3643, -71.0052),
        ("KEWR", "EWR", "Newark Liberty", 40.6925, -74.1687), ("KMCO", "MCO", "Orlando International", 28.4294, -81.3090),
        ("KFLL", "FLL", "Fort Lauderdale-Hollywood", 26.0726, -80.1527), ("CYYZ", "YYZ", "Toronto Pearson", 43.6772, -79.6306),
        ("MMMX", "MEX", "Mexico City", 19.4363, -99.0721), ("SBGR", "GRU", "São Paulo Guarulhos", -23.4356, -46.4731),
        ("EGLL", "LHR", "London Heathrow", 51.4706, -0.4619), ("EGKK", "LGW", "London Gatwick", 51.1481, -0.1903),
        ("EHAM", "AMS", "Amsterdam Schiphol", 52.3086, 4.7639), ("EDDF", "FRA", "Frankfurt", 50.0333, 8.5706),
        ("EDDM", "MUC", "Munich", 48.3538, 11.7861), ("LFPG", "CDG", "Paris Charles de Gaulle", 49.0097, 2.5479),
        ("LEMD", "MAD", "Madrid Barajas", 40.4719, -3.5626), ("LEBL", "BCN", "Barcelona El Prat", 41.2971, 2.0785),
        ("LIRF", "FCO", "Rome Fiumicino", 41.8003, 12.2389), ("LSZH", "ZRH", "Zurich", 47.4647, 8.5492),
        ("LOWW", "VIE", "Vienna", 48.1103, 16.5697), ("EKCH", "CPH", "Copenhagen Kastrup", 55.6180, 12.6560),
        ("ESSA", "ARN", "Stockholm Arlanda", 59.6519, 17.9186), ("ENGM", "OSL", "Oslo Gardermoen", 60.1939, 11.1004),
        ("EFHK", "HEL", "Helsinki-Vantaa", 60.3172, 24.9633), ("EIDW", "DUB", "Dublin", 53.4213, -6.2701),
        ("EBBR", "BRU", "Brussels", 50.9014, 4.4844), ("LTFM", "IST", "Istanbul", 41.2753, 28.7519),
        ("OMDB", "DXB", "Dubai International", 25.2528, 55.3644), ("OTHH", "DOH", "Doha Hamad", 25.2731, 51.6081),
        ("VHHH", "HKG", "Hong Kong", 22.3080, 113.9185), ("WSSS", "SIN", "Singapore Changi", 1.3502, 103.9944),
        ("RJTT", "HND", "Tokyo Haneda", 35.5523, 139.7798), ("ZBAA", "PEK", "Beijing Capital", 40.0801, 116.5846),
        ("YSSY", "SYD", "Sydney Kingsford Smith", -33.9461, 151.1772), ("FAOR", "JNB", "Johannesburg O. R. Tambo", -26.1392, 28.2460),
    ]

    /// A built-in airport by ICAO or IATA code (case-insensitive).
    /// Built-in airports whose name contains `text` (any case) or whose code is `text`.
    public static func searchBuiltIn(_ text: String) -> [AirportRecord] {
        let code = text.uppercased()
        return builtIn.filter { $0.ident == code || $0.iata == code || $0.name.localizedCaseInsensitiveContains(text) }
            .sorted { ($0.ident == code || $0.iata == code) && !($1.ident == code || $1.iata == code) }
    }

    /// `text` with LIKE's wildcards and the escape character escaped (`ESCAPE '\\'`).
    public static func escapeLike(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// `imported`, then the built-in airports not among them, at most `limit`; exact codes first.
    public static func merged(_ imported: [AirportRecord], _ builtIn: [AirportRecord], limit: Int) -> [AirportRecord] {
        let known = Set(imported.map(\.ident))
        return Array((imported + builtIn.filter { !known.contains($0.ident) }).prefix(max(0, limit)))
    }

    public static func builtIn(code: String) -> AirportRecord? {
        let c = code.uppercased()
        return builtIn.first { $0.ident == c || $0.iata == c }
    }
}

extension Airports {
    /// The open airports of OurAirports' `airports.csv` (see `AirportRepository.importCSV`).
    public static func parse(csv bytes: [UInt8]) throws -> [AirportRecord] {
        var records = CSVRecords(bytes, delimiter: UInt8(ascii: ","), quote: UInt8(ascii: "\""))
        guard let header = records.next()?.fields.map({ $0.lowercased() }) else { throw StoreError(description: "empty airport file") }
        func column(_ name: String) throws -> Int {
            guard let i = header.firstIndex(of: name) else { throw StoreError(description: "airport CSV header has no '\(name)' column") }
            return i
        }
        let ident = try column("ident"), type = try column("type"), name = try column("name")
        let lat = try column("latitude_deg"), lon = try column("longitude_deg"), iata = try column("iata_code")
        var rows: [AirportRecord] = []
        for (_, f) in records {
            guard f.count == header.count, f[type] != "closed", let la = Double(f[lat]), let lo = Double(f[lon]),
                  (-90...90).contains(la), (-180...180).contains(lo), !f[ident].isEmpty else { continue }
            rows.append(AirportRecord(ident: f[ident].uppercased(), iata: f[iata].isEmpty ? nil : f[iata].uppercased(),
                                      name: f[name], latitude: la, longitude: lo, kind: f[type]))
        }
        return rows
    }
}
