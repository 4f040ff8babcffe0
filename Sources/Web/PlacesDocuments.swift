import Feeds
import Foundation
import Localization
import Store
import Services

/// The JSON of places, reminders and predictions: the API's (`PlacesController`) and the
/// CLI's `--json`.
public enum PlacesDocuments {
    public static func place(_ p: PlaceRecord) -> String {
        var w = JSONWriter()
        w.add("id", p.id.map { Int($0) })
        w.add("name", p.name)
        w.add("lat", p.latitude, decimals: 6)
        w.add("lon", p.longitude, decimals: 6)
        w.add("alt", p.altitude)
        w.add("radius_nm", p.radius, decimals: 3)
        w.add("radius_km", p.radius * 1.852, decimals: 3)
        w.add("airport", p.airport)
        if p.id == nil { w.add("receiver", true) }
        return w.finish()
    }

    public static func reminder(_ r: ReminderRecord) -> String {
        var w = JSONWriter()
        w.add("id", r.id.map { Int($0) })
        w.add("place_id", r.placeId.map { Int($0) })
        w.add("rule_id", r.watchRuleId.map { Int($0) })
        w.add("event", r.event.rawValue)
        w.add("minutes", r.leadMinutes)
        return w.finish()
    }

    /// `{now, time_format, predictions: [{hex, flight, r, t, place_id, place, event, time,
    /// in_seconds, when, distance_nm, distance, lat, lon, rules}]}`, soonest first; `when` in
    /// `language`, `distance` in `units` (`7.4 km`).
    public static func eta(_ predictions: [EtaPrediction], now: Double, format: TimeFormat, timeZone: TimeZone = .current,
                           language: String = MessageCatalogues.english, units: Units = .aeronautical) -> String {
        let items = predictions.map { p -> String in
            var w = JSONWriter()
            w.add("hex", p.hex)
            w.add("flight", p.callsign)
            w.add("r", p.registration)
            w.add("t", p.typeCode)
            w.add("place_id", p.placeId.map { Int($0) })
            w.add("place", p.placeName)
            w.add("event", p.event.rawValue)
            w.add("time", p.time, decimals: 1)
            w.add("in_seconds", p.time - now, decimals: 1)
            w.add("when", EtaBoard.when(p.time, now: now, format: format, timeZone: timeZone, language: language))
            w.add("distance_nm", p.distance, decimals: 2)
            w.add("distance", units.distance(p.distance))
            w.add("lat", p.point.latitude, decimals: 5)
            w.add("lon", p.point.longitude, decimals: 5)
            w.addRaw("rules", JSONWriter.array(p.ruleIds.map { String($0) }))
            return w.finish()
        }
        var w = JSONWriter()
        w.add("now", now, decimals: 1)
        w.add("time_format", format.rawValue)
        w.addRaw("predictions", JSONWriter.array(items))
        return w.finish()
    }
}
