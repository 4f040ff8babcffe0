import PostgresNIO
import Store

/// The upkeep of PostgreSQL's statistics rollups (`PostgresRollupSchema.v10`; they are read
/// by `StatisticsRepository`, once for both engines).
extension PostgresStore {
    /// Recomputes the statistics rollups from the visit log (after a restore, or when
    /// retention has moved `validFrom` far forward). One transaction.
    public func rebuildStatistics() async throws {
        try await sql.write("SELECT ft_stat_rebuild()")
    }

    /// Refreshes the planner's statistics of every table. Autovacuum does this in time; a
    /// bulk load (an import, `bench --store --postgres`) wants it at once.
    public func analyze() async throws {
        try await sql.write("ANALYZE")
    }
}
