/// The field catalogue: every value a message can give about an aircraft, declared once.
///
/// A field's number (its raw value) is its slot in `FieldSet` and in the aircraft table's
/// storage; its `declaration` gives its JSON key, value type, unit, how long the table keeps
/// it and how aircraft.json writes it. The order of the cases is the order every JSON output
/// writes its keys in (aircraft.json's, as readsb writes them, with the per-message fields of
/// `decode` after them).
///
/// Adding a field: one case here, its declaration below, its typed name in `FieldKeys`, and
/// the line of the message decoder that sets it. `FieldCatalogueTests` lists the catalogue
/// against every output.
public enum Field: UInt8, CaseIterable, Sendable, Comparable {
    case flight
    case altBaro, altGeom, geomDelta
    case gs, ias, tas, mach
    case track, trackRate, roll, magHeading, trueHeading
    case baroRate, geomRate
    case squawk, emergency, category
    case navQNH, navAltitudeMCP, navAltitudeFMS, navHeading, navModes
    case lat, lon, nic
    case cprFormat, cprLat, cprLon, onGround
    case version, nicBaro, nacP, nacV, sil, silType, gva, sda
    case alert, spi
    case windSpeed, windDirection, oat, staticPressure, humidity
    case ca, fs, dr, um, vs, iid, signal

    /// Storage slots `FieldSet` and the aircraft table reserve (at least `allCases.count`):
    /// the size of their `InlineArray`s, which take it as a literal (`FieldSet.slots`,
    /// `Aircraft.fieldSlots` and `fieldSources`). `FieldCatalogueTests` checks the count.
    @inlinable public static var capacity: Int { 56 }

    public static func < (a: Field, b: Field) -> Bool { a.rawValue < b.rawValue }

    /// This field's presence bit in a 64-bit set.
    @inlinable public var bit: UInt64 { 1 &<< UInt64(rawValue) }

    /// The declaration of every field (units as DESIGN.md: ft, kt, degrees, ft/min, hPa, °C).
    public var declaration: FieldDeclaration {
        switch self {
        // Identity. Callsign: ADS-B identification (DO-260B §2.2.3.2.5) or Comm-B 2,0.
        case .flight: .init("flight", String.self, expiry: .identity, json: .padded)
        // Altitude: ES position / Mode S AC field (Doc 9871 §3.1.2.6.5.4); GNSS minus baro from velocity.
        case .altBaro: .init("alt_baro", Int.self, .feet, expiry: .state, json: .altitude)
        case .altGeom: .init("alt_geom", Int.self, .feet, expiry: .state, json: .plain)
        case .geomDelta: .init("geom_delta", Int.self, .feet, expiry: .state)
        // Speeds: ES velocity (DO-260B §2.2.3.2.6), Comm-B 5,0 and 6,0.
        case .gs: .init("gs", Double.self, .knots, expiry: .state, json: .rounded(1))
        case .ias: .init("ias", Int.self, .knots, expiry: .state, json: .plain)
        case .tas: .init("tas", Int.self, .knots, expiry: .state, json: .plain)
        case .mach: .init("mach", Double.self, .mach, expiry: .state, json: .rounded(3))
        // Angles and rates.
        case .track: .init("track", Double.self, .degrees, expiry: .state, json: .rounded(2))
        case .trackRate: .init("track_rate", Double.self, .degreesPerSecond, expiry: .state, json: .rounded(2))
        case .roll: .init("roll", Double.self, .degrees, expiry: .state, json: .rounded(2))
        case .magHeading: .init("mag_heading", Double.self, .degrees, expiry: .state, json: .rounded(2))
        case .trueHeading: .init("true_heading", Double.self, .degrees, expiry: .state, json: .rounded(2))
        case .baroRate: .init("baro_rate", Int.self, .feetPerMinute, expiry: .state, json: .plain)
        case .geomRate: .init("geom_rate", Int.self, .feetPerMinute, expiry: .state, json: .plain)
        // Identity codes: Mode A (Doc 9871 §3.1.2.6.7.1), emergency state (TC28), emitter category.
        case .squawk: .init("squawk", UInt16.self, expiry: .identity, json: .plain)
        case .emergency: .init("emergency", Emergency.self, expiry: .state, json: .plain)
        case .category: .init("category", EmitterCategory.self, expiry: .identity, json: .plain)
        // Intent: target state and status (DO-260B §2.2.3.2.7.1), Comm-B 4,0.
        case .navQNH: .init("nav_qnh", Double.self, .hectopascals, expiry: .state, json: .rounded(1))
        case .navAltitudeMCP: .init("nav_altitude_mcp", Int.self, .feet, expiry: .state, json: .plain)
        case .navAltitudeFMS: .init("nav_altitude_fms", Int.self, .feet, expiry: .state, json: .plain)
        case .navHeading: .init("nav_heading", Double.self, .degrees, expiry: .state, json: .rounded(2))
        case .navModes: .init("nav_modes", NavModes.self, expiry: .state, json: .plain)
        // Position: the table decodes it from CPR (aircraft.json writes its position block here).
        case .lat: .init("lat", Double.self, .degrees, expiry: .position, kept: .byTable, json: .position)
        case .lon: .init("lon", Double.self, .degrees, expiry: .position, kept: .byTable, json: .position)
        case .nic: .init("nic", Int.self, expiry: .position, kept: .byTable, json: .position)
        case .cprFormat: .init("cpr_format", CPRFormat.self, expiry: .message, kept: .no)
        case .cprLat: .init("cpr_lat", Int.self, expiry: .message, kept: .no)
        case .cprLon: .init("cpr_lon", Int.self, expiry: .message, kept: .no)
        case .onGround: .init("on_ground", Bool.self, expiry: .state)
        // Quality: operational status (DO-260B §2.2.3.2.7.2), velocity's NACv.
        case .version: .init("version", Int.self, expiry: .state, json: .plain)
        case .nicBaro: .init("nic_baro", Int.self, expiry: .state, json: .plain)
        case .nacP: .init("nac_p", Int.self, expiry: .state, json: .plain)
        case .nacV: .init("nac_v", Int.self, expiry: .state, json: .plain)
        case .sil: .init("sil", Int.self, expiry: .state, json: .plain)
        case .silType: .init("sil_type", SILType.self, expiry: .state, json: .plain)
        case .gva: .init("gva", Int.self, expiry: .state, json: .plain)
        case .sda: .init("sda", Int.self, expiry: .state, json: .plain)
        // Flight status bits of surveillance replies (Doc 9871 §3.1.2.6.5.1).
        case .alert: .init("alert", Bool.self, expiry: .state, json: .bit)
        case .spi: .init("spi", Bool.self, expiry: .state, json: .bit)
        // Meteorology: Comm-B 4,4 and 4,5.
        case .windSpeed: .init("ws", Int.self, .knots, expiry: .weather, json: .plain)
        case .windDirection: .init("wd", Double.self, .degrees, expiry: .weather, json: .rounded(0))
        case .oat: .init("oat", Double.self, .celsius, expiry: .weather, json: .rounded(2))
        case .staticPressure: .init("static_pressure", Int.self, .hectopascals, expiry: .weather)
        case .humidity: .init("humidity", Double.self, .percent, expiry: .weather)
        // Per-message fields of the reply formats (Doc 9871 §3.1.2.5.2, §3.1.2.8.2).
        case .ca: .init("ca", Int.self, expiry: .message, kept: .no)
        case .fs: .init("fs", Int.self, expiry: .message, kept: .no)
        case .dr: .init("dr", Int.self, expiry: .message, kept: .no)
        case .um: .init("um", Int.self, expiry: .message, kept: .no)
        case .vs: .init("vs", Int.self, expiry: .message, kept: .no)
        case .iid: .init("iid", Int.self, expiry: .message, kept: .no)
        case .signal: .init("signal", Double.self, .dBFS, expiry: .message, kept: .no)
        }
    }
}

