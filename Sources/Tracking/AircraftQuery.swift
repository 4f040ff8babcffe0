import ModeS

/// A latitude/longitude box. When `west > east` the box crosses the antimeridian.
public struct GeoBox: Sendable, Hashable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    public func contains(_ c: Coordinate) -> Bool {
        guard c.latitude >= south, c.latitude <= north else { return false }
        if west <= east { return c.longitude >= west && c.longitude <= east }
        return c.longitude >= west || c.longitude <= east
    }
}

/// Criteria for finding aircraft in a snapshot; every criterion given must match (AND).
/// Text comparisons ignore case; registrations also ignore `-`, spaces and dots.
public struct AircraftQuery: Sendable {
    public enum Area: Sendable {
        case radius(center: Coordinate, nauticalMiles: Double)
        case box(GeoBox)
    }

    public var address: AircraftKey?
    public var registration: String?
    public var callsign: String?
    /// Match `callsign` as a prefix instead of exactly.
    public var callsignPrefix = false
    /// ICAO type designator; `*` matches any run of characters, `?` one character.
    public var typeCode: String?
    /// 4 octal digits.
    public var squawk: String?
    /// Needs a position.
    public var area: Area?
    /// Barometric altitude, ft (on the ground counts as 0).
    public var altitude: ClosedRange<Int>?
    public var military: Bool?
    /// Heard by this network receiver recently (`Aircraft.heardBy`).
    public var receiver: ReceiverID?

    public init(address: AircraftKey? = nil, registration: String? = nil, callsign: String? = nil,
                callsignPrefix: Bool = false, typeCode: String? = nil, squawk: String? = nil,
                area: Area? = nil, altitude: ClosedRange<Int>? = nil, military: Bool? = nil, receiver: ReceiverID? = nil) {
        self.address = address
        self.registration = registration
        self.callsign = callsign
        self.callsignPrefix = callsignPrefix
        self.typeCode = typeCode
        self.squawk = squawk
        self.area = area
        self.altitude = altitude
        self.military = military
        self.receiver = receiver
    }

    public func matches(_ a: Aircraft) -> Bool {
        if let address, a.key != address { return false }
        if let registration {
            guard let r = a.registration, RegistrationKey.normalize(r) == RegistrationKey.normalize(registration) else { return false }
        }
        if let callsign {
            guard let flight = a.flight?.value else { return false }
            let wanted = callsign.uppercased().trimmingSpaces
            if callsignPrefix ? !flight.uppercased().hasPrefix(wanted) : flight.uppercased() != wanted { return false }
        }
        if let typeCode {
            guard let t = a.typeCode, Wildcard.matches(t.uppercased(), pattern: typeCode.uppercased()) else { return false }
        }
        if let squawk, a.squawkString != squawk { return false }
        if let area {
            guard let p = a.position?.value else { return false }
            switch area {
            case .radius(let center, let radius): if Geodesy.distance(center, p) > radius { return false }
            case .box(let box): if !box.contains(p) { return false }
            }
        }
        if let altitude {
            let value = a.isOnGround ? 0 : a.altBaro?.value
            guard let value, altitude.contains(value) else { return false }
        }
        if let military, a.isMilitary != military { return false }
        if let receiver, a.heardBy[receiver] == nil { return false }
        return true
    }
}

/// Glob matching with `*` (any run, possibly empty) and `?` (one character).
public enum Wildcard {
    public static func matches(_ text: String, pattern: String) -> Bool {
        let t = Array(text.unicodeScalars)
        let p = Array(pattern.unicodeScalars)
        var ti = 0
        var pi = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                ti += 1
                pi += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
