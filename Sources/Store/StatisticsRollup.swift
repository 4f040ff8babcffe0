import Foundation
import GRDB

/// How a statistics query is answered: from the rollups (`StatisticsSchema`) for windows of
/// whole days, plus the visit rows the rollups cannot answer for (the partial days at the
/// window's edges, visits that began before the window and were still heard in it, open
/// visits, days before `statMeta.validFrom`); or straight from `visit` (short windows, and
/// filters the rollups do not carry: `--within`, `--towards`, a type pattern on another
/// dimension).
public enum StatsPath: Sendable {
    case automatic
    /// Straight from `visit`.
    case raw
    /// From the rollups; an error when the rollups cannot answer (tests).
    case rollup
}

extension AppDatabase {
    /// Whether a `days` list (`,20454,20460,`) has a day in `first…last`.
    static func hasDay(firstDay: Int, lastDay: Int, days: String, from first: Int, to last: Int) -> Bool {
        if lastDay < first || firstDay > last { return false }
        if lastDay <= last || firstDay >= first { return true }
        // `,d,d,…,`: digits between commas, read without allocating.
        var value = 0, digits = false, negative = false
        func inside() -> Bool { digits && (negative ? -value : value) >= first && (negative ? -value : value) <= last }
        for byte in days.utf8 {
            if byte >= 48 && byte <= 57 {
                value = value &* 10 &+ Int(byte - 48)
                digits = true
            } else if byte == 45 {
                negative = true
            } else {
                if inside() { return true }
                value = 0
                digits = false
                negative = false
            }
        }
        return inside()
    }

    /// `ft_hasday(days, first, last)` for the rows that span the window (see `hasDay`).
    static let hasDayFunction = DatabaseFunction("ft_hasday", argumentCount: 3, pure: true) { values in
        guard let days = String.fromDatabaseValue(values[0]), let first = Int.fromDatabaseValue(values[1]),
              let last = Int.fromDatabaseValue(values[2]) else { return false }
        return hasDay(firstDay: Int.min, lastDay: Int.max, days: days, from: first, to: last)
    }

    /// Recomputes the statistics rollups from the visit log (after a restore, or when
    /// retention has moved `validFrom` far forward). One transaction.
    public func rebuildStatistics() throws {
        try writer.write { db in
            try StatisticsSchema.rebuild(db)
            try StatisticsSchema.rebuildByType(db)
        }
    }
}
