/// The flat set of decoded values of one message, keyed as DESIGN.md and readsb's
/// `aircraft.json` name them. Every decoder contributes the fields its message carries;
/// a field is nil when the message does not carry it. This key set is a contract: the
/// `decode` command, the HTTP API and the aircraft table all read it.
///
/// It holds no heap storage on the hot path (callsigns are small strings, lists are bit sets).
public struct FieldSet: Hashable, Sendable {
    // Storage: plain values plus one presence bit each, so the whole set is a fixed-size
    // plain-old-data value (about 300 bytes) that copies with one memcpy and never allocates.
    // A value is zeroed when it is cleared, so synthesized equality compares only what is set.
    var present: UInt64 = 0
    var _address: UInt32 = 0
    var _df: Int32 = 0
    var _tc: Int32 = 0
    var _flight: UInt64 = 0
    var _altBaro: Int32 = 0
    var _altGeom: Int32 = 0
    var _geomDelta: Int32 = 0
    var _gs: Double = 0
    var _ias: Int32 = 0
    var _tas: Int32 = 0
    var _mach: Double = 0
    var _track: Double = 0
    var _magHeading: Double = 0
    var _trueHeading: Double = 0
    var _roll: Double = 0
    var _trackRate: Double = 0
    var _baroRate: Int32 = 0
    var _geomRate: Int32 = 0
    var _squawk: UInt16 = 0
    var _alert: Bool = false
    var _spi: Bool = false
    var _navQNH: Double = 0
    var _navAltitudeMCP: Int32 = 0
    var _navAltitudeFMS: Int32 = 0
    var _navHeading: Double = 0
    var _lat: Double = 0
    var _lon: Double = 0
    var _cprLat: Int32 = 0
    var _cprLon: Int32 = 0
    var _onGround: Bool = false
    var _nic: Int32 = 0
    var _nacP: Int32 = 0
    var _nacV: Int32 = 0
    var _sil: Int32 = 0
    var _gva: Int32 = 0
    var _sda: Int32 = 0
    var _nicBaro: Int32 = 0
    var _version: Int32 = 0
    var _windSpeed: Int32 = 0
    var _windDirection: Double = 0
    var _oat: Double = 0
    var _staticPressure: Int32 = 0
    var _humidity: Double = 0
    var _ca: Int32 = 0
    var _fs: Int32 = 0
    var _dr: Int32 = 0
    var _um: Int32 = 0
    var _iid: Int32 = 0
    var _vs: Int32 = 0
    var _signal: Double = 0

    // Identity
    /// 24-bit address (ICAO or other, see `addressType`).
    public var address: UInt32? {
        get { present & Presence.address != 0 ? _address : nil }
        set { if let v = newValue { _address = v; present |= Presence.address } else { _address = 0; present &= ~Presence.address } }
    }
    /// What kind of address `address` is.
    public var addressType: AddressType?
    /// Downlink format.
    public var df: Int? {
        get { present & Presence.df != 0 ? Int(_df) : nil }
        set { if let v = newValue { _df = Int32(clamping: v); present |= Presence.df } else { _df = 0; present &= ~Presence.df } }
    }
    /// ADS-B format type code.
    public var tc: Int? {
        get { present & Presence.tc != 0 ? Int(_tc) : nil }
        set { if let v = newValue { _tc = Int32(clamping: v); present |= Presence.tc } else { _tc = 0; present &= ~Presence.tc } }
    }
    /// The register the message carries (ADS-B messages map to their BDS too).
    public var bds: BDS?
    /// Callsign, trimmed.
    public var flight: String? {
        get { present & Presence.flight != 0 ? Callsign.unpack(_flight) : nil }
        set { if let v = newValue { _flight = Callsign.pack(v); present |= Presence.flight } else { _flight = 0; present &= ~Presence.flight } }
    }
    /// Emitter category such as A3.
    public var category: EmitterCategory?

