/// What an aircraft database knows about one ICAO address (readsb's database fields): the
/// one record of the imported database (`Store.AircraftRepository`, a row of `aircraft`),
/// the simulator's fleet and the live table (`Tracking.Aircraft.info`).
public struct AircraftInfo: Sendable, Hashable {
    /// 24-bit ICAO address.
    public var address: UInt32
    public var registration: String?
    /// ICAO type designator, such as `B738`.
    public var typeCode: String?
    /// Such as `BOEING 737-800`.
    public var typeDescription: String?
    public var ownerOperator: String?
    public var year: Int?
    public var flags: AircraftFlags

    public init(address: UInt32, registration: String? = nil, typeCode: String? = nil, typeDescription: String? = nil,
                ownerOperator: String? = nil, year: Int? = nil, flags: AircraftFlags = []) {
        self.address = address & 0xFF_FFFF
        self.registration = registration
        self.typeCode = typeCode
        self.typeDescription = typeDescription
        self.ownerOperator = ownerOperator
        self.year = year
        self.flags = flags
    }

    public var isMilitary: Bool { flags.contains(.military) }
}

/// Database flags, with readsb's `dbFlags` bit values.
public struct AircraftFlags: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let military = AircraftFlags(rawValue: 1)
    public static let interesting = AircraftFlags(rawValue: 2)
    /// Privacy ICAO Address program.
    public static let pia = AircraftFlags(rawValue: 4)
    /// Limiting Aircraft Data Displayed program.
    public static let ladd = AircraftFlags(rawValue: 8)
}
