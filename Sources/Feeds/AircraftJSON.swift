import ModeS
import Tracking

/// `aircraft.json` as dump1090-fa and readsb write it (FORMATS.md), from a table snapshot:
///
/// `{"now": <epoch s>, "messages": <total>, "aircraft": [ {…}, … ]}`
///
/// One object per shown (reliable) aircraft, in key order, a key left out when unknown:
/// `hex` (`~` for non-ICAO), `type`, `flight` (8 characters, space padded), database fields
/// `r`, `t`, `desc`, `ownOp`, `year`, `dbFlags`, `alt_baro` (ft or `"ground"`), `alt_geom`,
/// speeds, angles, rates, `squawk`, `emergency`, `category`, intent, `lat`/`lon`, `nic`,
/// `rc`, `seen_pos` (or readsb's `rr_lat`/`rr_lon`, the receiver's position to 0.1°, for an
/// aircraft with none), quality indicators, `alert`/`spi` (flight status bits, 0 or 1),
/// `mlat`/`tisb` (field names from those sources),
/// `messages`, `seen`, `rssi`, FlyTracker's `receivers` (an aggregator's hearing receivers), and readsb's `r_dst`/`r_dir` (NM/degrees from the receiver)
/// and Comm-B `ws`/`wd`/`oat`. Ages (`seen`, `seen_pos`) are on the snapshot's time base;
/// `now` is wall-clock time.
public enum AircraftJSON {
    /// The whole document. `now`: Unix time in seconds; `messages`: the total to report
    /// (default: messages the table applied).
    public static func document(_ snapshot: TableSnapshot, now: Double, messages: UInt64? = nil) -> String {
        var w = JSONWriter()
        w.add("now", now, decimals: 1)
        w.add("messages", Int(clamping: messages ?? snapshot.counters.messages))
        let rough = snapshot.receiverPosition(configured: nil)
        w.addRaw("aircraft", JSONWriter.array(snapshot.aircraft.map { object($0, at: snapshot.time, roughPosition: rough) }))
        return w.finish()
    }

    /// One aircraft's object; `time` is the snapshot's time (for ages). `roughPosition`: the
    /// receiver's position, written as `rr_lat`/`rr_lon` when the aircraft has none.
    public static func object(_ a: Aircraft, at time: Double, roughPosition: Coordinate? = nil) -> String {
        var w = JSONWriter()
        w.add("hex", a.key.hex)
        w.add("type", a.addressType.value.rawValue)
        w.add("flight", a.flight.map { paddedCallsign($0.value) })
        if let info = a.info {
            w.add("r", info.registration ?? a.registration)
            w.add("t", info.typeCode)
            w.add("desc", info.typeDescription)
            w.add("ownOp", info.ownerOperator)
            w.add("year", info.year)
            if info.flags.rawValue != 0 { w.add("dbFlags", info.flags.rawValue) }
        } else {
            w.add("r", a.registration)
        }
        if a.isOnGround {
            w.add("alt_baro", "ground")
        } else {
            w.add("alt_baro", a.altBaro?.value)
        }
        w.add("alt_geom", a.altGeom?.value)
        w.add("gs", a.gs?.value, decimals: 1)
        w.add("ias", a.ias?.value)
        w.add("tas", a.tas?.value)
        w.add("mach", a.mach?.value, decimals: 3)
        w.add("track", a.track?.value, decimals: 2)
        w.add("track_rate", a.trackRate?.value, decimals: 2)
        w.add("roll", a.roll?.value, decimals: 2)
        w.add("mag_heading", a.magHeading?.value, decimals: 2)
        w.add("true_heading", a.trueHeading?.value, decimals: 2)
        w.add("baro_rate", a.baroRate?.value)
        w.add("geom_rate", a.geomRate?.value)
        w.add("squawk", a.squawkString)
        w.add("emergency", a.emergency?.value.description)
        w.add("category", a.category?.value.description)
        w.add("nav_qnh", a.navQNH?.value, decimals: 1)
        w.add("nav_altitude_mcp", a.navAltitudeMCP?.value)
        w.add("nav_altitude_fms", a.navAltitudeFMS?.value)
        w.add("nav_heading", a.navHeading?.value, decimals: 2)
        w.add("nav_modes", a.navModes?.value.names)
        if let p = a.position {
            w.add("lat", p.value.latitude, decimals: 6)
            w.add("lon", p.value.longitude, decimals: 6)
            w.add("nic", a.nic?.value)
            w.add("rc", a.rc?.value)
            w.add("seen_pos", max(0, time - p.time), decimals: 1)
            w.add("r_dst", a.distance, decimals: 3)
            w.add("r_dir", a.bearing, decimals: 1)
        } else if let rough = roughPosition {
            w.add("rr_lat", rough.latitude, decimals: 1)
            w.add("rr_lon", rough.longitude, decimals: 1)
        }
        w.add("version", a.version?.value)
        w.add("nic_baro", a.nicBaro?.value)
        w.add("nac_p", a.nacP?.value)
        w.add("nac_v", a.nacV?.value)
        w.add("sil", a.sil?.value)
        w.add("sil_type", a.silType?.value.rawValue)
        w.add("gva", a.gva?.value)
        w.add("sda", a.sda?.value)
        w.add("alert", a.alert.map { $0.value ? 1 : 0 })
        w.add("spi", a.spi.map { $0.value ? 1 : 0 })
        w.add("ws", a.windSpeed?.value)
        w.add("wd", a.windDirection.map { Int($0.value.rounded()) })
        w.add("oat", a.oat?.value, decimals: 2)
        w.add("mlat", [String]())
        w.add("tisb", tisbFields(a))
        w.add("messages", a.messages)
        w.add("seen", max(0, time - a.lastSeen), decimals: 1)
        w.add("rssi", a.rssi, decimals: 1)
        if !a.heardBy.isEmpty { w.addRaw("receivers", receivers(a, at: time)) }
        return w.finish()
    }

    /// FlyTracker's `receivers` (aggregator only): each network receiver that hears the
    /// aircraft, strongest first: `id`, `rssi` (last frame, dBFS), `messages`, `seen` (s).
    static func receivers(_ a: Aircraft, at time: Double) -> String {
        let sorted = a.heardBy.sorted { ($0.value.signal ?? -.infinity, $1.key) > ($1.value.signal ?? -.infinity, $0.key) }
        return JSONWriter.array(sorted.map { id, h in
            var w = JSONWriter()
            w.add("id", id.rawValue)
            w.add("rssi", h.signal, decimals: 1)
            w.add("messages", h.messages)
            w.add("seen", max(0, time - h.lastSeen), decimals: 1)
            return w.finish()
        })
    }

    /// A callsign as aircraft.json writes it: 8 characters, padded with spaces.
    public static func paddedCallsign(_ callsign: String) -> String {
        let count = callsign.count
        return count >= 8 ? String(callsign.prefix(8)) : callsign + String(repeating: " ", count: 8 - count)
    }

    /// The aircraft.json names of the fields whose current value came from TIS-B.
    static func tisbFields(_ a: Aircraft) -> [String] {
        var names: [String] = []
        func note(_ name: String, _ source: DataSource?) { if source == .tisb { names.append(name) } }
        note("flight", a.flight?.source)
        note("alt_baro", a.altBaro?.source)
        note("alt_geom", a.altGeom?.source)
        note("gs", a.gs?.source)
        note("track", a.track?.source)
        note("baro_rate", a.baroRate?.source)
        note("geom_rate", a.geomRate?.source)
        note("squawk", a.squawk?.source)
        note("lat", a.position?.source)
        note("lon", a.position?.source)
        return names
    }
}