    // Altitude (ft), speeds (kt), angles (degrees), rates (ft/min)
    public var altBaro: Int? {
        get { present & Presence.altBaro != 0 ? Int(_altBaro) : nil }
        set { if let v = newValue { _altBaro = Int32(clamping: v); present |= Presence.altBaro } else { _altBaro = 0; present &= ~Presence.altBaro } }
    }
    public var altGeom: Int? {
        get { present & Presence.altGeom != 0 ? Int(_altGeom) : nil }
        set { if let v = newValue { _altGeom = Int32(clamping: v); present |= Presence.altGeom } else { _altGeom = 0; present &= ~Presence.altGeom } }
    }
    /// Difference GNSS − baro altitude, ft (TC19).
    public var geomDelta: Int? {
        get { present & Presence.geomDelta != 0 ? Int(_geomDelta) : nil }
        set { if let v = newValue { _geomDelta = Int32(clamping: v); present |= Presence.geomDelta } else { _geomDelta = 0; present &= ~Presence.geomDelta } }
    }
    public var gs: Double? {
        get { present & Presence.gs != 0 ? _gs : nil }
        set { if let v = newValue { _gs = v; present |= Presence.gs } else { _gs = 0; present &= ~Presence.gs } }
    }
    public var ias: Int? {
        get { present & Presence.ias != 0 ? Int(_ias) : nil }
        set { if let v = newValue { _ias = Int32(clamping: v); present |= Presence.ias } else { _ias = 0; present &= ~Presence.ias } }
    }
    public var tas: Int? {
        get { present & Presence.tas != 0 ? Int(_tas) : nil }
        set { if let v = newValue { _tas = Int32(clamping: v); present |= Presence.tas } else { _tas = 0; present &= ~Presence.tas } }
    }
    public var mach: Double? {
        get { present & Presence.mach != 0 ? _mach : nil }
        set { if let v = newValue { _mach = v; present |= Presence.mach } else { _mach = 0; present &= ~Presence.mach } }
    }
    public var track: Double? {
        get { present & Presence.track != 0 ? _track : nil }
        set { if let v = newValue { _track = v; present |= Presence.track } else { _track = 0; present &= ~Presence.track } }
    }
    public var magHeading: Double? {
        get { present & Presence.magHeading != 0 ? _magHeading : nil }
        set { if let v = newValue { _magHeading = v; present |= Presence.magHeading } else { _magHeading = 0; present &= ~Presence.magHeading } }
    }
    public var trueHeading: Double? {
        get { present & Presence.trueHeading != 0 ? _trueHeading : nil }
        set { if let v = newValue { _trueHeading = v; present |= Presence.trueHeading } else { _trueHeading = 0; present &= ~Presence.trueHeading } }
    }
    public var roll: Double? {
        get { present & Presence.roll != 0 ? _roll : nil }
        set { if let v = newValue { _roll = v; present |= Presence.roll } else { _roll = 0; present &= ~Presence.roll } }
    }
    /// Degrees per second.
    public var trackRate: Double? {
        get { present & Presence.trackRate != 0 ? _trackRate : nil }
        set { if let v = newValue { _trackRate = v; present |= Presence.trackRate } else { _trackRate = 0; present &= ~Presence.trackRate } }
    }
    public var baroRate: Int? {
        get { present & Presence.baroRate != 0 ? Int(_baroRate) : nil }
        set { if let v = newValue { _baroRate = Int32(clamping: v); present |= Presence.baroRate } else { _baroRate = 0; present &= ~Presence.baroRate } }
    }
    public var geomRate: Int? {
        get { present & Presence.geomRate != 0 ? Int(_geomRate) : nil }
        set { if let v = newValue { _geomRate = Int32(clamping: v); present |= Presence.geomRate } else { _geomRate = 0; present &= ~Presence.geomRate } }
    }

