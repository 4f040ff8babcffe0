import Feeds
import ModeS
import Tracking

/// The JSON bodies of the `/api` endpoints. Aircraft objects are aircraft.json's
/// (`Feeds.AircraftJSON.object`) plus `operator` (database owner/operator, else the airline
/// of the callsign), `country` (of the ICAO address) and `military`.
public enum APIDocuments {
    /// `GET /api/aircraft`: `{"now", "time", "count", "total", "aircraft": [...]}`; `total` is
    /// the number of aircraft shown before filtering.
    public static func aircraftList(_ snapshot: TableSnapshot, matching parameters: AircraftQueryParameters, now: Double) -> String {
        var found = snapshot.filter(parameters.query)
        if let limit = parameters.limit, found.count > limit { found = Array(found.prefix(limit)) }
        var w = JSONWriter()
        w.add("now", now, decimals: 1)
        w.add("time", snapshot.time, decimals: 1)
        w.add("count", found.count)
        w.add("total", snapshot.count)
        w.addRaw("aircraft", JSONWriter.array(found.map { object($0, at: snapshot.time) }))
        return w.finish()
    }

    /// `GET /api/aircraft/{hex}`: `{"now", "aircraft": {...}, "track": [{"time", "lat", "lon", "alt"?}, ...]}`.
    public static func aircraftDetail(_ aircraft: Aircraft, track: [TrackPoint], at time: Double, now: Double) -> String {
        var w = JSONWriter()
        w.add("now", now, decimals: 1)
        w.addRaw("aircraft", object(aircraft, at: time))
        w.addRaw("track", JSONWriter.array(track.map(point)))
        return w.finish()
    }

    /// `GET /api/trails`: `{"time", "trails": {"<hex>": [[lat, lon, alt|null], ...]}}`.
    public static func trails(_ trails: [AircraftKey: [TrackPoint]], time: Double) -> String {
        var inner = JSONWriter()
        for (key, points) in trails.sorted(by: { $0.key < $1.key }) {
            let list = points.map { p in
                "[\(JSONWriter.rounded(p.position.latitude, 5)),\(JSONWriter.rounded(p.position.longitude, 5)),\(p.altitude.map(String.init) ?? "null")]"
            }
            inner.addRaw(key.hex, "[" + list.joined(separator: ",") + "]")
        }
        var w = JSONWriter()
        w.add("time", time, decimals: 1)
        w.addRaw("trails", inner.finish())
        return w.finish()
    }

    /// One aircraft: aircraft.json's object plus the API extras.
    public static func object(_ a: Aircraft, at time: Double) -> String {
        var w = JSONWriter()
        AircraftJSON.write(a, at: time, into: &w)
        w.add("operator", a.operatorName)
        w.add("country", a.country?.name)
        w.add("military", a.isMilitary)
        return w.finish()
    }

    static func point(_ p: TrackPoint) -> String {
        var w = JSONWriter()
        w.add("time", p.time, decimals: 1)
        w.add("lat", p.position.latitude, decimals: 6)
        w.add("lon", p.position.longitude, decimals: 6)
        w.add("alt", p.altitude)
        return w.finish()
    }
}
