import ModeS
import Tracking

/// The query parameters of `GET /api/aircraft`, mapped onto `Tracking.AircraftQuery`.
///
/// | parameter | meaning |
/// |---|---|
/// | `hex` (or `address`) | one aircraft key: 6 hex digits, `~` prefix for non-ICAO |
/// | `registration` | tail number, case, `-`, spaces and dots ignored |
/// | `callsign` | exact; a trailing `*` makes it a prefix (`KLM*`) |
/// | `type` | ICAO type designator, `*` and `?` wildcards (`B73*`, `A32?`) |
/// | `squawk` | 4 octal digits |
/// | `lat`, `lon`, `radius` | within `radius` NM of the point (all three together) |
/// | `box` | `south,west,north,east` degrees (west > east crosses the antimeridian) |
/// | `min_alt`, `max_alt` | barometric altitude range, ft (ground = 0), either may be left out |
/// | `military` | `true`/`false`, by the aircraft database |
/// | `receiver` | heard by this receiver of a network (aggregator; `/api/receivers` lists them) |
/// | `limit` | at most this many aircraft (1…100000) |
///
/// Unknown or repeated parameters and malformed values are errors (400): a typo never
/// silently widens a search.
public struct AircraftQueryParameters: Sendable {
    public var query: AircraftQuery
    public var limit: Int?

    public static let names: Set<String> = [
        "hex", "address", "registration", "callsign", "type", "squawk", "lat", "lon", "radius", "box",
        "min_alt", "max_alt", "military", "receiver", "limit",
    ]

    public init(query: AircraftQuery = AircraftQuery(), limit: Int? = nil) {
        self.query = query
        self.limit = limit
    }

    /// Parses decoded `name=value` pairs.
    public static func parse(_ pairs: [(String, String)]) throws(APIError) -> AircraftQueryParameters {
        var values: [String: String] = [:]
        for (name, value) in pairs {
            guard names.contains(name) else { throw .badRequest("unknown parameter '\(name)'") }
            guard values[name] == nil else { throw .badRequest("parameter '\(name)' given twice") }
            values[name] = value
        }
        var q = AircraftQuery()
        var result = AircraftQueryParameters()

        if values["hex"] != nil && values["address"] != nil { throw .badRequest("give 'hex' or 'address', not both") }
        if let hex = values["hex"] ?? values["address"] {
            guard let key = AircraftKey(hex: hex.lowercased()) else {
                throw .badRequest("'\(hex)' is not an aircraft address (6 hex digits, '~' prefix for non-ICAO)")
            }
            q.address = key
        }
        if let r = values["registration"] {
            guard !r.isEmpty, r.count <= 12 else { throw .badRequest("registration must be 1 to 12 characters") }
            q.registration = r
        }
        if var c = values["callsign"] {
            if c.hasSuffix("*") {
                c.removeLast()
                q.callsignPrefix = true
            }
            guard !c.isEmpty || q.callsignPrefix, c.count <= 8,
                  c.unicodeScalars.allSatisfy({ isAlphanumeric($0) || $0 == " " }) else {
                throw .badRequest("callsign must be up to 8 letters and digits, optionally ending in '*'")
            }
            q.callsign = c
        }
        if let t = values["type"] {
            guard !t.isEmpty, t.count <= 8,
                  t.unicodeScalars.allSatisfy({ isAlphanumeric($0) || $0 == "*" || $0 == "?" }) else {
                throw .badRequest("type must be up to 8 letters, digits, '*' or '?'")
            }
            q.typeCode = t
        }
        if let s = values["squawk"] {
            guard s.count == 4, s.unicodeScalars.allSatisfy({ $0 >= "0" && $0 <= "7" }) else {
                throw .badRequest("squawk must be 4 octal digits")
            }
            q.squawk = s
        }
        let circle = [values["lat"], values["lon"], values["radius"]]
        if circle.contains(where: { $0 != nil }) {
            guard let lat = circle[0], let lon = circle[1], let radius = circle[2] else {
                throw .badRequest("'lat', 'lon' and 'radius' go together")
            }
            let center = Coordinate(latitude: try number(lat, "lat", -90...90), longitude: try number(lon, "lon", -180...180))
            q.area = .radius(center: center, nauticalMiles: try number(radius, "radius", 0...20_000))
        }
        if let box = values["box"] {
            guard q.area == nil else { throw .badRequest("give a radius or a box, not both") }
            let parts = box.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4 else { throw .badRequest("box must be south,west,north,east") }
            let south = try number(parts[0], "box south", -90...90)
            let west = try number(parts[1], "box west", -180...180)
            let north = try number(parts[2], "box north", -90...90)
            let east = try number(parts[3], "box east", -180...180)
            guard south <= north else { throw .badRequest("box south must not be north of its north") }
            q.area = .box(GeoBox(south: south, west: west, north: north, east: east))
        }
        var minAlt: Int?
        var maxAlt: Int?
        if let text = values["min_alt"] { minAlt = try integer(text, "min_alt", -2000...200_000) }
        if let text = values["max_alt"] { maxAlt = try integer(text, "max_alt", -2000...200_000) }
        if minAlt != nil || maxAlt != nil {
            let low = minAlt ?? Int.min
            let high = maxAlt ?? Int.max
            guard low <= high else { throw .badRequest("min_alt is above max_alt") }
            q.altitude = low...high
        }
        if let m = values["military"] {
            switch m.lowercased() {
            case "true", "1": q.military = true
            case "false", "0": q.military = false
            default: throw .badRequest("military must be true or false")
            }
        }
        if let r = values["receiver"] {
            guard let id = ReceiverID.parse(r) else { throw .badRequest("receiver must be 1 to 64 printable characters") }
            q.receiver = id
        }
        if let l = values["limit"] { result.limit = try integer(l, "limit", 1...100_000) }
        result.query = q
        return result
    }

    static func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        (s >= "0" && s <= "9") || (s >= "A" && s <= "Z") || (s >= "a" && s <= "z")
    }

    static func number(_ text: String, _ name: String, _ range: ClosedRange<Double>) throws(APIError) -> Double {
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw .badRequest("\(name) must be a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    static func integer(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let v = Int(text), range.contains(v) else {
            throw .badRequest("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }
}
