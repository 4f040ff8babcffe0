/// The store's schema: every migration, in order, written once for SQLite and PostgreSQL
/// (`Migration`). Times are Unix seconds (`double precision`), distances nautical miles,
/// altitudes feet. Names are camel case, unquoted (PostgreSQL folds them to lower case in the
/// schema and in queries alike); `"user"` is always quoted (a reserved word on PostgreSQL).
///
/// What differs by engine, besides `SQLDialect`'s pieces:
/// - Usernames are unique without case: SQLite's column is `COLLATE NOCASE`, PostgreSQL has
///   a unique index on `lower(username)`.
/// - A visit's natural key (`address`, `firstSeen`) is unique on both (the batch write
///   upserts on it): PostgreSQL's since `v4`, SQLite's since `v14`.
/// - SQLite indexes every foreign key of `v3`–`v5` (as GRDB's table builder made them), and
///   indexed `visit.address` alone until `v14`.
/// - The statistics rollups (`v7`, `v8` on SQLite, `StatisticsSchema`; `v10` on PostgreSQL,
///   `PostgresRollupSchema`): the same tables, keys and answers, kept by each engine's own
///   triggers (a day list as text or as an array).
public enum Migrations {
    public static let all: [Migration] = [
        Migration("v1-aircraft-db", [
            // The imported aircraft database: one row per ICAO address. `registrationKey`:
            // the registration uppercased without `-`, spaces and dots; `flags`: readsb's
            // dbFlags (1 military, 2 interesting, 4 PIA, 8 LADD).
            .both("""
                CREATE TABLE aircraft (icao \(integerKey), registration text, registrationKey text, typeCode text,
                    description text, flags integer NOT NULL DEFAULT 0, year integer, ownerOperator text);
                CREATE INDEX aircraft_on_registrationKey ON aircraft (registrationKey);
                """),
        ]),
        Migration("v2-users", [
            // `passwordHash`: bcrypt, never the password; `channels`: a JSON array.
            .both("""
                CREATE TABLE "user" (id \(identity),
                    username text NOT NULL\(dialect: { $0 == .sqlite ? " UNIQUE COLLATE NOCASE" : "" }), email text, passwordHash text NOT NULL,
                    units text NOT NULL DEFAULT 'metric', darkMode boolean NOT NULL DEFAULT false,
                    language text NOT NULL DEFAULT 'en', channels text NOT NULL DEFAULT '[]',
                    createdAt double precision NOT NULL);
                """),
            .only(.postgresql, #"CREATE UNIQUE INDEX user_username ON "user" (lower(username));"#),
        ]),
        Migration("v3-watchlists", [
            // `airlineCode`: users' additions to the built-in IATA ↔ ICAO airline table.
            .both("""
                CREATE TABLE watchRule (id \(identity),
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    kind text NOT NULL, value text NOT NULL, label text, createdAt double precision NOT NULL,
                    UNIQUE (userId, kind, value));
                CREATE TABLE airlineCode (iata text PRIMARY KEY NOT NULL, icao text NOT NULL, name text);
                """),
            .only(.sqlite, "CREATE INDEX watchRule_on_userId ON watchRule (userId);"),
        ]),
        Migration("v4-sightings", [
            // `address`: `AircraftKey.packed` (the 24-bit address, bit 24 set for a non-ICAO
            // address); `callsigns`: every callsign heard, space-separated.
            .both("""
                CREATE TABLE visit (id \(identity),
                    address bigint NOT NULL, firstSeen double precision NOT NULL, lastSeen double precision NOT NULL,
                    callsign text, callsigns text, registration text, typeCode text, operatorName text, category text,
                    military boolean NOT NULL DEFAULT false, squawk text, minAltitude integer, maxAltitude integer,
                    closestDistance double precision, closestTime double precision,
                    messages integer NOT NULL DEFAULT 0, positions integer NOT NULL DEFAULT 0,
                    lastLatitude double precision, lastLongitude double precision, lastTrack double precision,
                    closed boolean NOT NULL DEFAULT false\(dialect: { $0 == .postgresql ? ", UNIQUE (address, firstSeen)" : "" }));
                CREATE INDEX visit_on_firstSeen ON visit (firstSeen);
                CREATE INDEX visit_on_lastSeen ON visit (lastSeen);
                CREATE INDEX visit_on_typeCode ON visit (typeCode);
                CREATE TABLE trackPoint (id \(identity),
                    visitId bigint NOT NULL REFERENCES visit(id) ON DELETE CASCADE,
                    time double precision NOT NULL, latitude double precision NOT NULL, longitude double precision NOT NULL,
                    altitude integer, track double precision, groundSpeed double precision);
                CREATE INDEX trackPoint_on_visitId ON trackPoint (visitId);
                CREATE INDEX trackPoint_on_time ON trackPoint (time);
                """),
            .only(.sqlite, "CREATE INDEX visit_on_address ON visit (address);"),
        ]),
        Migration("v5-journal", [
            .both("""
                CREATE TABLE journalEvent (id \(identity),
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    watchRuleId bigint REFERENCES watchRule(id) ON DELETE SET NULL,
                    visitId bigint REFERENCES visit(id) ON DELETE SET NULL,
                    address bigint NOT NULL, time double precision NOT NULL, kind text NOT NULL,
                    callsign text, registration text, typeCode text, latitude double precision, longitude double precision,
                    altitude integer, distance double precision, ruleLabel text);
                CREATE INDEX journalEvent_user_time ON journalEvent (userId, time);
                CREATE TABLE alertDelivery (id \(identity),
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    journalEventId bigint REFERENCES journalEvent(id) ON DELETE SET NULL,
                    url text NOT NULL, time double precision NOT NULL, attempt integer NOT NULL,
                    status integer, success boolean NOT NULL, error text);
                CREATE INDEX alertDelivery_on_time ON alertDelivery (time);
                """),
            .only(.sqlite, """
                CREATE INDEX journalEvent_on_userId ON journalEvent (userId);
                CREATE INDEX journalEvent_on_watchRuleId ON journalEvent (watchRuleId);
                CREATE INDEX journalEvent_on_visitId ON journalEvent (visitId);
                CREATE INDEX alertDelivery_on_userId ON alertDelivery (userId);
                CREATE INDEX alertDelivery_on_journalEventId ON alertDelivery (journalEventId);
                """),
        ]),
        Migration("v6-airports", [
            // `ident`: the ICAO code (OurAirports `ident`); `kind`: OurAirports `type`.
            .both("""
                CREATE TABLE airport (ident text PRIMARY KEY NOT NULL, iata text, name text NOT NULL,
                    latitude double precision NOT NULL, longitude double precision NOT NULL, kind text);
                CREATE INDEX airport_on_iata ON airport (iata);
                """),
        ]),
        Migration("v7-statistics-rollup", StatisticsSchema.v7 + [.only(.postgresql, PostgresRollupSchema.v7)]),
        Migration("v8-type-statistics-rollup", StatisticsSchema.v8 + [.only(.postgresql, PostgresRollupSchema.v8)]),
        // Which receivers of a network heard each visit (an aggregator's merged sky).
        Migration("v9-visit-receivers", [
            .both("""
                CREATE TABLE visitReceiver (
                    visitId bigint NOT NULL REFERENCES visit(id) ON DELETE CASCADE,
                    receiver text NOT NULL,
                    firstSeen double precision NOT NULL, lastSeen double precision NOT NULL,
                    messages integer NOT NULL, bestSignal double precision,
                    PRIMARY KEY (visitId, receiver))\(withoutRowID);
                CREATE INDEX visitReceiver_receiver ON visitReceiver (receiver, visitId);
                """),
        ]),
        // PostgreSQL's statistics rollups; SQLite has had them since v7.
        Migration("v10-postgresql-statistics-rollup", [.only(.postgresql, PostgresRollupSchema.v10)]),
        // Saved places and reminders per user, and how a user wants predicted times shown.
        Migration("v11-places", [
            .both("""
                ALTER TABLE "user" ADD COLUMN timeFormat text NOT NULL DEFAULT 'minutes';
                ALTER TABLE journalEvent ADD COLUMN note text;
                CREATE TABLE place (id \(identity),
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    name text NOT NULL, latitude double precision NOT NULL, longitude double precision NOT NULL, altitude integer,
                    radius double precision NOT NULL, airport text, createdAt double precision NOT NULL);
                CREATE UNIQUE INDEX place_user_name ON place (userId, \(caseless("name")));
                CREATE TABLE reminder (id \(identity),
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    placeId bigint REFERENCES place(id) ON DELETE CASCADE,
                    watchRuleId bigint REFERENCES watchRule(id) ON DELETE CASCADE,
                    event text NOT NULL, leadMinutes integer NOT NULL, createdAt double precision NOT NULL);
                CREATE UNIQUE INDEX reminder_unique ON reminder (userId, COALESCE(placeId, 0), COALESCE(watchRuleId, 0), event, leadMinutes);
                """),
        ]),
        // Friends (directed rows: `requested` from the asker, `friends` both ways), blocks,
        // profiles (text, per-field visibility as JSON, the re-encoded picture), groups with
        // members and shared watchlists, goals, and posts (comments, reports, site admins).
        Migration("v12-social", [
            .both("""
                ALTER TABLE visit ADD COLUMN farthestDistance double precision;
                CREATE TABLE friendship (
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    otherId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    state text NOT NULL CHECK (state IN ('requested', 'friends')), createdAt double precision NOT NULL,
                    PRIMARY KEY (userId, otherId))\(withoutRowID);
                CREATE INDEX friendship_other ON friendship (otherId, state);
                CREATE TABLE userBlock (
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    blockedId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    createdAt double precision NOT NULL,
                    PRIMARY KEY (userId, blockedId))\(withoutRowID);
                CREATE TABLE profile (
                    userId \(integerKey) REFERENCES "user"(id) ON DELETE CASCADE,
                    displayName text, bio text, homePlaceId bigint REFERENCES place(id) ON DELETE SET NULL,
                    visibility text NOT NULL DEFAULT '{}',
                    picture \(blob), pictureType text, pictureUpdatedAt double precision, updatedAt double precision NOT NULL);
                CREATE TABLE spottingGroup (id \(identity), name text NOT NULL, description text,
                    open boolean NOT NULL, createdAt double precision NOT NULL);
                CREATE UNIQUE INDEX spottingGroup_name ON spottingGroup (\(caseless("name")));
                CREATE TABLE groupMember (
                    groupId bigint NOT NULL REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    role text NOT NULL CHECK (role IN ('owner', 'member', 'invited')), since double precision NOT NULL,
                    PRIMARY KEY (groupId, userId))\(withoutRowID);
                CREATE INDEX groupMember_user ON groupMember (userId);
                CREATE TABLE groupRule (id \(identity),
                    groupId bigint NOT NULL REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    kind text NOT NULL, value text NOT NULL, label text, createdAt double precision NOT NULL,
                    UNIQUE (groupId, kind, value));
                CREATE INDEX journalEvent_ruleLabel ON journalEvent (ruleLabel);
                CREATE TABLE goal (id \(identity),
                    userId bigint REFERENCES "user"(id) ON DELETE CASCADE,
                    groupId bigint REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    name text NOT NULL, kind text NOT NULL, type text, distance double precision, target integer NOT NULL,
                    startsAt double precision NOT NULL, endsAt double precision NOT NULL, progress integer NOT NULL, counted text NOT NULL,
                    completedAt double precision, completedAddress bigint, completedVisitId bigint, createdAt double precision NOT NULL,
                    CHECK ((userId IS NULL) <> (groupId IS NULL)));
                CREATE INDEX goal_user ON goal (userId);
                CREATE INDEX goal_group ON goal (groupId);
                CREATE TABLE post (id \(identity),
                    userId bigint REFERENCES "user"(id) ON DELETE CASCADE,
                    audience text NOT NULL CHECK (audience IN ('public', 'friends', 'group')),
                    groupId bigint REFERENCES spottingGroup(id) ON DELETE CASCADE,
                    text text NOT NULL, address bigint, visitId bigint REFERENCES visit(id) ON DELETE SET NULL,
                    picture \(blob), pictureType text, createdAt double precision NOT NULL);
                CREATE INDEX post_audience ON post (audience, id);
                CREATE INDEX post_user ON post (userId, id);
                CREATE INDEX post_group ON post (groupId, id);
                CREATE INDEX post_address ON post (address, id);
                CREATE TABLE comment (id \(identity),
                    postId bigint NOT NULL REFERENCES post(id) ON DELETE CASCADE,
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    text text NOT NULL, createdAt double precision NOT NULL);
                CREATE INDEX comment_post ON comment (postId, id);
                CREATE TABLE postReport (
                    postId bigint NOT NULL REFERENCES post(id) ON DELETE CASCADE,
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    reason text NOT NULL, createdAt double precision NOT NULL,
                    PRIMARY KEY (postId, userId))\(withoutRowID);
                CREATE TABLE siteAdmin (userId \(integerKey) REFERENCES "user"(id) ON DELETE CASCADE);
                """),
        ]),
        // Login sessions in the database (so `users passwd` and `users delete`, run in another
        // process, end them): the SHA-256 of the token, never the token itself.
        Migration("v13-sessions", [
            .both("""
                CREATE TABLE loginSession (
                    tokenHash text PRIMARY KEY NOT NULL,
                    userId bigint NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
                    createdAt double precision NOT NULL, expiresAt double precision NOT NULL)\(withoutRowID);
                CREATE INDEX loginSession_user ON loginSession (userId, createdAt);
                CREATE INDEX loginSession_expires ON loginSession (expiresAt);
                """),
        ]),
        // A visit's natural key unique on SQLite too (PostgreSQL's since v4), so that one
        // batch write, an upsert on it, serves both engines; it serves lookups by address, so
        // the index on the address alone goes. Two visits of one aircraft that
        // began at the same instant (which the recorder does not write) are first told apart
        // by a microsecond per id, so that no row is lost.
        Migration("v14-visit-key", [
            .only(.sqlite, """
                UPDATE visit SET firstSeen = firstSeen + 1e-6 * (id - (SELECT MIN(w.id) FROM visit w
                    WHERE w.address = visit.address AND w.firstSeen = visit.firstSeen))
                WHERE (address, firstSeen) IN (SELECT address, firstSeen FROM visit GROUP BY address, firstSeen HAVING COUNT(*) > 1);
                CREATE UNIQUE INDEX visit_key ON visit (address, firstSeen);
                DROP INDEX visit_on_address;
                """),
        ]),
    ]

    // The dialect's pieces, as statement fragments.
    static let identity: SQL = "\(dialect: { $0.identity })"
    static let integerKey: SQL = "\(dialect: { $0.integerKey })"
    static let withoutRowID: SQL = "\(dialect: { $0.withoutRowID })"
    static let blob: SQL = "\(dialect: { $0.blob })"
    static func caseless(_ column: String) -> SQL { "\(dialect: { $0.caseless(column) })" }
}
