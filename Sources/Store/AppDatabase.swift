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

    /// Wraps `writer` and migrates it to the latest schema.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Opens (creating it and its directory if needed) the database file at `path` as a
    /// WAL `DatabasePool`.
    public static func open(path: String) throws -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try makeDirectories(directory) }
        var configuration = Configuration()
        // Wait for a concurrent writer (another flytracker process) instead of failing at once.
        configuration.busyMode = .timeout(5)
        // Statistics that fall back to the visit rows read pages all over a file of several GB
        // (track points between them); memory-mapped reads save a system call and a copy per
        // page. 64-bit only (address space); SQLite falls back to reads if mapping fails.
        if MemoryLayout<Int>.size == 8 {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 2147418112") }
        }
        return try AppDatabase(DatabasePool(path: path, configuration: configuration))
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
        try AppDatabase(DatabaseQueue())
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
