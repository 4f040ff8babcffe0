import GRDB
import ModeS

/// One row of the `aircraft` table: what the imported database knows about an ICAO address.
public struct AircraftRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "aircraft"

    /// 24-bit ICAO address.
    public var icao: Int
    public var registration: String?
    /// `registration` uppercased without `-`, spaces and dots (indexed, for lookups).
    public var registrationKey: String?
    /// ICAO type designator, such as `B738`.
    public var typeCode: String?
    /// Such as `BOEING 737-800`.
    public var description: String?
    /// readsb `dbFlags` bits: 1 military, 2 interesting, 4 PIA, 8 LADD.
    public var flags: Int
    public var year: Int?
    public var ownerOperator: String?

    public init(icao: UInt32, registration: String? = nil, typeCode: String? = nil, description: String? = nil,
                flags: Int = 0, year: Int? = nil, ownerOperator: String? = nil) {
        self.icao = Int(icao & 0xFF_FFFF)
        self.registration = registration
        self.registrationKey = registration.map(AircraftRecord.normalize)
        self.typeCode = typeCode
        self.description = description
        self.flags = flags
        self.year = year
        self.ownerOperator = ownerOperator
    }

    public var address: UInt32 { UInt32(truncatingIfNeeded: icao) & 0xFF_FFFF }
    public var isMilitary: Bool { flags & 1 != 0 }

    /// Registration comparison key: uppercase without `-`, spaces and dots.
    public static func normalize(_ registration: String) -> String { RegistrationKey.normalize(registration) }

    public enum Columns {
        public static let icao = Column(CodingKeys.icao)
        public static let registrationKey = Column(CodingKeys.registrationKey)
    }
}
