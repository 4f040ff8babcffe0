/// The flat set of decoded values of one message, keyed as DESIGN.md and readsb's
/// `aircraft.json` name them. Every decoder contributes the fields its message carries;
/// a field is nil when the message does not carry it. This key set is a contract: the
/// `decode` command, the HTTP API and the aircraft table all read it.
///
/// It holds no heap storage on the hot path (callsigns are small strings, lists are bit sets).
public struct FieldSet: Hashable, Sendable {
    // Identity
    /// 24-bit address (ICAO or other, see `addressType`).
    public var address: UInt32?
    /// What kind of address `address` is.
    public var addressType: AddressType?
    /// Downlink format.
    public var df: Int?
    /// ADS-B format type code.
    public var tc: Int?
    /// The register the message carries (ADS-B messages map to their BDS too).
    public var bds: BDS?
    /// Callsign, trimmed.
    public var flight: String?
    /// Emitter category such as A3.
    public var category: EmitterCategory?

    // Altitude (ft), speeds (kt), angles (degrees), rates (ft/min)
    public var altBaro: Int?
    public var altGeom: Int?
    /// Difference GNSS − baro altitude, ft (TC19).
    public var geomDelta: Int?
    public var gs: Double?
    public var ias: Int?
    public var tas: Int?
    public var mach: Double?
    public var track: Double?
    public var magHeading: Double?
    public var trueHeading: Double?
    public var roll: Double?
    /// Degrees per second.
    public var trackRate: Double?
    public var baroRate: Int?
    public var geomRate: Int?

    // Identity codes and intent
    /// Mode A code as 12 bits (A4 A2 A1 B4 … D1), printed as 4 octal digits.
    public var squawk: UInt16?
    public var emergency: Emergency?
    /// Alert flag from the flight status (squawk changed).
    public var alert: Bool?
    /// Special position identification.
    public var spi: Bool?
    /// hPa.
    public var navQNH: Double?
    public var navAltitudeMCP: Int?
    public var navAltitudeFMS: Int?
    public var navHeading: Double?
    public var navModes: NavModes?

    // Position
    public var lat: Double?
    public var lon: Double?
    public var cprFormat: CPRFormat?
    public var cprLat: Int?
    public var cprLon: Int?
    public var onGround: Bool?

    // Quality
    public var nic: Int?
    public var nacP: Int?
    public var nacV: Int?
    public var sil: Int?
    public var silType: SILType?
    public var gva: Int?
    public var sda: Int?
    public var nicBaro: Int?
    public var version: Int?

    // Meteorology (Comm-B 4,4 / 4,5)
    /// Wind speed, kt.
    public var windSpeed: Int?
    /// Wind direction (from), degrees true.
    public var windDirection: Double?
    /// Outside air temperature, °C.
    public var oat: Double?
    /// Static air pressure, hPa.
    public var staticPressure: Int?
    /// Relative humidity, %.
    public var humidity: Double?

    // Per-message extras
    public var crc: CRCOutcome?
    public var ca: Int?
    public var fs: Int?
    public var dr: Int?
    public var um: Int?
    public var iid: Int?
    public var vs: Int?
    /// dBFS.
    public var signal: Double?

    public init() {}
}

/// How the frame passed the parity check.
public enum CRCOutcome: Hashable, Sendable {
    /// Parity matched as received.
    case ok
    /// Parity matched after inverting this many bits.
    case corrected(bits: Int)
    /// An address/parity format: the address is the CRC remainder.
    case parity
}

/// What kind of 24-bit address a message carries (FORMATS.md aircraft.json `type`).
public enum AddressType: String, Sendable, Hashable {
    /// ADS-B from a Mode S transponder (DF17).
    case adsbICAO = "adsb_icao"
    /// ADS-B from a non-transponder device with an ICAO address (DF18 CF0).
    case adsbICAONonTransponder = "adsb_icao_nt"
    /// ADS-B rebroadcast of a UAT or other-link target with an ICAO address (DF18 CF6 IMF0).
    case adsrICAO = "adsr_icao"
    /// TIS-B target with an ICAO address (DF18 CF2/3 IMF0).
    case tisbICAO = "tisb_icao"
    /// ADS-B or ADS-R with a non-ICAO (anonymous, self-assigned) address.
    case adsbOther = "adsb_other"
    /// TIS-B target with a track-file number or other non-ICAO address.
    case tisbOther = "tisb_other"
    /// A Mode S reply (DF0/4/5/11/16/20/21).
    case modeS = "mode_s"

    /// True when the address is an ICAO 24-bit aircraft address.
    public var isICAO: Bool { self != .adsbOther && self != .tisbOther }
}

/// Even or odd CPR encoding (the F bit).
public enum CPRFormat: String, Sendable, Hashable {
    case even, odd
}

/// A Comm-B data selector / register number, written `"4,0"`.
public struct BDS: Hashable, Sendable, CustomStringConvertible {
    /// First digit (BDS1), 0–15.
    public let major: UInt8
    /// Second digit (BDS2), 0–15.
    public let minor: UInt8
    public init(_ major: UInt8, _ minor: UInt8) { self.major = major; self.minor = minor }
    public var description: String { "\(String(major, radix: 16, uppercase: true)),\(String(minor, radix: 16, uppercase: true))" }
}
