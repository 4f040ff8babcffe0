import Foundation
import Localization

/// Display units of a user.
public enum Units: String, Codable, Sendable, CaseIterable {
    case metric, imperial, aeronautical
}

/// Where a user's alerts go.
public struct NotificationChannel: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
        /// HTTP POST of a JSON body (IFTTT-compatible `value1…3` plus the full event).
        case webhook
    }

    public var kind: Kind
    public var url: String

    public init(kind: Kind = .webhook, url: String) {
        self.kind = kind
        self.url = url
    }
}

/// One row of `user`: an account. The password is kept only as a bcrypt hash.
public struct UserRecord: Codable, Sendable, Hashable {
    public var id: Int64?
    public var username: String
    public var email: String?
    public var passwordHash: String
    public var units: Units
    public var darkMode: Bool
    public var language: String
    public var channels: [NotificationChannel]
    public var createdAt: Double
    /// How predicted times are shown (migration v11).
    public var timeFormat: TimeFormat

    public init(id: Int64? = nil, username: String, email: String? = nil, passwordHash: String,
                units: Units = .metric, darkMode: Bool = false, language: String = "en",
                channels: [NotificationChannel] = [], createdAt: Double, timeFormat: TimeFormat = .minutes) {
        self.id = id
        self.username = username
        self.email = email
        self.passwordHash = passwordHash
        self.units = units
        self.darkMode = darkMode
        self.language = language
        self.channels = channels
        self.createdAt = createdAt
        self.timeFormat = timeFormat
    }

    /// Sets `language` to `code` as its catalogue spells it (`DE` → `de`), or throws
    /// `unknownLanguage`: the page and alert texts exist only in the shipped languages.
    public mutating func setLanguage(_ code: String) throws(UserError) {
        guard let catalogue = MessageCatalogues.shipped.catalogue(code) else {
            throw .unknownLanguage(code, known: MessageCatalogues.shipped.codes)
        }
        language = catalogue.code
    }
}

/// Why an account operation was refused (nothing is written then).
public enum UserError: Error, Equatable, CustomStringConvertible {
    case invalidUsername(String)
    case duplicateUsername(String)
    case unknownUser(String)
    case wrongPassword
    case weakPassword
    case invalidEmail(String)
    case invalidURL(String)
    /// The same webhook twice: every alert would be posted twice.
    case duplicateChannel(String)
    /// A language without a message catalogue (`MessageCatalogues`).
    case unknownLanguage(String, known: [String])

    public var description: String {
        switch self {
        case .invalidUsername(let n): "invalid username '\(n)' (1-32 letters, digits, '.', '_' or '-')"
        case .duplicateUsername(let n): "user '\(n)' already exists"
        case .unknownUser(let n): "no user '\(n)'"
        case .wrongPassword: "wrong password"
        case .weakPassword: "password must be at least 8 characters"
        case .invalidEmail(let e): "invalid email address '\(e)'"
        case .invalidURL(let u): "invalid webhook URL '\(u)' (http:// or https://)"
        case .duplicateChannel(let u): "webhook '\(u)' is already set: each alert would be posted to it twice"
        case .unknownLanguage(let code, let known): "unknown language '\(code)' (FlyTracker speaks \(known.joined(separator: ", ")))"
        }
    }
}

extension UserRecord {
    /// bcrypt cost for new hashes (2^cost rounds). Tests may lower it to 4.
    public static let defaultBcryptCost: UInt8 = 12

    public static func validate(username: String) throws(UserError) {
        let allowed = username.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-"
        }
        guard (1...32).contains(username.count), allowed else { throw .invalidUsername(username) }
    }

    /// What both engines check before saving a user's settings: the email address, the
    /// webhooks, and a language FlyTracker has a catalogue for.
    public static func validate(settings user: UserRecord) throws(UserError) {
        if let email = user.email { try validate(email: email) }
        try validate(channels: user.channels)
        guard MessageCatalogues.shipped.catalogue(user.language) != nil else {
            throw .unknownLanguage(user.language, known: MessageCatalogues.shipped.codes)
        }
    }

    public static func validate(email: String) throws(UserError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(" ") else { throw .invalidEmail(email) }
    }

    /// Every channel's URL valid, and no URL twice (compared without case in the scheme and
    /// host, and without a trailing `/`). Both engines check with this.
    public static func validate(channels: [NotificationChannel]) throws(UserError) {
        var seen = Set<String>()
        for channel in channels {
            try validate(url: channel.url)
            guard seen.insert(channelKey(channel.url)).inserted else { throw .duplicateChannel(channel.url) }
        }
    }

    /// A webhook URL as compared for duplicates.
    static func channelKey(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return url }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if parts.path.hasSuffix("/") { parts.path.removeLast() }
        return parts.string ?? url
    }

    public static func validate(url: String) throws(UserError) {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https",
              u.host?.isEmpty == false else { throw .invalidURL(url) }
    }
}
