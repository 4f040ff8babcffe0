import ModeS
import Store
import Tracking

/// What the sighting log and the watchlist need of one aircraft at one instant: a plain
/// value taken from a `Tracking.Aircraft` of a snapshot (or built directly in tests).
public struct Observation: Sendable, Hashable {
    /// `AircraftKey.packed`: the 24-bit address, bit 24 set for non-ICAO addresses.
    public var key: UInt32
    public var callsign: String?
    public var registration: String?
    public var typeCode: String?
    public var operatorName: String?
    /// Emitter category such as `A3`.
    public var category: String?
    public var military: Bool
    /// 4 octal digits.
    public var squawk: String?
    /// Emergency status other than none.
    public var emergency: Bool
    /// Barometric altitude (ft); 0 on the ground.
    public var altitude: Int?
    public var position: Coordinate?
    /// Time of `position` (a new time = a new position).
    public var positionTime: Double?
    public var track: Double?
    public var groundSpeed: Double?
    /// NM from the receiver.
    public var distance: Double?
    /// Messages received from the aircraft so far (the table's count).
    public var messages: Int
    public var lastSeen: Double
    /// The receivers of a network that heard it (aggregator; empty for a lone receiver).
    public var receivers: [ReceiverID: ReceiverHearing] = [:]

    public init(key: UInt32, callsign: String? = nil, registration: String? = nil, typeCode: String? = nil,
                operatorName: String? = nil, category: String? = nil, military: Bool = false, squawk: String? = nil,
                emergency: Bool = false, altitude: Int? = nil, position: Coordinate? = nil, positionTime: Double? = nil,
                track: Double? = nil, groundSpeed: Double? = nil, distance: Double? = nil, messages: Int = 1, lastSeen: Double) {
        self.key = key
        self.callsign = callsign
        self.registration = registration
        self.typeCode = typeCode
        self.operatorName = operatorName
        self.category = category
        self.military = military
        self.squawk = squawk
        self.emergency = emergency
        self.altitude = altitude
        self.position = position
        self.positionTime = positionTime ?? (position == nil ? nil : lastSeen)
        self.track = track
        self.groundSpeed = groundSpeed
        self.distance = distance
        self.messages = messages
        self.lastSeen = lastSeen
    }

    /// The aircraft as a snapshot shows it.
    public init(_ a: Aircraft) {
        let emergencyStatus = a.emergency.map { $0.value != .none } ?? false
        let squawkEmergency = a.squawk.map { Emergency(squawk: $0.value) != nil } ?? false
        self.init(key: a.key.packed, callsign: a.flight?.value.isEmpty == false ? a.flight?.value : nil,
                  registration: a.registration, typeCode: a.typeCode, operatorName: a.operatorName,
                  category: a.category?.value.description, military: a.isMilitary, squawk: a.squawkString,
                  emergency: emergencyStatus || squawkEmergency,
                  altitude: a.isOnGround ? 0 : a.altBaro?.value, position: a.position?.value,
                  positionTime: a.position?.time, track: a.track?.value, groundSpeed: a.gs?.value,
                  distance: a.distance, messages: a.messages, lastSeen: a.lastSeen)
        receivers = a.heardBy
    }

    /// The address as 6 hex digits (`~` first for non-ICAO addresses).
    public var hex: String { Self.hex(key) }

    public static func hex(_ key: UInt32) -> String { PackedAddress.hex(key) }

    /// Squawk 7500/7600/7700 or an emergency status.
    public var isEmergency: Bool { emergency || squawk == "7500" || squawk == "7600" || squawk == "7700" }
}
