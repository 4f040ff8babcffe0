import GRDB

/// One schema migration, written once for both engines: statements in the SQL both read
/// alike, with the dialect's pieces (`SQLDialect`: identity keys, `WITHOUT ROWID`,
/// case-insensitive keys, binary columns), and the few steps one engine alone runs because
/// its design differs (the statistics rollups' tables and triggers; indexes the other keeps
/// in another form). `Migrations.all` lists them; SQLite applies them through GRDB's
/// migrator (`AppDatabase.migrator`), PostgreSQL through `PostgresStore.migrate`, each
/// once, recorded by id. Shipped migrations are never edited: a change is a new one.
public struct Migration: Sendable {
    public enum Step: Sendable {
        /// Statements both engines run (no bound values; `;`-separated).
        case both(SQL)
        /// Statements one engine alone runs.
        case only(SQLDialect, String)
        /// SQLite's backfill of its rollups, in Swift on the migration's connection.
        case sqliteCode(@Sendable (Database) throws -> Void)
    }

    public let id: String
    public let steps: [Step]

    public init(_ id: String, _ steps: [Step]) {
        self.id = id
        self.steps = steps
    }

    /// The SQL texts `dialect` runs, in order (the Swift steps are SQLite's own).
    public func texts(for dialect: SQLDialect) -> [String] {
        steps.compactMap { step in
            switch step {
            case .both(let sql): sql.rendered(for: dialect).text
            case .only(let engine, let text): engine == dialect ? text : nil
            case .sqliteCode: nil
            }
        }
    }

    /// Runs the migration on a SQLite connection (inside GRDB's migration transaction).
    func apply(_ db: Database) throws {
        for step in steps {
            switch step {
            case .both(let sql): try db.execute(sql: sql.rendered(for: .sqlite).text)
            case .only(.sqlite, let text): try db.execute(sql: text)
            case .only: break
            case .sqliteCode(let code): try code(db)
            }
        }
    }
}
