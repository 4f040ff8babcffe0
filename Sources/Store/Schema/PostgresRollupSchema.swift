/// PostgreSQL's own migration steps (`Migrations`): its statistics rollups, which differ from
/// SQLite's by design (`StatisticsSchema`), and the SQL function of `stats --towards`.
enum PostgresRollupSchema {
    /// `v7`: the indexes of SQLite's rollup migration; the rollups themselves came to
    /// PostgreSQL in `v10`. `ft_towards` is SQLite's custom function of `stats --towards`,
    /// in SQL.
    static let v7 = """
            CREATE INDEX visit_open ON visit (firstSeen) WHERE NOT closed;
            CREATE INDEX visit_closest ON visit (closestDistance);
            -- SQLite's ft_towards (StatsFilter.isHeading): 1 when the initial great-circle
            -- bearing from (lat, lon) to the target is within tolerance of the track.
            CREATE FUNCTION ft_towards(lat double precision, lon double precision, track double precision,
                                       tlat double precision, tlon double precision, tolerance double precision)
            RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
                SELECT COALESCE(abs(d - 360 * floor(d / 360) - 180) <= tolerance, false)
                FROM (SELECT track - (b - 360 * floor(b / 360)) + 540 AS d
                      FROM (SELECT degrees(atan2(sin(radians(tlon - lon)) * cos(radians(tlat)),
                                                 cos(radians(lat)) * sin(radians(tlat))
                                                 - sin(radians(lat)) * cos(radians(tlat)) * cos(radians(tlon - lon)))) AS b) AS x) AS y
            $$;
            """

    /// `v8`: the index of type × operator questions.
    static let v8 = """
        CREATE INDEX visit_type_operator ON visit (typeCode, operatorName);
        """