    // Identity codes and intent
    /// Mode A code as 12 bits (A4 A2 A1 B4 … D1), printed as 4 octal digits.
    public var squawk: UInt16? {
        get { present & Presence.squawk != 0 ? _squawk : nil }
        set { if let v = newValue { _squawk = v; present |= Presence.squawk } else { _squawk = 0; present &= ~Presence.squawk } }
    }
    public var emergency: Emergency?
    /// Alert flag from the flight status (squawk changed).
    public var alert: Bool? {
        get { present & Presence.alert != 0 ? _alert : nil }
        set { if let v = newValue { _alert = v; present |= Presence.alert } else { _alert = false; present &= ~Presence.alert } }
    }
    /// Special position identification.
    public var spi: Bool? {
        get { present & Presence.spi != 0 ? _spi : nil }
        set { if let v = newValue { _spi = v; present |= Presence.spi } else { _spi = false; present &= ~Presence.spi } }
    }
    /// hPa.
    public var navQNH: Double? {
        get { present & Presence.navQNH != 0 ? _navQNH : nil }
        set { if let v = newValue { _navQNH = v; present |= Presence.navQNH } else { _navQNH = 0; present &= ~Presence.navQNH } }
    }
    public var navAltitudeMCP: Int? {
        get { present & Presence.navAltitudeMCP != 0 ? Int(_navAltitudeMCP) : nil }
        set { if let v = newValue { _navAltitudeMCP = Int32(clamping: v); present |= Presence.navAltitudeMCP } else { _navAltitudeMCP = 0; present &= ~Presence.navAltitudeMCP } }
    }
    public var navAltitudeFMS: Int? {
        get { present & Presence.navAltitudeFMS != 0 ? Int(_navAltitudeFMS) : nil }
        set { if let v = newValue { _navAltitudeFMS = Int32(clamping: v); present |= Presence.navAltitudeFMS } else { _navAltitudeFMS = 0; present &= ~Presence.navAltitudeFMS } }
    }
    public var navHeading: Double? {
        get { present & Presence.navHeading != 0 ? _navHeading : nil }
        set { if let v = newValue { _navHeading = v; present |= Presence.navHeading } else { _navHeading = 0; present &= ~Presence.navHeading } }
    }
    public var navModes: NavModes?

    // Position
    public var lat: Double? {
        get { present & Presence.lat != 0 ? _lat : nil }
        set { if let v = newValue { _lat = v; present |= Presence.lat } else { _lat = 0; present &= ~Presence.lat } }
    }
    public var lon: Double? {
        get { present & Presence.lon != 0 ? _lon : nil }
        set { if let v = newValue { _lon = v; present |= Presence.lon } else { _lon = 0; present &= ~Presence.lon } }
    }
    public var cprFormat: CPRFormat?
    public var cprLat: Int? {
        get { present & Presence.cprLat != 0 ? Int(_cprLat) : nil }
        set { if let v = newValue { _cprLat = Int32(clamping: v); present |= Presence.cprLat } else { _cprLat = 0; present &= ~Presence.cprLat } }
    }
    public var cprLon: Int? {
        get { present & Presence.cprLon != 0 ? Int(_cprLon) : nil }
        set { if let v = newValue { _cprLon = Int32(clamping: v); present |= Presence.cprLon } else { _cprLon = 0; present &= ~Presence.cprLon } }
    }
    public var onGround: Bool? {
        get { present & Presence.onGround != 0 ? _onGround : nil }
        set { if let v = newValue { _onGround = v; present |= Presence.onGround } else { _onGround = false; present &= ~Presence.onGround } }
    }

