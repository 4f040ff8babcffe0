import Foundation
import ModeS
import Tracking

/// One predicted event: a tracked aircraft passing within a place's radius (closest
/// approach) or landing at an airport place.
public struct EtaPrediction: Sendable, Equatable {
    public var address: UInt32
    public var callsign: String?
    public var registration: String?
    public var typeCode: String?
    /// The place; nil: the receiver's own position.
    public var placeId: Int64?
    public var placeName: String
    public var event: ReminderRecord.Event
    /// Unix seconds of the event.
    public var time: Double
    /// Closest approach: the distance then; arrival: the distance to the airport now. NM.
    public var distance: Double
    /// Where the aircraft will be at the event (the airport for an arrival).
    public var point: Coordinate
    /// The user's rules that track this aircraft.
    public var ruleIds: [Int64]

    public var hex: String { Observation.hex(address) }
}

/// The predictions of one user: for every aircraft in view that the user tracks (matches one
/// of their watch rules) with a recent position, track and ground speed, and every place of
/// theirs (and the receiver's own position), the events of the next `horizon` seconds.
public enum EtaBoard {
    /// Name of the place every user has: the receiver's position.
    public static let receiverPlaceName = "Receiver"
    /// Positions older than this (s) are not extrapolated.
    public static let maximumPositionAge = 60.0

    /// The receiver as a place of `userId` (no id: it is not stored).
    public static func receiverPlace(_ receiver: Coordinate, userId: Int64) -> PlaceRecord {
        PlaceRecord(userId: userId, name: receiverPlaceName, latitude: receiver.latitude, longitude: receiver.longitude, createdAt: 0)
    }

    /// Every event ahead, soonest first.
    public static func predictions(aircraft: [Aircraft], places: [PlaceRecord], matcher: WatchlistMatcher, now: Double,
                                   horizon: Double = 7200) -> [EtaPrediction] {
        var out: [EtaPrediction] = []
        for a in aircraft {
            guard let motion = MotionState(a), now - motion.time <= maximumPositionAge, !motion.onGround else { continue }
            let o = Observation(a)
            let rules = matcher.matches(o).compactMap(\.id)
            guard !rules.isEmpty else { continue }
            func add(_ place: PlaceRecord, _ event: ReminderRecord.Event, time: Double, distance: Double, point: Coordinate) {
                guard time > now, time - now <= horizon else { return }
                out.append(EtaPrediction(address: o.key, callsign: o.callsign, registration: o.registration, typeCode: o.typeCode,
                                         placeId: place.id, placeName: place.name, event: event, time: time, distance: distance,
                                         point: point, ruleIds: rules))
            }
            for place in places {
                if let c = Prediction.closestApproach(motion, to: place.coordinate, horizon: horizon + (now - motion.time)),
                   c.isAhead, c.distance <= place.radius {
                    add(place, .closest, time: c.time, distance: c.distance, point: c.point)
                }
                if place.airport != nil, let arrival = Prediction.arrival(motion, at: place.coordinate, elevation: place.altitude ?? 0) {
                    add(place, .arrival, time: arrival.time, distance: arrival.distance, point: place.coordinate)
                }
            }
        }
        return out.sorted { ($0.time, $0.address) < ($1.time, $1.address) }
    }

    /// "in 7 min", "at 14:32" or "in 7 min (14:32)" for an event at `time` seen at `now`
    /// (clock times in `timeZone`).
    public static func when(_ time: Double, now: Double, format: TimeFormat, timeZone: TimeZone = .current) -> String {
        let minutes = max(0, Int(((time - now) / 60).rounded()))
        let relative = minutes == 0 ? "now" : "in \(minutes) min"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: time))
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        switch format {
        case .minutes: return relative
        case .clock: return "at \(clock)"
        case .both: return "\(relative) (\(clock))"
        }
    }

    /// What a reminder says: "KLM1234 lands at Schiphol in 10 min (14:32)".
    public static func note(_ p: EtaPrediction, now: Double, format: TimeFormat, timeZone: TimeZone = .current) -> String {
        let who = p.callsign ?? p.registration ?? p.hex
        let what = p.event == .arrival ? "lands at \(p.placeName)" : String(format: "passes %@ (%.1f NM)", p.placeName, p.distance)
        return "\(who) \(what) \(when(p.time, now: now, format: format, timeZone: timeZone))"
    }
}
