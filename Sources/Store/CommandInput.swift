import Foundation
import ModeS

/// A command-line value that could not be understood.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Parsing of the values `users`, `track`, `history` and `stats` take, kept here (pure,
/// testable) so the commands are wiring only.
public enum CommandInput {
    /// A time: `30m`, `24h`, `7d` ago (from `now`), a date `2026-11-22` (UTC midnight), an
    /// ISO 8601 instant `2026-11-22T10:00:00Z`, or Unix seconds.
    public static func time(_ text: String, now: Double) throws(InputError) -> Double {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let last = t.last, let unit = ["s": 1.0, "m": 60, "h": 3600, "d": 86_400, "w": 604_800][String(last)],
           let n = Double(t.dropLast()), n >= 0, n.isFinite {
            return now - n * unit
        }
        if let seconds = Double(t), seconds.isFinite, seconds >= 0 { return seconds }
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: t) { return date.timeIntervalSince1970 }
        iso.formatOptions = [.withFullDate]
        if t.count == 10, let date = iso.date(from: t) { return date.timeIntervalSince1970 }
        throw InputError("invalid time '\(text)': expected 30m, 24h, 7d, 2026-11-22, 2026-11-22T10:00:00Z or Unix seconds")
    }

    /// A place: `LAT,LON` in degrees, or an airport code (ICAO or IATA) that `lookup` knows
    /// (`AirportRepository.place`: the store's imported airports, then the built-in ones).
    public static func place(_ text: String, airport lookup: (String) async throws -> AirportRecord?) async throws -> (name: String, coordinate: Coordinate) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                  let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                  (-90...90).contains(lat), (-180...180).contains(lon)
            else { throw InputError("invalid position '\(text)': expected LAT,LON in degrees") }
            return (text, Coordinate(latitude: lat, longitude: lon))
        }
        guard (3...4).contains(text.count), text.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw InputError("invalid place '\(text)': expected an airport code (KMIA, MIA) or LAT,LON")
        }
        guard let airport = try await lookup(text) else {
            throw InputError("unknown airport '\(text)' (import OurAirports' airports.csv with 'flytracker db import-airports')")
        }
        return ("\(airport.ident) \(airport.name)", airport.coordinate)
    }

    /// An aircraft given as hex address (`4840d6`, `~3a2b4c`), or nil when it is no address.
    public static func address(_ text: String) -> UInt32? {
        let hex = text.hasPrefix("~") ? text.dropFirst() : Substring(text)
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return text.hasPrefix("~") ? value | 0x100_0000 : value
    }

    /// A positive distance in km.
    public static func kilometres(_ text: String) throws(InputError) -> Double {
        guard let km = Double(text), km.isFinite, km > 0 else { throw InputError("invalid distance '\(text)': expected a number of km > 0") }
        return km
    }

    /// The first line of a password read from standard input (without the line end).
    public static func password(fromLine line: String?) throws(InputError) -> String {
        guard var line else { throw InputError("no password given on standard input") }
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        guard !line.isEmpty else { throw InputError("empty password") }
        return line
    }
}
