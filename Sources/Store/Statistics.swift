import Foundation
import GRDB
import ModeS

/// What statistics are grouped by.
public enum StatsDimension: String, Codable, Sendable, CaseIterable {
    /// ICAO type designator.
    case type
    /// Operator (aircraft database, else the callsign's airline).
    case `operator`
    /// Emitter category (`A3`).
    case category
    /// Highest altitude of the visit, in 5000 ft bands (`30000-34999`).
    case altitude
    /// Hour of day (UTC) of the first message, `00`…`23`.
    case hour
    /// Day (UTC) of the first message, `2026-11-22`.
    case day
}

/// Which visits count. Every criterion is optional.
public struct StatsFilter: Sendable, Equatable {
    /// Visits heard at some time in `since…until` (Unix seconds).
    public var since: Double?
    public var until: Double?
    /// ICAO type, exact (`B738`) or a prefix with `*` (`B73*`).
    public var typePattern: String?
    /// Direction of travel: the bearing from the aircraft's last position to `towards` is
    /// within `tolerance` degrees of its last track.
    public var towards: Coordinate?
    public var tolerance: Double = 20
    /// Closest distance to the receiver at most this many km.
    public var withinKm: Double?
    /// Heard by this receiver of a network (`visitReceiver`); nil: by any.
    public var receiver: String?

    public init(since: Double? = nil, until: Double? = nil, typePattern: String? = nil, towards: Coordinate? = nil,
                tolerance: Double = 20, withinKm: Double? = nil, receiver: String? = nil) {
        self.since = since
        self.until = until
        self.typePattern = typePattern
        self.towards = towards
        self.tolerance = tolerance
        self.withinKm = withinKm
        self.receiver = receiver
    }

    /// Whether a visit heading `track` at `from` travels towards `target` (± `tolerance`°).
    public static func isHeading(from: Coordinate, track: Double, to target: Coordinate, tolerance: Double) -> Bool {
        let bearing = Geodesy.bearing(from: from, to: target)
        let difference = abs((track - bearing + 540).truncatingRemainder(dividingBy: 360) - 180)
        return difference <= tolerance
    }
}

/// One line of statistics: a group and its counts.
public struct StatsRow: Codable, Sendable, Hashable {
    /// The group (`B738`, `14`, `2026-11-22`…); `unknown` when the visit lacks the value.
    public var key: String
    /// Distinct ICAO addresses.
    public var aircraft: Int
    /// Distinct callsigns.
    public var flights: Int
    public var visits: Int
    public var messages: Int

    public init(key: String, aircraft: Int, flights: Int, visits: Int, messages: Int) {
        self.key = key
        self.aircraft = aircraft
        self.flights = flights
        self.visits = visits
        self.messages = messages
    }
}

extension AppDatabase {
    /// `ft_towards(lat, lon, track, targetLat, targetLon, tolerance)`: 1 when travelling
    /// towards the target, 0 otherwise (and when any input is NULL).
    static let towardsFunction = DatabaseFunction("ft_towards", argumentCount: 6, pure: true) { values in
        guard let lat = Double.fromDatabaseValue(values[0]), let lon = Double.fromDatabaseValue(values[1]),
              let track = Double.fromDatabaseValue(values[2]), let tLat = Double.fromDatabaseValue(values[3]),
              let tLon = Double.fromDatabaseValue(values[4]), let tolerance = Double.fromDatabaseValue(values[5])
        else { return false }
        return StatsFilter.isHeading(from: Coordinate(latitude: lat, longitude: lon), track: track,
                                     to: Coordinate(latitude: tLat, longitude: tLon), tolerance: tolerance)
    }
}
