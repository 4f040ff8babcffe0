import GRDB

/// Migration `v7-statistics-rollup`: pre-aggregated statistics so that `stats` over long
/// windows does not scan the visit log.
///
/// A visit enters the rollups once, when it is closed (closed visits never change), through
/// triggers, so every writer (the recorder's batched transactions, imports, tests) keeps them
/// exact in the same transaction. Open visits are always counted from `visit` itself.
///
/// - `statDay` (dimension, UTC day of `firstSeen`, group key): visits and messages; for the
///   `day` dimension also the day's distinct aircraft and callsigns.
/// - `statMember` (dimension, group key, kind 0 = address / 1 = callsign, member): the first
///   and last day the member was seen in the group and every such day (`,20454,20455,`), so
///   distinct aircraft over a window of whole days is a count of rows.
/// - `statMeta.validFrom`: rollups are exact only for days from this one on. Deleting or
///   changing a closed visit (retention) moves it past that visit's day; earlier days are
///   counted from `visit`.
///
/// Dimensions: 0 total (key ''), 1 type, 2 operator, 3 category, 4 altitude band, 5 hour,
/// 6 day. Group keys are the ones `stats` prints (`unknown` for a missing value).
///
/// Indexes on `visit`: open visits (`visit_open`), the longest visit (`visit_duration`, for
/// visits that began before a window) and the closest distance (`--within`).
///
/// Shipped migrations are never edited: this SQL is written out here, not shared with the
/// query code.
enum StatisticsSchema {
    /// SQLite's steps of `v7-statistics-rollup` (`Migrations`).
    static var v7: [Migration.Step] {
        [.only(.sqlite, """
            CREATE TABLE statDay (
                dimension INTEGER NOT NULL, day INTEGER NOT NULL, key TEXT NOT NULL,
                visits INTEGER NOT NULL, messages INTEGER NOT NULL,
                aircraft INTEGER NOT NULL DEFAULT 0, flights INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (dimension, day, key)) WITHOUT ROWID;
            CREATE TABLE statMember (
                dimension INTEGER NOT NULL, key TEXT NOT NULL, kind INTEGER NOT NULL, member NOT NULL,
                firstDay INTEGER NOT NULL, lastDay INTEGER NOT NULL, days TEXT NOT NULL,
                PRIMARY KEY (dimension, key, kind, member)) WITHOUT ROWID;
            CREATE TABLE statMeta (id INTEGER PRIMARY KEY CHECK (id = 1), validFrom INTEGER NOT NULL, cleanedTo INTEGER NOT NULL);
            INSERT INTO statMeta (id, validFrom, cleanedTo) VALUES (1, 0, 0);
            CREATE INDEX visit_open ON visit(firstSeen) WHERE closed = 0;
            CREATE INDEX visit_duration ON visit(lastSeen - firstSeen);
            CREATE INDEX visit_closest ON visit(closestDistance);
            """),
         .only(.sqlite, v7Triggers),
         .sqliteCode { try rebuild($0) }]
    }

    /// SQLite's steps of `v8-type-statistics-rollup`: dimensions 11…14, type × operator,
    /// category, altitude band, hour (key `B738<US>American Airlines`), so `--by operator
    /// --type 'B73*'` is a rollup question too.
    static var v8: [Migration.Step] {
        [.only(.sqlite, """
            CREATE TRIGGER visit_stat_type_insert AFTER INSERT ON visit WHEN NEW.closed BEGIN
            \(addNewByType)
            END;
            CREATE TRIGGER visit_stat_type_close AFTER UPDATE OF closed ON visit WHEN NOT OLD.closed AND NEW.closed BEGIN
            \(addNewByType)
            END;
            """),
         .sqliteCode { try rebuildByType($0) }]
    }

    /// The combined keys of dimensions 11…14 over a row prefix.
    private static func typeKeys(_ r: String) -> [(Int, String)] {
        keys(r).filter { (2...5).contains($0.0) }.map { (10 + $0.0 - 1, "COALESCE(\(r)typeCode, 'unknown') || char(31) || \($0.1)") }
    }

    /// The day of a visit (as `strftime` counts it for times after 1970).
    private static func day(_ row: String) -> String { "(CAST(\(row)firstSeen AS INTEGER) / 86400)" }

    /// Group key expressions of dimensions 0…5 over a row prefix (`NEW.` or ``).
    private static func keys(_ r: String) -> [(Int, String)] {
        [
            (0, "''"),
            (1, "COALESCE(\(r)typeCode, 'unknown')"),
            (2, "COALESCE(\(r)operatorName, 'unknown')"),
            (3, "COALESCE(\(r)category, 'unknown')"),
            (4, "COALESCE(CASE WHEN \(r)maxAltitude IS NULL THEN NULL ELSE printf('%05d-%05d', (MAX(\(r)maxAltitude, 0) / 5000) * 5000, (MAX(\(r)maxAltitude, 0) / 5000) * 5000 + 4999) END, 'unknown')"),
            (5, "strftime('%H', CAST(\(r)firstSeen AS INTEGER), 'unixepoch')"),
        ]
    }

    private static let dayKey = "strftime('%Y-%m-%d', CAST(NEW.firstSeen AS INTEGER), 'unixepoch')"

