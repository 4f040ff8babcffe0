import Foundation

/// Who may see a profile field.
public enum Visibility: String, Codable, Sendable, CaseIterable {
    case `public`, friends, me

    /// Whether a viewer standing in `relation` to the owner sees a field of this visibility
    /// (`nil`: not logged in).
    public func admits(_ relation: Relation?) -> Bool {
        switch relation {
        case .me?: true
        case .blocked?: false
        case .friend?: self != .me
        default: self == .public
        }
    }
}

/// The fields of a profile that have a visibility of their own.
public enum ProfileField: String, Codable, Sendable, CaseIterable {
    case displayName = "display_name", bio, picture, home, stats

    /// Before the user chooses.
    public var defaultVisibility: Visibility {
        switch self {
        case .displayName, .picture: .public
        case .bio, .stats: .friends
        case .home: .me
        }
    }
}

/// A user's profile (without the picture's bytes).
public struct ProfileRecord: Sendable, Equatable {
    public var userId: Int64
    /// 1–64 characters, no control characters.
    public var displayName: String?
    /// At most 500 characters.
    public var bio: String?
    /// One of the user's places.
    public var homePlaceId: Int64?
    public var visibility: [ProfileField: Visibility]
    /// `image/png`, `image/jpeg` or `image/webp` when there is a picture.
    public var pictureType: String?
    /// When the picture changed (its URL carries it, so caches refresh).
    public var pictureUpdatedAt: Double?

    public init(userId: Int64, displayName: String? = nil, bio: String? = nil, homePlaceId: Int64? = nil,
                visibility: [ProfileField: Visibility] = [:], pictureType: String? = nil, pictureUpdatedAt: Double? = nil) {
        self.userId = userId
        self.displayName = displayName
        self.bio = bio
        self.homePlaceId = homePlaceId
        self.visibility = visibility
        self.pictureType = pictureType
        self.pictureUpdatedAt = pictureUpdatedAt
    }

    /// The visibility of a field (its default when not chosen).
    public func visibility(of field: ProfileField) -> Visibility { visibility[field] ?? field.defaultVisibility }

    /// The profile's text checked; throws the first problem.
    public func validated() throws(ProfileError) -> ProfileRecord {
        var p = self
        p.displayName = displayName?.trimmingCharacters(in: .whitespacesAndNewlines)
        if p.displayName?.isEmpty == true { p.displayName = nil }
        if let name = p.displayName, name.count > 64 || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidDisplayName
        }
        p.bio = bio?.trimmingCharacters(in: .whitespacesAndNewlines)
        if p.bio?.isEmpty == true { p.bio = nil }
        if let bio = p.bio, bio.count > 500 || bio.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            throw .invalidBio
        }
        return p
    }

    /// The visibility map as stored (JSON, field → level).
    public var visibilityJSON: String {
        let pairs = visibility.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\"\($0.key.rawValue)\":\"\($0.value.rawValue)\"" }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    public static func visibility(json: String) -> [ProfileField: Visibility] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String] else { return [:] }
        var out: [ProfileField: Visibility] = [:]
        for (k, v) in object { if let f = ProfileField(rawValue: k), let level = Visibility(rawValue: v) { out[f] = level } }
        return out
    }
}

/// A user's own numbers from their journal (the sightings of what they track).
public struct UserSightingSummary: Sendable, Equatable {
    public var aircraft = 0
    public var types = 0
    public var firstSighting: Double?
    public var lastSighting: Double?
    /// The farthest sighting from the receiver, NM.
    public var longestDistance: Double?

    public init(aircraft: Int = 0, types: Int = 0, firstSighting: Double? = nil, lastSighting: Double? = nil, longestDistance: Double? = nil) {
        self.aircraft = aircraft
        self.types = types
        self.firstSighting = firstSighting
        self.lastSighting = lastSighting
        self.longestDistance = longestDistance
    }
}

public enum ProfileError: Error, Equatable, CustomStringConvertible {
    case invalidDisplayName
    case invalidBio
    case unknownPlace(Int64)

    public var description: String {
        switch self {
        case .invalidDisplayName: "the display name must be 1-64 characters without control characters"
        case .invalidBio: "the bio must be at most 500 characters"
        case .unknownPlace(let id): "no place \(id)"
        }
    }
}

/// Profiles on either engine.
