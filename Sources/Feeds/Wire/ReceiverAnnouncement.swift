import Foundation
import ModeS
import Tracking

/// What a receiver tells an aggregator about itself at the start of its Beast feed, so the
/// aggregator can merge many receivers into one sky (`flytracker run --receiver-id`):
///
/// | bytes | meaning | from |
/// |---|---|---|
/// | `0x1A 0xE4` + 36 ASCII characters | the receiver's UUID, 8-4-4-4-12 hex digits (never contains 0x1A) | readsb `--uuid-file` |
/// | `0x1A 0xE3` + 8 bytes (0x1A doubled) | the UUID's first 64 bits, big-endian; applies to the frames after it | readsb `--net-receiver-id` |
/// | `0x1A 0xE5` + LEN + LEN bytes (0x1A doubled) | UTF-8 JSON `{"id":…,"name":…,"lat":…,"lon":…}`, every key optional | FlyTracker |
///
/// Readers that do not know a type skip to the next frame start, so these are safe to send
/// to any Beast input. A new id (0xE3/0xE4) forgets the name and position of the previous one.
public struct ReceiverAnnouncement: Sendable, Hashable {
    public var id: ReceiverID?
    public var name: String?
    public var position: Coordinate?

    public init(id: ReceiverID? = nil, name: String? = nil, position: Coordinate? = nil) {
        self.id = id
        self.name = name
        self.position = position
    }

    /// Type bytes.
    public static let typeBinaryID: UInt8 = 0xE3
    public static let typeUUID: UInt8 = 0xE4
    public static let typeDetails: UInt8 = 0xE5
    /// Longest name sent or accepted, bytes of UTF-8.
    public static let maxNameLength = 64

    /// The JSON of the 0xE5 message.
    struct Details: Codable {
        var id: String?
        var name: String?
        var lat: Double?
        var lon: Double?
    }

    /// The escaped wire bytes: the UUID message when the id is a UUID, then the details.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        if let id, ReceiverID.uuid(id.rawValue) == id {
            out += [BeastFrame.escape, Self.typeUUID] + Array(id.rawValue.utf8)
        }
        var details = Details(id: id?.rawValue, name: name.map(Self.clip))
        if let position { details.lat = position.latitude; details.lon = position.longitude }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(details), json.count <= 255 else { return out }
        out += [BeastFrame.escape, Self.typeDetails]
        for b in [UInt8(json.count)] + Array(json) {
            out.append(b)
            if b == BeastFrame.escape { out.append(b) }
        }
        return out
    }

    /// Applies a 0xE5 details message; false when it is not valid JSON of that shape or
    /// carries an impossible position or an unusable id.
    mutating func apply(details bytes: ArraySlice<UInt8>) -> Bool {
        guard let d = try? JSONDecoder().decode(Details.self, from: Data(bytes)) else { return false }
        if let text = d.id {
            guard let newID = ReceiverID.parse(text) else { return false }
            if newID != id { self = ReceiverAnnouncement(id: newID) }
        }
        if let lat = d.lat, let lon = d.lon {
            let p = Coordinate(latitude: lat, longitude: lon)
            guard p.isValid, lon.magnitude <= 180 else { return false }
            position = p.normalized
        }
        if let n = d.name {
            let trimmed = String(n.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
            name = trimmed.isEmpty ? nil : Self.clip(trimmed)
        }
        return true
    }

    /// `name` cut to at most `maxNameLength` bytes of UTF-8 at a character boundary.
    static func clip(_ name: String) -> String {
        var out = ""
        for c in name {
            if out.utf8.count + c.utf8.count > maxNameLength { break }
            out.append(c)
        }
        return out
    }

    /// Sets a new id (0xE3/0xE4), forgetting the previous receiver's details.
    mutating func identify(_ newID: ReceiverID) {
        if newID != id { self = ReceiverAnnouncement(id: newID) }
    }
}