    // Quality
    public var nic: Int? {
        get { present & Presence.nic != 0 ? Int(_nic) : nil }
        set { if let v = newValue { _nic = Int32(clamping: v); present |= Presence.nic } else { _nic = 0; present &= ~Presence.nic } }
    }
    public var nacP: Int? {
        get { present & Presence.nacP != 0 ? Int(_nacP) : nil }
        set { if let v = newValue { _nacP = Int32(clamping: v); present |= Presence.nacP } else { _nacP = 0; present &= ~Presence.nacP } }
    }
    public var nacV: Int? {
        get { present & Presence.nacV != 0 ? Int(_nacV) : nil }
        set { if let v = newValue { _nacV = Int32(clamping: v); present |= Presence.nacV } else { _nacV = 0; present &= ~Presence.nacV } }
    }
    public var sil: Int? {
        get { present & Presence.sil != 0 ? Int(_sil) : nil }
        set { if let v = newValue { _sil = Int32(clamping: v); present |= Presence.sil } else { _sil = 0; present &= ~Presence.sil } }
    }
    public var silType: SILType?
    public var gva: Int? {
        get { present & Presence.gva != 0 ? Int(_gva) : nil }
        set { if let v = newValue { _gva = Int32(clamping: v); present |= Presence.gva } else { _gva = 0; present &= ~Presence.gva } }
    }
    public var sda: Int? {
        get { present & Presence.sda != 0 ? Int(_sda) : nil }
        set { if let v = newValue { _sda = Int32(clamping: v); present |= Presence.sda } else { _sda = 0; present &= ~Presence.sda } }
    }
    public var nicBaro: Int? {
        get { present & Presence.nicBaro != 0 ? Int(_nicBaro) : nil }
        set { if let v = newValue { _nicBaro = Int32(clamping: v); present |= Presence.nicBaro } else { _nicBaro = 0; present &= ~Presence.nicBaro } }
    }
    public var version: Int? {
        get { present & Presence.version != 0 ? Int(_version) : nil }
        set { if let v = newValue { _version = Int32(clamping: v); present |= Presence.version } else { _version = 0; present &= ~Presence.version } }
    }

    // Meteorology (Comm-B 4,4 / 4,5)
    /// Wind speed, kt.
    public var windSpeed: Int? {
        get { present & Presence.windSpeed != 0 ? Int(_windSpeed) : nil }
        set { if let v = newValue { _windSpeed = Int32(clamping: v); present |= Presence.windSpeed } else { _windSpeed = 0; present &= ~Presence.windSpeed } }
    }
    /// Wind direction (from), degrees true.
    public var windDirection: Double? {
        get { present & Presence.windDirection != 0 ? _windDirection : nil }
        set { if let v = newValue { _windDirection = v; present |= Presence.windDirection } else { _windDirection = 0; present &= ~Presence.windDirection } }
    }
    /// Outside air temperature, °C.
    public var oat: Double? {
        get { present & Presence.oat != 0 ? _oat : nil }
        set { if let v = newValue { _oat = v; present |= Presence.oat } else { _oat = 0; present &= ~Presence.oat } }
    }
    /// Static air pressure, hPa.
    public var staticPressure: Int? {
        get { present & Presence.staticPressure != 0 ? Int(_staticPressure) : nil }
        set { if let v = newValue { _staticPressure = Int32(clamping: v); present |= Presence.staticPressure } else { _staticPressure = 0; present &= ~Presence.staticPressure } }
    }
    /// Relative humidity, %.
    public var humidity: Double? {
        get { present & Presence.humidity != 0 ? _humidity : nil }
        set { if let v = newValue { _humidity = v; present |= Presence.humidity } else { _humidity = 0; present &= ~Presence.humidity } }
    }

