import Foundation
import GRDB

/// A storage failure outside SQLite itself (SQLite's own are GRDB `DatabaseError`s).
public struct StoreError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

/// FlyTracker's SQLite database: one `DatabaseWriter` (a WAL `DatabasePool` in production,
/// an in-memory `DatabaseQueue` in tests) with every migration applied.
///
/// Migrations are registered in `migrator` and never edited once shipped; a change to the
/// schema is a new migration.
public final class AppDatabase: Sendable {
    /// The connection(s). Reads may run concurrently with one writer (WAL).
    public let writer: any DatabaseWriter
    /// The storage seam on `writer`: one for the database's life, so that what its
    /// connections keep prepared stays within its bound.
    let seam: GRDBDatabase

    /// Wraps `writer` and migrates it to the latest schema.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        self.seam = GRDBDatabase(writer)
        try Self.migrator.migrate(writer)
    }

    /// Opens (creating it and its directory if needed) the database file at `path` as a
    /// WAL `DatabasePool`.
    public static func open(path: String) throws -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try makeDirectories(directory) }
        return try AppDatabase(DatabasePool(path: path, configuration: configuration(file: true)))
    }

    /// How every connection the store opens is set up. `file`: a database file, which other
    /// processes may write and which is read through a memory map.
    public static func configuration(file: Bool = false) -> Configuration {
        var configuration = Configuration()
        // Wait for a concurrent writer (another flytracker process) instead of failing at once.
        if file { configuration.busyMode = .timeout(5) }
        // Statistics that fall back to the visit rows read pages all over a file of several GB
        // (track points between them); memory-mapped reads save a system call and a copy per
        // page. 64-bit only (address space); SQLite falls back to reads if mapping fails.
        let mapped = file && MemoryLayout<Int>.size == 8
        configuration.prepareDatabase { db in
            if mapped { try db.execute(sql: "PRAGMA mmap_size = 2147418112") }
            // The project's SQL functions, which PostgreSQL defines in its schema: registered
            // once per connection, before any statement is prepared (registering one again
            // would expire the connection's prepared statements).
            db.add(function: towardsFunction)
            db.add(function: hasDayFunction)
        }
        return configuration
    }

    /// Creates `path` and its missing parents (mode 0755).
    static func makeDirectories(_ path: String) throws(StoreError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw StoreError(description: "cannot create directory \(current): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// A fresh in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration()))
    }

    /// The default database file: `$XDG_DATA_HOME/flytracker/flytracker.sqlite`, else
    /// `~/.local/share/flytracker/flytracker.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/flytracker/flytracker.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/flytracker/flytracker.sqlite"
    }

    /// Every schema migration, in order (`Migrations.all`, written once for both engines).
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in Migrations.all {
            migrator.registerMigration(migration.id) { db in try migration.apply(db) }
        }
        return migrator
    }
}
