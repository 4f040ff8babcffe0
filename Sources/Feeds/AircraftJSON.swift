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
        write(a, at: time, roughPosition: roughPosition, into: &w)
        return w.finish()
    }

    /// Writes one aircraft's keys into `w` (which callers may extend, as the API does).
    public static func write(_ a: Aircraft, at time: Double, roughPosition: Coordinate? = nil, into w: inout JSONWriter) {
        w.add("hex", a.key.hex)
        w.add("type", a.addressType.value.rawValue)
        let present = a.fieldPresence
        columns.withUnsafeBufferPointer { columns in
            for i in columns.indices {
                let field = columns[i].field
                if present & field.bit != 0 || columns[i].writer.isAlwaysTried {
                    write(columns[i], of: a, at: time, roughPosition: roughPosition, into: &w)
                }
                // readsb writes the aircraft database's fields after the callsign.
                if field == .flight { writeDatabaseFields(a, into: &w) }
            }
        }
        w.add("mlat", [String]())
        w.add("tisb", tisbFields(a))
        w.add("messages", a.messages)
        w.add("seen", max(0, time - a.lastSeen), decimals: 1)
        w.add("rssi", a.rssi, decimals: 1)
        if !a.heardBy.isEmpty { w.addRaw("receivers", receivers(a, at: time)) }
    }

    /// A catalogue field aircraft.json writes, read once from its declaration.
    struct Column: Sendable {
        let field: Field
        let key: String
        let writer: Writer

        /// How a column's slot becomes JSON: its declared style and value type, in one switch.
        enum Writer: Sendable {
            case int, double, bit, padded, altitude, position
            case rounded(Int)
            case whole
            case value(any FieldValue.Type)

            /// Tried even when the aircraft has no value: `"ground"`, `rr_lat`/`rr_lon`.
            var isAlwaysTried: Bool {
                switch self {
                case .altitude, .position: true
                default: false
                }
            }
        }

        init(_ field: Field, _ d: FieldDeclaration, style: AircraftJSONStyle) {
            self.field = field
            key = d.key
            switch style {
            case .position: writer = .position
            case .altitude: writer = .altitude
            case .bit: writer = .bit
            case .padded: writer = .padded
            case .rounded(0): writer = .whole
            case .rounded(let decimals): writer = .rounded(decimals)
            case .plain where d.type == Int.self: writer = .int
            case .plain where d.type == Double.self: writer = .double
            case .plain: writer = .value(d.type)
            }
        }
    }

    /// The catalogue's aircraft.json fields in its order.
    static let columns: [Column] = Field.allCases.compactMap { field in
        let d = field.declaration
        return d.json.map { Column(field, d, style: $0) }
    }

    @inline(__always)
    static func write(_ column: Column, of a: Aircraft, at time: Double, roughPosition: Coordinate?, into w: inout JSONWriter) {
        let bits = a.bits(of: column.field)
        switch column.writer {
        case .position:
            guard column.field == .lat else { return }  // the block is written once, at its first field
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
        case .altitude:
            if a.isOnGround { w.add(column.key, "ground") } else { w.add(column.key, bits.map { Int(fieldBits: $0) }) }
        case .int: w.add(column.key, bits.map { Int(fieldBits: $0) })
        case .double: w.add(column.key, bits.map { Double(fieldBits: $0) })
        case .rounded(let decimals): w.add(column.key, bits.map { Double(fieldBits: $0) }, decimals: decimals)
        case .whole: w.add(column.key, bits.map { Int(Double(fieldBits: $0).rounded()) })
        case .bit: w.add(column.key, bits.map { $0 != 0 ? 1 : 0 })
        case .padded: w.add(column.key, bits.map { paddedCallsign(String(fieldBits: $0)) })
        case .value(let type): if let bits { w.add(column.key, type.init(fieldBits: bits).fieldJSON) }
        }
    }

    /// The aircraft database's `r`, `t`, `desc`, `ownOp`, `year`, `dbFlags` (the registration
    /// computed from the address when the database has none).
    static func writeDatabaseFields(_ a: Aircraft, into w: inout JSONWriter) {
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
        let fromTISB = a.fields(from: .tisb)
        guard fromTISB != 0 else { return [] }
        var names: [String] = []
        for column in columns where fromTISB & column.field.bit != 0 { names.append(column.key) }
        return names
    }
}
