import ModeS

/// One aircraft of the table: every field with its value, time and source, plus
/// bookkeeping and the values derived for display. In a `TableSnapshot` expired fields are
/// already nil and the derived values (distance, bearing, registration, airline) are set.
///
/// Units as DESIGN.md: ft, kt, degrees, ft/min, hPa, °C.
public struct Aircraft: Sendable {
    public let key: AircraftKey
    /// The kind of address of the best recent source (aircraft.json `type`).
    public internal(set) var addressType: Tracked<AddressType>
    public internal(set) var firstSeen: Double
    public internal(set) var lastSeen: Double
    /// Messages received from this aircraft.
    public internal(set) var messages: Int = 0
    /// Enough messages arrived close enough together (see `TableConfiguration.reliableAfter`).
    public internal(set) var reliable = false
    /// The receivers of a network that hear this aircraft, and how (empty for frames of
    /// the local radio, which come with no `Hearing`).
    public internal(set) var heardBy: [ReceiverID: ReceiverHearing] = [:]

    // Identity
    var packedCallsign: Tracked<UInt64>?
    public internal(set) var squawk: Tracked<UInt16>?
    public internal(set) var category: Tracked<EmitterCategory>?
    public internal(set) var emergency: Tracked<Emergency>?

    // Altitude, speeds, angles, rates
    public internal(set) var altBaro: Tracked<Int>?
    public internal(set) var altGeom: Tracked<Int>?
    /// GNSS − baro altitude difference from velocity messages.
    public internal(set) var geomDelta: Tracked<Int>?
    public internal(set) var onGround: Tracked<Bool>?
    public internal(set) var gs: Tracked<Double>?
    public internal(set) var ias: Tracked<Int>?
    public internal(set) var tas: Tracked<Int>?
    public internal(set) var mach: Tracked<Double>?
    public internal(set) var track: Tracked<Double>?
    public internal(set) var trackRate: Tracked<Double>?
    public internal(set) var roll: Tracked<Double>?
    public internal(set) var magHeading: Tracked<Double>?
    public internal(set) var trueHeading: Tracked<Double>?
    public internal(set) var baroRate: Tracked<Int>?
    public internal(set) var geomRate: Tracked<Int>?

    // Intent
    public internal(set) var navQNH: Tracked<Double>?
    public internal(set) var navAltitudeMCP: Tracked<Int>?
    public internal(set) var navAltitudeFMS: Tracked<Int>?
    public internal(set) var navHeading: Tracked<Double>?
    public internal(set) var navModes: Tracked<NavModes>?
    public internal(set) var alert: Tracked<Bool>?
    public internal(set) var spi: Tracked<Bool>?

    // Position and quality
    /// The last accepted position (decoded, plausible).
    public internal(set) var position: Tracked<Coordinate>?
    /// Whether `position` came from a surface position message.
    public internal(set) var positionOnSurface = false
    /// NIC and radius of containment (m) of the accepted position.
    public internal(set) var nic: Tracked<Int>?
    public internal(set) var rc: Tracked<Int>?
    public internal(set) var nicBaro: Tracked<Int>?
    public internal(set) var nacP: Tracked<Int>?
    public internal(set) var nacV: Tracked<Int>?
    public internal(set) var sil: Tracked<Int>?
    public internal(set) var silType: Tracked<SILType>?
    public internal(set) var gva: Tracked<Int>?
    public internal(set) var sda: Tracked<Int>?
    /// ADS-B version from the operational status.
    public internal(set) var version: Tracked<Int>?

    // Meteorology (Comm-B 4,4 / 4,5)
    public internal(set) var windSpeed: Tracked<Int>?
    public internal(set) var windDirection: Tracked<Double>?
    public internal(set) var oat: Tracked<Double>?
    public internal(set) var staticPressure: Tracked<Int>?
    public internal(set) var humidity: Tracked<Double>?

    // Derived (set when the aircraft becomes reliable, and in snapshots)
    /// Aircraft database entry, if the table has a database and it knows the address.
    public internal(set) var info: AircraftInfo?
    /// Registration: the database's, else computed from the ICAO address when possible.
    public internal(set) var registration: String?
    /// Airline name from the callsign's ICAO designator (snapshots only).
    public internal(set) var airline: String?
    /// Great-circle distance (NM) and initial bearing (degrees true) from the receiver
    /// (snapshots only, when the receiver position is configured and a position is known).
    public internal(set) var distance: Double?
    public internal(set) var bearing: Double?

    // Internal state
    var recentMessages: Int32 = 0
    var signalPowers = SIMD8<Float>(repeating: 0)
    var signalCount: UInt8 = 0
    var signalNext: UInt8 = 0
    var cpr = CPRState()
    var nicSupplementA: Bool?
    var nicSupplementC: Bool?
    var infoLooked = false

    init(key: AircraftKey, type: AddressType, source: DataSource, time: Double) {
        self.key = key
        addressType = Tracked(type, time: time, source: source)
        firstSeen = time
        lastSeen = time
    }

    /// The 24-bit address.
    public var address: UInt32 { key.address }

    /// Callsign, trimmed.
    public var flight: Tracked<String>? {
        packedCallsign.map { Tracked(Callsign.unpack($0.value), time: $0.time, source: $0.source) }
    }

    /// Mean signal level of the last (up to 8) messages, dBFS, or nil when none had a level.
    public var rssi: Double? {
        guard signalCount > 0 else { return nil }
        var sum: Float = 0
        for i in 0..<Int(signalCount) { sum += signalPowers[i] }
        let mean = Double(sum) / Double(signalCount)
        guard mean > 0 else { return nil }
        return 10 * Decibels.log10(mean)
    }

    /// Seconds since the last message.
    public func seen(at now: Double) -> Double { now - lastSeen }

    /// Barometric altitude unless the aircraft is on the ground (aircraft.json writes
    /// `"ground"` then).
    public var isOnGround: Bool { onGround?.value ?? false }

    /// The squawk as 4 octal digits.
    public var squawkString: String? { squawk.map { Squawk.string($0.value) } }
}

/// The even and odd halves waiting for a partner, and the last rejected global position.
struct CPRState: Sendable {
    struct Half: Sendable {
        var position: CPRPosition
        var time: Double
        var surface: Bool
        var source: DataSource
    }

    var even: Half?
    var odd: Half?
    /// A global result that failed the speed check: if the next global result agrees with
    /// it, the track was wrong, not the new positions.
    var rejected: Coordinate?
    var rejectedTime: Double = 0

    mutating func clearHalves() {
        even = nil
        odd = nil
    }
}