/// What the catalogue says about one field.
public struct FieldDeclaration: Sendable {
    /// The JSON key: readsb/dump1090 aircraft.json's name where it has the field (DESIGN.md).
    public let key: String
    /// The Swift type of the value (`FieldKeys` names the field with it).
    public let type: any FieldValue.Type
    public let unit: FieldUnit?
    /// How long the aircraft table shows the value after it was received.
    public let expiry: FieldExpiryClass
    /// Whether the aircraft table keeps the value a message carries.
    public let kept: FieldKeeping
    /// How aircraft.json (and `/api/aircraft`) writes the table's value; nil: it does not.
    public let json: AircraftJSONStyle?

    init(_ key: String, _ type: any FieldValue.Type, _ unit: FieldUnit? = nil, expiry: FieldExpiryClass,
         kept: FieldKeeping = .fromMessages, json: AircraftJSONStyle? = nil) {
        self.key = key
        self.type = type
        self.unit = unit
        self.expiry = expiry
        self.kept = kept
        self.json = json
    }
}

/// Units of the catalogue's values.
public enum FieldUnit: String, Sendable {
    case feet = "ft", knots = "kt", mach, degrees = "deg", degreesPerSecond = "deg/s"
    case feetPerMinute = "ft/min", hectopascals = "hPa", celsius = "°C", percent = "%", dBFS
}

/// How long the table shows a field after its last update (`Tracking.FieldExpiry` gives
/// the seconds of each class; readsb's figures by default).
public enum FieldExpiryClass: Sendable {
    /// Callsign, category, squawk.
    case identity
    /// Altitude, speeds, angles, rates, intent, quality.
    case state
    /// The decoded position and its integrity.
    case position
    /// Comm-B meteorology.
    case weather
    /// Describes one message only; the table does not keep it.
    case message
}

/// Whether and how the aircraft table keeps a field.
public enum FieldKeeping: Sendable {
    /// The value of the best recent source's latest message (`Tracked.put`'s rule, with
    /// sources ranked ADS-B > ADS-R > TIS-B > Mode S > Comm-B while the better one is fresh).
    case fromMessages
    /// The table works it out itself (the position from CPR pairs, its NIC).
    case byTable
    /// Not kept: it describes one message.
    case no
}

/// How aircraft.json writes a field's value.
public enum AircraftJSONStyle: Sendable, Equatable {
    /// As the value is (integers, strings, lists).
    case plain
    /// A number rounded half away from zero to this many decimals.
    case rounded(Int)
    /// A flag as 0 or 1.
    case bit
    /// A callsign padded with spaces to 8 characters.
    case padded
    /// Barometric altitude, or `"ground"` while the aircraft is on the ground.
    case altitude
    /// Part of the position block (`lat`, `lon`, `nic`, `rc`, `seen_pos`, `r_dst`, `r_dir`),
    /// written where its first field is.
    case position
}
