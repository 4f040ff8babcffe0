import GRDB

/// One row of `visit`: one aircraft heard from its first message until it went silent.
public struct VisitRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "visit"

    public var id: Int64?
    /// `AircraftKey.packed`.
    public var address: Int
    public var firstSeen: Double
    public var lastSeen: Double
    /// The first callsign heard.
    public var callsign: String?
    /// Every callsign heard, space-separated, in order.
    public var callsigns: String?
    public var registration: String?
    public var typeCode: String?
    public var operatorName: String?
    public var category: String?
    public var military: Bool
    public var squawk: String?
    public var minAltitude: Int?
    public var maxAltitude: Int?
    /// NM from the receiver, and when.
    public var closestDistance: Double?
    public var closestTime: Double?
    public var messages: Int
    public var positions: Int
    public var lastLatitude: Double?
    public var lastLongitude: Double?
    public var lastTrack: Double?
    /// The aircraft went silent and the visit is final.
    public var closed: Bool
    /// The farthest it was heard from the receiver, NM (migration v12; goals "beyond 200 NM").
    public var farthestDistance: Double?

    public init(id: Int64? = nil, address: Int, firstSeen: Double, lastSeen: Double, callsign: String? = nil,
                callsigns: String? = nil, registration: String? = nil, typeCode: String? = nil, operatorName: String? = nil,
                category: String? = nil, military: Bool = false, squawk: String? = nil, minAltitude: Int? = nil,
                maxAltitude: Int? = nil, closestDistance: Double? = nil, closestTime: Double? = nil, messages: Int = 0,
                positions: Int = 0, lastLatitude: Double? = nil, lastLongitude: Double? = nil, lastTrack: Double? = nil,
                closed: Bool = false, farthestDistance: Double? = nil) {
        self.id = id
        self.address = address
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.callsign = callsign
        self.callsigns = callsigns
        self.registration = registration
        self.typeCode = typeCode
        self.operatorName = operatorName
        self.category = category
        self.military = military
        self.squawk = squawk
        self.minAltitude = minAltitude
        self.maxAltitude = maxAltitude
        self.closestDistance = closestDistance
        self.closestTime = closestTime
        self.messages = messages
        self.positions = positions
        self.lastLatitude = lastLatitude
        self.lastLongitude = lastLongitude
        self.lastTrack = lastTrack
        self.closed = closed
        self.farthestDistance = farthestDistance
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public var hex: String { PackedAddress.hex(UInt32(truncatingIfNeeded: address)) }
}

/// One row of `trackPoint`: a downsampled position of a visit.
public struct TrackPointRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "trackPoint"

    public var id: Int64?
    public var visitId: Int64
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    public var altitude: Int?
    public var track: Double?
    public var groundSpeed: Double?

    public init(id: Int64? = nil, visitId: Int64, time: Double, latitude: Double, longitude: Double,
                altitude: Int? = nil, track: Double? = nil, groundSpeed: Double? = nil) {
        self.id = id
        self.visitId = visitId
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.track = track
        self.groundSpeed = groundSpeed
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// What happened to a watched aircraft.
/// One receiver of a network that heard a visit (`visitReceiver`, migration v9): when,
/// how many frames it delivered for the aircraft while the table held it, and its
/// strongest level (dBFS).
public struct VisitReceiverRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "visitReceiver"
    public var visitId: Int64
    public var receiver: String
    public var firstSeen: Double
    public var lastSeen: Double
    public var messages: Int
    public var bestSignal: Double?

    public init(visitId: Int64, receiver: String, firstSeen: Double, lastSeen: Double, messages: Int, bestSignal: Double?) {
        self.visitId = visitId
        self.receiver = receiver
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.messages = messages
        self.bestSignal = bestSignal
    }
}

public enum JournalKind: String, Codable, Sendable, CaseIterable {
    case firstSeen, position, closestApproach, lost
    /// A reminder came due: the event is `note`'s (`ReminderService`).
    case reminder
    /// A goal was reached by this sighting (`GoalService`); `note` names the goal.
    case goal

    /// Whether alerts of this kind are limited per user, aircraft and kind (`AlertDispatcher`):
    /// sightings are; reminders and goals are limited where they are made (once each).
    public var isRateLimited: Bool { self != .reminder && self != .goal }
}

/// One row of `journalEvent`: a user's watchlist matched an aircraft.
public struct JournalEventRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "journalEvent"

    public var id: Int64?
    public var userId: Int64
    public var watchRuleId: Int64?
    public var visitId: Int64?
    public var address: Int
    public var time: Double
    public var kind: JournalKind
    public var callsign: String?
    public var registration: String?
    public var typeCode: String?
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Int?
    /// NM from the receiver.
    public var distance: Double?
    /// The rule's label, else "kind value".
    public var ruleLabel: String?
    /// What a reminder says ("lands at Schiphol in 10 min (14:32)"); nil for other kinds.
    public var note: String?

    public init(id: Int64? = nil, userId: Int64, watchRuleId: Int64?, visitId: Int64?, address: Int, time: Double,
                kind: JournalKind, callsign: String? = nil, registration: String? = nil, typeCode: String? = nil,
                latitude: Double? = nil, longitude: Double? = nil, altitude: Int? = nil, distance: Double? = nil,
                ruleLabel: String? = nil, note: String? = nil) {
        self.id = id
        self.userId = userId
        self.watchRuleId = watchRuleId
        self.visitId = visitId
        self.address = address
        self.time = time
        self.kind = kind
        self.callsign = callsign
        self.registration = registration
        self.typeCode = typeCode
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.distance = distance
        self.ruleLabel = ruleLabel
        self.note = note
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public var hex: String { PackedAddress.hex(UInt32(truncatingIfNeeded: address)) }
}

/// One row of `alertDelivery`: one attempt to deliver an alert.
public struct AlertDeliveryRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Hashable {
    public static let databaseTableName = "alertDelivery"

    public var id: Int64?
    public var userId: Int64
    public var journalEventId: Int64?
    public var url: String
    public var time: Double
    /// 1 for the first try.
    public var attempt: Int
    /// HTTP status, when a response came.
    public var status: Int?
    public var success: Bool
    public var error: String?

    public init(id: Int64? = nil, userId: Int64, journalEventId: Int64?, url: String, time: Double, attempt: Int,
                status: Int?, success: Bool, error: String?) {
        self.id = id
        self.userId = userId
        self.journalEventId = journalEventId
        self.url = url
        self.time = time
        self.attempt = attempt
        self.status = status
        self.success = success
        self.error = error
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An aircraft's key as the store keeps it (`visit.address`, `journalEvent.address`): the
/// 24-bit address, bit 24 set for a non-ICAO address (the table's `AircraftKey.packed`).
public enum PackedAddress {
    /// 6 hex digits, `~` first for a non-ICAO address.
    public static func hex(_ key: UInt32) -> String {
        let digits = String(key & 0xFF_FFFF, radix: 16)
        return (key & 0x100_0000 != 0 ? "~" : "") + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
