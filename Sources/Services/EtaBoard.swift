import Foundation
import Localization
import ModeS
import Store
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

    /// What a prediction needs of one aircraft: who it is (for the watch rules) and how it moves.
    public struct Input: Sendable {
        public var observation: Observation
        public var motion: MotionState

        public init(observation: Observation, motion: MotionState) {
            self.observation = observation
            self.motion = motion
        }
    }

    /// The inputs of a table snapshot's airborne aircraft with a position, track and speed.
    public static func inputs(_ aircraft: [Aircraft]) -> [Input] {
        aircraft.compactMap { a in MotionState(a).map { Input(observation: Observation(a), motion: $0) } }
    }

    /// Every event ahead, soonest first.
    public static func predictions(_ snapshot: TableSnapshot, places: [PlaceRecord], matcher: WatchlistMatcher,
                                   horizon: Double = 7200) -> [EtaPrediction] {
        predictions(inputs(snapshot.aircraft), places: places, matcher: matcher, now: snapshot.time, landings: snapshot.landings, horizon: horizon)
    }

    /// Every event ahead, soonest first. `landings`: recent landings, for the runway in use
    /// at airport places (`Landing.runway`).
    public static func predictions(_ inputs: [Input], places: [PlaceRecord], matcher: WatchlistMatcher, now: Double,
                                   landings: [Landing] = [], horizon: Double = 7200) -> [EtaPrediction] {
        var out: [EtaPrediction] = []
        for input in inputs {
            let motion = input.motion, o = input.observation
            guard now - motion.time <= maximumPositionAge, !motion.onGround else { continue }
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
                if place.airport != nil,
                   let arrival = Prediction.arrival(motion, at: place.coordinate, elevation: place.altitude ?? 0,
                                                    runway: Landing.runway(at: place.coordinate, in: landings, now: now)) {
                    add(place, .arrival, time: arrival.time, distance: arrival.distance, point: place.coordinate)
                }
            }
        }
        return out.sorted { ($0.time, $0.address) < ($1.time, $1.address) }
    }

    /// The inputs of an `aircraft.json` document (FlyTracker's, readsb's or dump1090-fa's):
    /// its `now` and every aircraft with `lat`, `lon`, `track` and `gs` (`seen_pos` dates the
    /// position; `r`, `t`, `flight` and `hex` identify it for the watch rules).
    public static func inputs(aircraftJSON data: Data) throws -> (now: Double, inputs: [Input]) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let now = (root["now"] as? NSNumber)?.doubleValue,
              let list = root["aircraft"] as? [[String: Any]] else {
            throw StoreError(description: "not an aircraft.json document (an object with \"now\" and \"aircraft\")")
        }
        func number(_ e: [String: Any], _ key: String) -> Double? { (e[key] as? NSNumber)?.doubleValue }
        var out: [Input] = []
        for e in list {
            guard let hex = e["hex"] as? String, let address = UInt32(hex.hasPrefix("~") ? String(hex.dropFirst()) : hex, radix: 16),
                  let lat = number(e, "lat"), let lon = number(e, "lon"), let track = number(e, "track"), let gs = number(e, "gs"),
                  (-90...90).contains(lat), (-180...180).contains(lon) else { continue }
            let onGround = (e["alt_baro"] as? String) == "ground"
            let altitude = number(e, "alt_baro").map { Int($0) } ?? number(e, "alt_geom").map { Int($0) }
            let time = now - (number(e, "seen_pos") ?? 0)
            let callsign = (e["flight"] as? String)?.trimmingCharacters(in: .whitespaces)
            let position = Coordinate(latitude: lat, longitude: lon)
            let o = Observation(key: address, callsign: callsign?.isEmpty == false ? callsign : nil, registration: e["r"] as? String,
                                typeCode: e["t"] as? String, altitude: altitude, position: position, positionTime: time, track: track,
                                groundSpeed: gs, lastSeen: now - (number(e, "seen") ?? 0))
            let m = MotionState(position: position, time: time, track: track, groundSpeed: gs, turnRate: number(e, "track_rate"),
                                altitude: altitude, verticalRate: (number(e, "baro_rate") ?? number(e, "geom_rate")).map { Int($0) },
                                onGround: onGround)
            out.append(Input(observation: o, motion: m))
        }
        return (now, out)
    }

    /// "in 7 min", "at 14:32" or "in 7 min (14:32)" for an event at `time` seen at `now`
    /// (clock times in `timeZone`).
    public static func when(_ time: Double, now: Double, format: TimeFormat, timeZone: TimeZone = .current,
                            language: String = MessageCatalogues.english) -> String {
        let texts = MessageCatalogues.shipped
        let minutes = max(0, Int(((time - now) / 60).rounded()))
        let relative = minutes == 0 ? texts.text("time.now", language: language) : texts.text("time.inMinutes", language: language, ["n": "\(minutes)"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: time))
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        switch format {
        case .minutes: return relative
        case .clock: return texts.text("time.at", language: language, ["clock": clock])
        case .both: return texts.text("time.both", language: language, ["relative": relative, "clock": clock])
        }
    }

    /// What a reminder says, in the user's units and language: "KLM1234 lands at Schiphol in
    /// 10 min (14:32)" (`reminder.lands`, `reminder.passes`).
    public static func note(_ p: EtaPrediction, now: Double, format: TimeFormat, timeZone: TimeZone = .current,
                            units: Units = .aeronautical, language: String = MessageCatalogues.english) -> String {
        MessageCatalogues.shipped.text(p.event == .arrival ? "reminder.lands" : "reminder.passes", language: language, [
            "who": p.callsign ?? p.registration ?? p.hex, "place": p.placeName, "distance": units.distance(p.distance),
            "when": when(p.time, now: now, format: format, timeZone: timeZone, language: language),
        ])
    }
}
