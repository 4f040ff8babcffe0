import GRDB

/// The migrations after `v1-aircraft-db`: users, watchlists, the sighting log, the journal,
/// alert deliveries and airports. Shipped migrations are never edited; a change is a new one.
///
/// Times are Unix seconds (`Double`); distances nautical miles; altitudes feet.
enum StoreSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-users") { db in
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("username", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                t.column("email", .text)
                // bcrypt (salted, slow); never the password itself.
                t.column("passwordHash", .text).notNull()
                t.column("units", .text).notNull().defaults(to: "metric")
                t.column("darkMode", .boolean).notNull().defaults(to: false)
                t.column("language", .text).notNull().defaults(to: "en")
                // JSON array of NotificationChannel.
                t.column("channels", .text).notNull().defaults(to: "[]")
                t.column("createdAt", .double).notNull()
            }
        }
        migrator.registerMigration("v3-watchlists") { db in
            try db.create(table: "watchRule") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("kind", .text).notNull()
                t.column("value", .text).notNull()
                t.column("label", .text)
                t.column("createdAt", .double).notNull()
                t.uniqueKey(["userId", "kind", "value"])
            }
            // User additions to the built-in IATA ↔ ICAO airline table.
            try db.create(table: "airlineCode") { t in
                t.primaryKey("iata", .text)
                t.column("icao", .text).notNull()
                t.column("name", .text)
            }
        }
        migrator.registerMigration("v4-sightings") { db in
            try db.create(table: "visit") { t in
                t.autoIncrementedPrimaryKey("id")
                // AircraftKey.packed: the 24-bit address, bit 24 set for non-ICAO addresses.
                t.column("address", .integer).notNull().indexed()
                t.column("firstSeen", .double).notNull().indexed()
                t.column("lastSeen", .double).notNull().indexed()
                t.column("callsign", .text)
                // Every callsign heard, space-separated.
                t.column("callsigns", .text)
                t.column("registration", .text)
                t.column("typeCode", .text).indexed()
                t.column("operatorName", .text)
                t.column("category", .text)
                t.column("military", .boolean).notNull().defaults(to: false)
                t.column("squawk", .text)
                t.column("minAltitude", .integer)
                t.column("maxAltitude", .integer)
                t.column("closestDistance", .double)
                t.column("closestTime", .double)
                t.column("messages", .integer).notNull().defaults(to: 0)
                t.column("positions", .integer).notNull().defaults(to: 0)
                t.column("lastLatitude", .double)
                t.column("lastLongitude", .double)
                t.column("lastTrack", .double)
                t.column("closed", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "trackPoint") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("visit", onDelete: .cascade).notNull()
                t.column("time", .double).notNull().indexed()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("altitude", .integer)
                t.column("track", .double)
                t.column("groundSpeed", .double)
            }
        }
        migrator.registerMigration("v5-journal") { db in
            try db.create(table: "journalEvent") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.belongsTo("watchRule", onDelete: .setNull)
                t.belongsTo("visit", onDelete: .setNull)
                t.column("address", .integer).notNull()
                t.column("time", .double).notNull()
                t.column("kind", .text).notNull()
                t.column("callsign", .text)
                t.column("registration", .text)
                t.column("typeCode", .text)
                t.column("latitude", .double)
                t.column("longitude", .double)
                t.column("altitude", .integer)
                t.column("distance", .double)
                t.column("ruleLabel", .text)
            }
            try db.create(index: "journalEvent_user_time", on: "journalEvent", columns: ["userId", "time"])
            try db.create(table: "alertDelivery") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.belongsTo("journalEvent", onDelete: .setNull)
                t.column("url", .text).notNull()
                t.column("time", .double).notNull().indexed()
                t.column("attempt", .integer).notNull()
                t.column("status", .integer)
                t.column("success", .boolean).notNull()
                t.column("error", .text)
            }
        }
        migrator.registerMigration("v6-airports") { db in
            try db.create(table: "airport") { t in
                // ICAO code (OurAirports `ident` / `gps_code`).
                t.primaryKey("ident", .text)
                t.column("iata", .text).indexed()
                t.column("name", .text).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("kind", .text)
            }
        }
    }

    /// Migrations after the statistics rollups (`v7`, `v8`).
    static func registerLater(in migrator: inout DatabaseMigrator) {
        // v9: which receivers of a network heard each visit (an aggregator's merged sky).
        migrator.registerMigration("v9-visit-receivers") { db in
            try db.execute(sql: """
                CREATE TABLE visitReceiver (
                    visitId INTEGER NOT NULL REFERENCES visit(id) ON DELETE CASCADE,
                    receiver TEXT NOT NULL,
                    firstSeen DOUBLE NOT NULL, lastSeen DOUBLE NOT NULL,
                    messages INTEGER NOT NULL, bestSignal DOUBLE,
                    PRIMARY KEY (visitId, receiver)) WITHOUT ROWID;
                CREATE INDEX visitReceiver_receiver ON visitReceiver(receiver, visitId);
                """)
        }
        // v10: PostgreSQL's statistics rollups (`PostgresSchema.v10`); SQLite has had them
        // since v7. Empty here, so that both engines keep one list of migration ids.
        migrator.registerMigration("v10-postgresql-statistics-rollup") { _ in }
        // v11: saved places and reminders per user, and how a user wants predicted times shown.
        migrator.registerMigration("v11-places") { db in
            try db.execute(sql: """
                ALTER TABLE user ADD COLUMN timeFormat TEXT NOT NULL DEFAULT 'minutes';
                ALTER TABLE journalEvent ADD COLUMN note TEXT;
                CREATE TABLE place (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    name TEXT NOT NULL, latitude DOUBLE NOT NULL, longitude DOUBLE NOT NULL, altitude INTEGER,
                    radius DOUBLE NOT NULL, airport TEXT, createdAt DOUBLE NOT NULL);
                CREATE UNIQUE INDEX place_user_name ON place(userId, name COLLATE NOCASE);
                CREATE TABLE reminder (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    placeId INTEGER REFERENCES place(id) ON DELETE CASCADE,
                    watchRuleId INTEGER REFERENCES watchRule(id) ON DELETE CASCADE,
                    event TEXT NOT NULL, leadMinutes INTEGER NOT NULL, createdAt DOUBLE NOT NULL);
                CREATE UNIQUE INDEX reminder_unique ON reminder(userId, COALESCE(placeId, 0), COALESCE(watchRuleId, 0), event, leadMinutes);
                """)
        }
        // v12: friends (directed rows: `requested` from the asker, `friends` both ways), blocks,
        // profiles (text, per-field visibility as JSON, the re-encoded picture), and groups with
        // members and shared watchlists, goals, and the feed (posts, comments, reports, admins).
        migrator.registerMigration("v12-social") { db in
            try db.execute(sql: """
                ALTER TABLE visit ADD COLUMN farthestDistance DOUBLE;
                CREATE TABLE friendship (
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    otherId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    state TEXT NOT NULL CHECK (state IN ('requested', 'friends')), createdAt DOUBLE NOT NULL,
                    PRIMARY KEY (userId, otherId)) WITHOUT ROWID;
                CREATE INDEX friendship_other ON friendship(otherId, state);
                CREATE TABLE userBlock (
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    blockedId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    createdAt DOUBLE NOT NULL,
                    PRIMARY KEY (userId, blockedId)) WITHOUT ROWID;
                CREATE TABLE profile (
                    userId INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
                    displayName TEXT, bio TEXT, homePlaceId INTEGER REFERENCES place(id) ON DELETE SET NULL,
                    visibility TEXT NOT NULL DEFAULT '{}',
                    picture BLOB, pictureType TEXT, pictureUpdatedAt DOUBLE, updatedAt DOUBLE NOT NULL);
                CREATE TABLE spottingGroup (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, description TEXT,
                    open BOOLEAN NOT NULL, createdAt DOUBLE NOT NULL);
                CREATE UNIQUE INDEX spottingGroup_name ON spottingGroup(name COLLATE NOCASE);
                CREATE TABLE groupMember (
                    groupId INTEGER NOT NULL REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    role TEXT NOT NULL CHECK (role IN ('owner', 'member', 'invited')), since DOUBLE NOT NULL,
                    PRIMARY KEY (groupId, userId)) WITHOUT ROWID;
                CREATE INDEX groupMember_user ON groupMember(userId);
                CREATE TABLE groupRule (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    groupId INTEGER NOT NULL REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL, value TEXT NOT NULL, label TEXT, createdAt DOUBLE NOT NULL,
                    UNIQUE (groupId, kind, value));
                CREATE INDEX journalEvent_ruleLabel ON journalEvent(ruleLabel);
                CREATE TABLE goal (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    userId INTEGER REFERENCES user(id) ON DELETE CASCADE,
                    groupId INTEGER REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    name TEXT NOT NULL, kind TEXT NOT NULL, type TEXT, distance DOUBLE, target INTEGER NOT NULL,
                    startsAt DOUBLE NOT NULL, endsAt DOUBLE NOT NULL, progress INTEGER NOT NULL, counted TEXT NOT NULL,
                    completedAt DOUBLE, completedAddress INTEGER, completedVisitId INTEGER, createdAt DOUBLE NOT NULL,
                    CHECK ((userId IS NULL) <> (groupId IS NULL)));
                CREATE INDEX goal_user ON goal(userId);
                CREATE INDEX goal_group ON goal(groupId);
                CREATE TABLE post (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    userId INTEGER REFERENCES user(id) ON DELETE CASCADE,
                    audience TEXT NOT NULL CHECK (audience IN ('public', 'friends', 'group')),
                    groupId INTEGER REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    text TEXT NOT NULL, address INTEGER, visitId INTEGER REFERENCES visit(id) ON DELETE SET NULL,
                    picture BLOB, pictureType TEXT, createdAt DOUBLE NOT NULL);
                CREATE INDEX post_audience ON post(audience, id);
                CREATE INDEX post_user ON post(userId, id);
                CREATE INDEX post_group ON post(groupId, id);
                CREATE INDEX post_address ON post(address, id);
                CREATE TABLE comment (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    postId INTEGER NOT NULL REFERENCES post(id) ON DELETE CASCADE,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    text TEXT NOT NULL, createdAt DOUBLE NOT NULL);
                CREATE INDEX comment_post ON comment(postId, id);
                CREATE TABLE postReport (
                    postId INTEGER NOT NULL REFERENCES post(id) ON DELETE CASCADE,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    reason TEXT NOT NULL, createdAt DOUBLE NOT NULL,
                    PRIMARY KEY (postId, userId)) WITHOUT ROWID;
                CREATE TABLE siteAdmin (userId INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE);
                """)
        }
        // v13: login sessions in the database (so `users passwd` and `users delete`, run in
        // another process, end them): the SHA-256 of the token, never the token itself.
        migrator.registerMigration("v13-sessions") { db in
            try db.execute(sql: """
                CREATE TABLE loginSession (
                    tokenHash TEXT PRIMARY KEY NOT NULL,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL) WITHOUT ROWID;
                CREATE INDEX loginSession_user ON loginSession(userId, createdAt);
                CREATE INDEX loginSession_expires ON loginSession(expiresAt);
                """)
        }
    }
}