    // Per-message extras
    public var crc: CRCOutcome?
    public var ca: Int? {
        get { present & Presence.ca != 0 ? Int(_ca) : nil }
        set { if let v = newValue { _ca = Int32(clamping: v); present |= Presence.ca } else { _ca = 0; present &= ~Presence.ca } }
    }
    public var fs: Int? {
        get { present & Presence.fs != 0 ? Int(_fs) : nil }
        set { if let v = newValue { _fs = Int32(clamping: v); present |= Presence.fs } else { _fs = 0; present &= ~Presence.fs } }
    }
    public var dr: Int? {
        get { present & Presence.dr != 0 ? Int(_dr) : nil }
        set { if let v = newValue { _dr = Int32(clamping: v); present |= Presence.dr } else { _dr = 0; present &= ~Presence.dr } }
    }
    public var um: Int? {
        get { present & Presence.um != 0 ? Int(_um) : nil }
        set { if let v = newValue { _um = Int32(clamping: v); present |= Presence.um } else { _um = 0; present &= ~Presence.um } }
    }
    public var iid: Int? {
        get { present & Presence.iid != 0 ? Int(_iid) : nil }
        set { if let v = newValue { _iid = Int32(clamping: v); present |= Presence.iid } else { _iid = 0; present &= ~Presence.iid } }
    }
    public var vs: Int? {
        get { present & Presence.vs != 0 ? Int(_vs) : nil }
        set { if let v = newValue { _vs = Int32(clamping: v); present |= Presence.vs } else { _vs = 0; present &= ~Presence.vs } }
    }
    /// dBFS.
    public var signal: Double? {
        get { present & Presence.signal != 0 ? _signal : nil }
        set { if let v = newValue { _signal = v; present |= Presence.signal } else { _signal = 0; present &= ~Presence.signal } }
    }

    public init() {}

    /// Sets `flight` from a callsign packed by `Callsign.pack` / `Callsign.decodePacked`.
    public mutating func setFlight(packed: UInt64) {
        _flight = packed
        present |= Presence.flight
    }

    /// One presence bit per stored value.
    enum Presence {
        static let address: UInt64 = 1 << 0
        static let df: UInt64 = 1 << 1
        static let tc: UInt64 = 1 << 2
        static let flight: UInt64 = 1 << 3
        static let altBaro: UInt64 = 1 << 4
        static let altGeom: UInt64 = 1 << 5
        static let geomDelta: UInt64 = 1 << 6
        static let gs: UInt64 = 1 << 7
        static let ias: UInt64 = 1 << 8
        static let tas: UInt64 = 1 << 9
        static let mach: UInt64 = 1 << 10
        static let track: UInt64 = 1 << 11
        static let magHeading: UInt64 = 1 << 12
        static let trueHeading: UInt64 = 1 << 13
        static let roll: UInt64 = 1 << 14
        static let trackRate: UInt64 = 1 << 15
        static let baroRate: UInt64 = 1 << 16
        static let geomRate: UInt64 = 1 << 17
        static let squawk: UInt64 = 1 << 18
        static let alert: UInt64 = 1 << 19
        static let spi: UInt64 = 1 << 20
        static let navQNH: UInt64 = 1 << 21
        static let navAltitudeMCP: UInt64 = 1 << 22
        static let navAltitudeFMS: UInt64 = 1 << 23
        static let navHeading: UInt64 = 1 << 24
        static let lat: UInt64 = 1 << 25
        static let lon: UInt64 = 1 << 26
        static let cprLat: UInt64 = 1 << 27
        static let cprLon: UInt64 = 1 << 28
        static let onGround: UInt64 = 1 << 29
        static let nic: UInt64 = 1 << 30
        static let nacP: UInt64 = 1 << 31
        static let nacV: UInt64 = 1 << 32
        static let sil: UInt64 = 1 << 33
        static let gva: UInt64 = 1 << 34
        static let sda: UInt64 = 1 << 35
        static let nicBaro: UInt64 = 1 << 36
        static let version: UInt64 = 1 << 37
        static let windSpeed: UInt64 = 1 << 38
        static let windDirection: UInt64 = 1 << 39
        static let oat: UInt64 = 1 << 40
        static let staticPressure: UInt64 = 1 << 41
        static let humidity: UInt64 = 1 << 42
        static let ca: UInt64 = 1 << 43
        static let fs: UInt64 = 1 << 44
        static let dr: UInt64 = 1 << 45
        static let um: UInt64 = 1 << 46
        static let iid: UInt64 = 1 << 47
        static let vs: UInt64 = 1 << 48
        static let signal: UInt64 = 1 << 49
    }
}