    /// `v10`: SQLite's statistics rollups (`StatisticsSchema` v7/v8) on PostgreSQL, same
    /// tables, dimension codes and keys, so `RollupPlan` answers long windows from them on
    /// both engines. Differences: a member's days are an `integer[]`, members are text (an
    /// address as its decimal digits); the keys of a visit come from one function,
    /// `ft_stat_keys`, shared by the trigger and the backfill (`ft_stat_rebuild`); deletions
    /// move `validFrom` once per statement (a transition table), not once per row.
    /// Times beyond ±10¹¹ s (year 5138) have the key `unknown` for hour and day, not an error.
    static let v10 = """
        CREATE TABLE statDay (
            dimension integer NOT NULL, day bigint NOT NULL, key text NOT NULL,
            visits bigint NOT NULL, messages bigint NOT NULL,
            aircraft bigint NOT NULL DEFAULT 0, flights bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (dimension, day, key));
        CREATE TABLE statMember (
            dimension integer NOT NULL, key text NOT NULL, kind integer NOT NULL, member text NOT NULL,
            firstDay bigint NOT NULL, lastDay bigint NOT NULL, days bigint[] NOT NULL,
            PRIMARY KEY (dimension, key, kind, member));
        CREATE TABLE statMeta (id integer PRIMARY KEY CHECK (id = 1), validFrom bigint NOT NULL, cleanedTo bigint NOT NULL);
        INSERT INTO statMeta (id, validFrom, cleanedTo) VALUES (1, 0, 0);
        CREATE INDEX visit_duration ON visit ((lastSeen - firstSeen));

        -- The UTC day of a time (SQLite's CAST(t AS INTEGER) / 86400: both truncate towards zero).
        CREATE FUNCTION ft_stat_day(t double precision) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
            SELECT trunc(LEAST(GREATEST(t, -1e14), 1e14))::bigint / 86400
        $$;
        -- `HH24` / `YYYY-MM-DD` of a time in UTC, NULL beyond ±1e11 s.
        CREATE FUNCTION ft_utc_text(t double precision, format text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN abs(t) < 1e11 THEN to_char(to_timestamp(trunc(t)) AT TIME ZONE 'UTC', format) END
        $$;
        -- The 5000 ft band of the highest altitude (`30000-34999`), as SQLite's printf('%05d-%05d').
        CREATE FUNCTION ft_altitude_band(altitude integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN altitude IS NULL THEN NULL ELSE
                (SELECT lpad(b::text, GREATEST(5, length(b::text)), '0') || '-' || lpad((b + 4999)::text, GREATEST(5, length((b + 4999)::text)), '0')
                 FROM (SELECT (GREATEST(altitude, 0) / 5000) * 5000 AS b) AS x) END
        $$;
        -- The rollup keys of a visit: dimensions 0…5 and type × 2…5 (11…14).
        CREATE FUNCTION ft_stat_keys(typeCode text, operatorName text, category text, maxAltitude integer, firstSeen double precision)
        RETURNS TABLE (dimension integer, key text) LANGUAGE sql IMMUTABLE AS $$
            SELECT g.d, g.k FROM (VALUES (0, ''), (1, COALESCE(typeCode, 'unknown'))) AS g(d, k)
            UNION ALL
            SELECT g.d + s.shift, CASE WHEN s.shift = 0 THEN g.k ELSE COALESCE(typeCode, 'unknown') || chr(31) || g.k END
            FROM (VALUES (2, COALESCE(operatorName, 'unknown')), (3, COALESCE(category, 'unknown')),
                         (4, COALESCE(ft_altitude_band(maxAltitude), 'unknown')),
                         (5, COALESCE(ft_utc_text(firstSeen, 'HH24'), 'unknown'))) AS g(d, k)
            CROSS JOIN (VALUES (0), (9)) AS s(shift)
        $$;

        -- Adds a closed visit to the rollups. The day's distinct counts go first: a member is
        -- new for the day when the total's member row does not list the day yet.
        CREATE FUNCTION ft_stat_add() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            d bigint := ft_stat_day(NEW.firstSeen);
        BEGIN
            INSERT INTO statDay AS s (dimension, day, key, visits, messages, aircraft, flights)
            VALUES (6, d, COALESCE(ft_utc_text(NEW.firstSeen, 'YYYY-MM-DD'), 'unknown'), 1, NEW.messages,
                    CASE WHEN EXISTS (SELECT 1 FROM statMember m WHERE m.dimension = 0 AND m.key = '' AND m.kind = 0
                                      AND m.member = NEW.address::text AND d = ANY (m.days)) THEN 0 ELSE 1 END,
                    CASE WHEN NEW.callsign IS NULL OR EXISTS (SELECT 1 FROM statMember m WHERE m.dimension = 0 AND m.key = ''
                                      AND m.kind = 1 AND m.member = NEW.callsign AND d = ANY (m.days)) THEN 0 ELSE 1 END)
            ON CONFLICT (dimension, day, key) DO UPDATE SET visits = s.visits + 1, messages = s.messages + excluded.messages,
                aircraft = s.aircraft + excluded.aircraft, flights = s.flights + excluded.flights;
            INSERT INTO statDay AS s (dimension, day, key, visits, messages)
            SELECT k.dimension, d, k.key, 1, NEW.messages
            FROM ft_stat_keys(NEW.typeCode, NEW.operatorName, NEW.category, NEW.maxAltitude, NEW.firstSeen) AS k
            ON CONFLICT (dimension, day, key) DO UPDATE SET visits = s.visits + 1, messages = s.messages + excluded.messages;
            INSERT INTO statMember AS s (dimension, key, kind, member, firstDay, lastDay, days)
            SELECT k.dimension, k.key, m.kind, m.member, d, d, ARRAY[d]
            FROM ft_stat_keys(NEW.typeCode, NEW.operatorName, NEW.category, NEW.maxAltitude, NEW.firstSeen) AS k
            CROSS JOIN (VALUES (0, NEW.address::text), (1, NEW.callsign)) AS m(kind, member)
            WHERE m.member IS NOT NULL
            ON CONFLICT (dimension, key, kind, member) DO UPDATE SET
                firstDay = LEAST(s.firstDay, excluded.firstDay), lastDay = GREATEST(s.lastDay, excluded.lastDay),
                days = CASE WHEN excluded.firstDay = ANY (s.days) THEN s.days ELSE s.days || excluded.firstDay END;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER visit_stat_insert AFTER INSERT ON visit FOR EACH ROW WHEN (NEW.closed) EXECUTE FUNCTION ft_stat_add();
        CREATE TRIGGER visit_stat_close AFTER UPDATE OF closed ON visit FOR EACH ROW WHEN (NOT OLD.closed AND NEW.closed)
            EXECUTE FUNCTION ft_stat_add();

        -- Changing or deleting a closed visit moves validFrom past its day: earlier days are
        -- then counted from the visit log.
        CREATE FUNCTION ft_stat_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE statMeta SET validFrom = GREATEST(validFrom, ft_stat_day(OLD.firstSeen) + 1, ft_stat_day(NEW.firstSeen) + 1);
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER visit_stat_change AFTER UPDATE ON visit FOR EACH ROW WHEN (OLD.closed) EXECUTE FUNCTION ft_stat_change();
        CREATE FUNCTION ft_stat_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE statMeta SET validFrom = GREATEST(validFrom, (SELECT MAX(ft_stat_day(firstSeen)) + 1 FROM gone WHERE closed))
            WHERE EXISTS (SELECT 1 FROM gone WHERE closed);
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER visit_stat_delete AFTER DELETE ON visit REFERENCING OLD TABLE AS gone
            FOR EACH STATEMENT EXECUTE FUNCTION ft_stat_delete();

        -- v7's ft_towards as one expression, so that the planner inlines it (20× faster
        -- over a year of visits than v7's, which it called once per row), same answers.
        CREATE OR REPLACE FUNCTION ft_towards(lat double precision, lon double precision, track double precision,
                                              tlat double precision, tlon double precision, tolerance double precision)
        RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
            SELECT COALESCE(abs((track - degrees(atan2(sin(radians(tlon - lon)) * cos(radians(tlat)),
                                    cos(radians(lat)) * sin(radians(tlat)) - sin(radians(lat)) * cos(radians(tlat)) * cos(radians(tlon - lon)))) + 540)
                                - 360 * floor((track - degrees(atan2(sin(radians(tlon - lon)) * cos(radians(tlat)),
                                    cos(radians(lat)) * sin(radians(tlat)) - sin(radians(lat)) * cos(radians(tlat)) * cos(radians(tlon - lon)))) + 540) / 360)
                                - 180) <= tolerance, false)
        $$;

        -- Recomputes every rollup from the closed visits (this migration's backfill, and
        -- `PostgresStore.rebuildStatistics`).
        CREATE FUNCTION ft_stat_rebuild() RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM statDay;
            DELETE FROM statMember;
            UPDATE statMeta SET validFrom = 0, cleanedTo = 0;
            INSERT INTO statDay (dimension, day, key, visits, messages, aircraft, flights)
            SELECT 6, ft_stat_day(firstSeen), COALESCE(ft_utc_text(firstSeen, 'YYYY-MM-DD'), 'unknown'), COUNT(*), SUM(messages),
                   COUNT(DISTINCT address), COUNT(DISTINCT callsign)
            FROM visit WHERE closed GROUP BY 2, 3;
            INSERT INTO statDay (dimension, day, key, visits, messages)
            SELECT k.dimension, ft_stat_day(v.firstSeen), k.key, COUNT(*), SUM(v.messages)
            FROM visit AS v CROSS JOIN LATERAL ft_stat_keys(v.typeCode, v.operatorName, v.category, v.maxAltitude, v.firstSeen) AS k
            WHERE v.closed GROUP BY 1, 2, 3;
            INSERT INTO statMember (dimension, key, kind, member, firstDay, lastDay, days)
            SELECT k.dimension, k.key, m.kind, m.member, MIN(ft_stat_day(v.firstSeen)), MAX(ft_stat_day(v.firstSeen)),
                   array_agg(DISTINCT ft_stat_day(v.firstSeen))
            FROM visit AS v CROSS JOIN LATERAL ft_stat_keys(v.typeCode, v.operatorName, v.category, v.maxAltitude, v.firstSeen) AS k
            CROSS JOIN LATERAL (VALUES (0, v.address::text), (1, v.callsign)) AS m(kind, member)
            WHERE v.closed AND m.member IS NOT NULL GROUP BY 1, 2, 3, 4;
        END
        $$;
        SELECT ft_stat_rebuild();
        """
}
