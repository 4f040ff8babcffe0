/// The one place where the two engines' SQL differs. Statements are written once (`SQL`) in
/// the subset both engines read alike: unquoted camel-case names (PostgreSQL folds them, and
/// reads them, in lower case), `"user"` quoted, `ON CONFLICT … DO`, `RETURNING`, booleans as
/// bound values or bare columns (`NOT closed`), `CAST(… AS BIGINT)`, and the project's own SQL
/// functions (`ft_utc_text`, `ft_altitude_band`, `ft_towards`), which each engine defines
/// (`AppDatabase.functions`, `PostgresSchema`). What remains is here.
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
}
