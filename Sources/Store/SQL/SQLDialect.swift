/// The one place where the two engines' SQL differs. Statements are written once (`SQL`) in
/// the subset both engines read alike: unquoted camel-case names (PostgreSQL folds them, and
/// reads them, in lower case), `"user"` quoted, `ON CONFLICT … DO`, `RETURNING`, booleans as
/// bound values or bare columns (`NOT closed`), `CAST(… AS BIGINT)`, `WITH … AS MATERIALIZED`,
/// and the project's own SQL function `ft_towards`, which each engine defines
/// (`GRDBDatabase.addFunctions`, `PostgresSchema`). What remains is here.
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgresql

    /// The placeholder of the `index`th bound value (from 1): `?` or `$1`.
    public func placeholder(_ index: Int) -> String {
        switch self {
        case .sqlite: "?"
        case .postgresql: "$\(index)"
        }
    }

    /// The larger of two values (SQLite's two-argument `MAX`, PostgreSQL's `GREATEST`).
    public var greatest: String {
        switch self {
        case .sqlite: "MAX"
        case .postgresql: "GREATEST"
        }
    }

    /// `column` as the planner should read it without its index: SQLite's unary `+` (a
    /// statistics window longer than a week scans faster than it walks the `lastSeen` index);
    /// PostgreSQL chooses by itself.
    public func unindexed(_ column: String) -> String {
        switch self {
        case .sqlite: "+\(column)"
        case .postgresql: column
        }
    }

    /// The UTC hour (`00`…`23`) of `seconds` (a Unix time column).
    public func utcHour(_ seconds: String) -> String {
        switch self {
        case .sqlite: "strftime('%H', CAST(\(seconds) AS INTEGER), 'unixepoch')"
        case .postgresql: "ft_utc_text(\(seconds), 'HH24')"
        }
    }

    /// The UTC day (`2026-11-22`) of `seconds` (a Unix time column).
    public func utcDay(_ seconds: String) -> String {
        switch self {
        case .sqlite: "strftime('%Y-%m-%d', CAST(\(seconds) AS INTEGER), 'unixepoch')"
        case .postgresql: "ft_utc_text(\(seconds), 'YYYY-MM-DD')"
        }
    }

    /// The 5000 ft band (`30000-34999`, below 0 as 0) of an altitude column in feet; NULL stays NULL.
    public func altitudeBand(_ feet: String) -> String {
        switch self {
        case .sqlite:
            "CASE WHEN \(feet) IS NULL THEN NULL ELSE printf('%05d-%05d', (MAX(\(feet), 0) / 5000) * 5000, (MAX(\(feet), 0) / 5000) * 5000 + 4999) END"
        case .postgresql: "ft_altitude_band(\(feet))"
        }
    }
}
