import Foundation
import Store

/// A `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`
/// address (`postgresql://` too), as libpq and `psql` take it. `--db` values that start with
/// either scheme choose PostgreSQL; anything else is a SQLite file path.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// True when `text` names a PostgreSQL database rather than a SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String, tls: TLSMode = .prefer) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Parses the address; the error says what is wrong with it.
    public init(_ text: String) throws(StoreError) {
        guard Self.isPostgres(text), let components = URLComponents(string: text) else {
            throw StoreError(description: "not a PostgreSQL address: expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        guard let host = components.host, !host.isEmpty else { throw StoreError(description: "the PostgreSQL address has no host") }
        guard let user = components.user, !user.isEmpty else { throw StoreError(description: "the PostgreSQL address has no user (postgres://USER@HOST/DATABASE)") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else { throw StoreError(description: "the PostgreSQL address names no database (postgres://USER@HOST/DATABASE)") }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw StoreError(description: "the PostgreSQL port must be 1…65535") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", let value?):
                guard let mode = TLSMode(rawValue: value) else {
                    throw StoreError(description: "sslmode must be disable, prefer or require (not '\(value)')")
                }
                tls = mode
            default:
                throw StoreError(description: "unknown PostgreSQL address option '\(item.name)' (only sslmode)")
            }
        }
        self.init(host: host, port: port, username: user.removingPercentEncoding ?? user,
                  password: components.password.map { $0.removingPercentEncoding ?? $0 }, database: path, tls: tls)
    }

    /// The address without its password, for messages.
    public var description: String { "postgres://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)" }
}