    /// Adds the closed visit `NEW` to the rollups. The day dimension's distinct counts go first:
    /// a member is new for the day when the total's member row does not list the day yet.
    private static func memberUpsert(_ dim: Int, _ key: String, kind: Int, _ member: String) -> String {
        let d = day("NEW."), text = "(',' || \(day("NEW.")) || ',')"
        return """
            INSERT INTO statMember (dimension, key, kind, member, firstDay, lastDay, days)
                SELECT \(dim), \(key), \(kind), \(member), \(d), \(d), \(text) WHERE \(member) IS NOT NULL
                ON CONFLICT (dimension, key, kind, member) DO UPDATE SET
                    firstDay = MIN(firstDay, excluded.firstDay), lastDay = MAX(lastDay, excluded.lastDay),
                    days = CASE WHEN instr(days, excluded.days) > 0 THEN days ELSE days || substr(excluded.days, 2) END;
            """
    }

    /// Adds the closed visit `NEW` to dimensions `keys` (statDay and both member kinds).
    private static func addNew(to keys: [(Int, String)]) -> String {
        let d = day("NEW.")
        var sql = ""
        for (dim, key) in keys {
            sql += """
                INSERT INTO statDay (dimension, day, key, visits, messages) VALUES (\(dim), \(d), \(key), 1, NEW.messages)
                    ON CONFLICT (dimension, day, key) DO UPDATE SET visits = visits + 1, messages = messages + excluded.messages;

                """
            sql += memberUpsert(dim, key, kind: 0, "NEW.address") + "\n"
            sql += memberUpsert(dim, key, kind: 1, "NEW.callsign") + "\n"
        }
        return sql
    }

    private static var addNewByType: String { addNew(to: typeKeys("NEW.")) }

    private static var addNew: String {
        let d = day("NEW."), text = "(',' || \(day("NEW.")) || ',')"
        let sql = """
            INSERT INTO statDay (dimension, day, key, visits, messages, aircraft, flights)
                VALUES (6, \(d), \(dayKey), 1, NEW.messages,
                    NOT EXISTS (SELECT 1 FROM statMember WHERE dimension = 0 AND key = '' AND kind = 0 AND member = NEW.address AND instr(days, \(text)) > 0),
                    NEW.callsign IS NOT NULL AND NOT EXISTS (SELECT 1 FROM statMember WHERE dimension = 0 AND key = '' AND kind = 1 AND member = NEW.callsign AND instr(days, \(text)) > 0))
                ON CONFLICT (dimension, day, key) DO UPDATE SET visits = visits + 1, messages = messages + excluded.messages,
                    aircraft = aircraft + excluded.aircraft, flights = flights + excluded.flights;

            """
        return sql + addNew(to: keys("NEW."))
    }

    private static var v7Triggers: String {
        """
        CREATE TRIGGER visit_stat_insert AFTER INSERT ON visit WHEN NEW.closed BEGIN
        \(addNew)
        END;
        CREATE TRIGGER visit_stat_close AFTER UPDATE OF closed ON visit WHEN NOT OLD.closed AND NEW.closed BEGIN
        \(addNew)
        END;
        CREATE TRIGGER visit_stat_change AFTER UPDATE ON visit WHEN OLD.closed BEGIN
            UPDATE statMeta SET validFrom = MAX(validFrom, \(day("OLD.")) + 1, \(day("NEW.")) + 1);
        END;
        CREATE TRIGGER visit_stat_delete AFTER DELETE ON visit WHEN OLD.closed BEGIN
            UPDATE statMeta SET validFrom = MAX(validFrom, \(day("OLD.")) + 1);
        END;
        """
    }

    /// Recomputes every rollup from the closed visits (the migration's backfill, and
    /// `AppDatabase.rebuildStatistics`).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM statDay; DELETE FROM statMember; UPDATE statMeta SET validFrom = 0, cleanedTo = 0")
        let d = day("")
        try db.execute(sql: """
            INSERT INTO statDay (dimension, day, key, visits, messages, aircraft, flights)
                SELECT 6, \(d), strftime('%Y-%m-%d', CAST(firstSeen AS INTEGER), 'unixepoch'), COUNT(*), SUM(messages),
                       COUNT(DISTINCT address), COUNT(DISTINCT callsign)
                FROM visit WHERE closed GROUP BY 2, 3
            """)
        try insert(db, keys(""))
    }

    /// Recomputes dimensions 11…14 (the `v8` backfill, and `AppDatabase.rebuildStatistics`).
    static func rebuildByType(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM statDay WHERE dimension > 10; DELETE FROM statMember WHERE dimension > 10")
        try insert(db, typeKeys(""))
    }

    /// Inserts the closed visits' rollups of dimensions `keys`.
    private static func insert(_ db: Database, _ keys: [(Int, String)]) throws {
        let d = day("")
        for (dim, key) in keys {
            try db.execute(sql: """
                INSERT INTO statDay (dimension, day, key, visits, messages)
                    SELECT \(dim), \(d), \(key), COUNT(*), SUM(messages) FROM visit WHERE closed GROUP BY 2, 3
                """)
            for (kind, member) in [(0, "address"), (1, "callsign")] {
                try db.execute(sql: """
                    INSERT INTO statMember (dimension, key, kind, member, firstDay, lastDay, days)
                        SELECT \(dim), k, \(kind), m, MIN(day), MAX(day), ',' || group_concat(DISTINCT day) || ','
                        FROM (SELECT \(key) AS k, \(member) AS m, \(d) AS day FROM visit WHERE closed AND \(member) IS NOT NULL)
                        GROUP BY k, m
                    """)
            }
        }
    }
}
