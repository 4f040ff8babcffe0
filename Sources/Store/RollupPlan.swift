/// How a statistics question is answered from the rollups, engine-neutral: which rollup rows
/// (dimension codes, whole days, a type restriction) and which visit rows around them, read
/// by one statement for both engines (`StatisticsRepository.rollupQuery`) over rollup tables
/// of the same shape (`StatisticsSchema`; `PostgresRollupSchema.v10`).
///
/// Dimension codes: 0 total (key ''), 1 type, 2 operator, 3 category, 4 altitude band, 5 hour,
/// 6 day; 11…14 type × operator, category, altitude band, hour (key `B738<US>KLM`).
public struct RollupPlan: Sendable {
    /// The whole UTC days `first…last` (days since 1970) counted from the rollups.
    public var first: Int
    public var last: Int
    /// Disjoint conditions over `visit` whose union is every admitted visit that is not a
    /// closed visit of a day in `first…last`: the partial days at the window's edges, visits
    /// that began before the window and were still heard in it, open visits, days before
    /// the rollups' `validFrom`.
    public var rawParts: [RawPart]
    public var dimension: StatsDimension?
    /// `statDay.dimension` of the visit and message counts.
    public var dayCode: Int
    /// `statMember.dimension` of the distinct aircraft and callsigns.
    public var memberCode: Int
    /// A type pattern restricts the total: members are counted over the type dimension's keys.
    public var totalOverTypes: Bool
    /// A type pattern with another dimension: the combined keys (11…14), grouped by the part
    /// after the type.
    public var byType: Bool
    /// The type restriction, if any.
    public var type: TypeMatch?

    public enum TypeMatch: Sendable, Equatable {
        /// `typeCode = value`.
        case exact(String)
        /// `typeCode LIKE value%` (a prefix of upper-case letters and digits).
        case prefix(String)
    }

    /// One raw part: every condition present must hold.
    public struct RawPart: Sendable, Equatable {
        public var firstSeenFrom: Double?
        public var firstSeenBelow: Double?
        public var firstSeenThrough: Double?
        public var lastSeenFrom: Double?
        public var openOnly = false

        /// The part as a condition over `visit`, its values bound.
        public var condition: SQL {
            var clauses: [SQL] = []
            if openOnly { clauses.append("NOT closed") }
            if let v = firstSeenFrom { clauses.append("firstSeen >= \(v)") }
            if let v = firstSeenBelow { clauses.append("firstSeen < \(v)") }
            if let v = firstSeenThrough { clauses.append("firstSeen <= \(v)") }
            if let v = lastSeenFrom { clauses.append("lastSeen >= \(v)") }
            return clauses.isEmpty ? "true" : SQL.joined(clauses, separator: " AND ")
        }
    }

    public static let day = 86_400.0
    /// Shorter windows are answered from `visit` (a few thousand rows at most).
    public static let minimumSpan = 7 * 86_400.0
    /// A day after every plausible time, for windows without an end.
    public static let endOfTime = Int(Int32.max)
    /// The separator of combined keys (`B738<US>KLM`), ASCII unit separator.
    public static let separator = "\u{1F}"

    public static func dimensionCode(_ dimension: StatsDimension?) -> Int {
        switch dimension {
        case nil: 0
        case .type: 1
        case .operator: 2
        case .category: 3
        case .altitude: 4
        case .hour: 5
        case .day: 6
        }
    }

    /// The plan for `dimension` (nil: the total) under `filter`, or nil when the rollups
    /// cannot answer: filters they do not carry (`--towards`, `--within`, `--receiver`, a
    /// type pattern by day, a pattern that would match the key `unknown`), no whole day, or
    /// (`automatic`) a window shorter than `minimumSpan`.
    ///
    /// - Parameters:
    ///   - validFrom: the first day the rollups hold exactly (`statMeta.validFrom`).
    ///   - longestVisit: the longest `lastSeen - firstSeen` in the log, seconds (nil: empty).
    ///   - newest: the latest `lastSeen` in the log, the end of a window without `until`.
    public static func make(dimension: StatsDimension?, filter: StatsFilter, automatic: Bool,
                            validFrom: Int, longestVisit: Double?, newest: Double?) throws -> RollupPlan? {
        guard filter.towards == nil, filter.withinKm == nil, filter.receiver == nil else { return nil }
        var type: TypeMatch?
        if let raw = filter.typePattern {
            if dimension == .day { return nil }
            let pattern = try WatchRule.normalize(kind: .type, value: raw)
            if pattern.hasSuffix("*") {
                let body = String(pattern.dropLast())
                if "unknown".hasPrefix(body.lowercased()) { return nil }
                type = .prefix(body)
            } else {
                type = .exact(pattern)
            }
        }
        if automatic, let s = filter.since {
            let end = filter.until ?? newest ?? .infinity
            if end - s < minimumSpan { return nil }
        }
        let bound = 1e11
        if let s = filter.since, !(s.isFinite && abs(s) < bound) { return nil }
        if let u = filter.until, !(u.isFinite && abs(u) < bound) { return nil }
        var first = max(1, validFrom)
        if let s = filter.since {
            var d = Int((s / day).rounded(.up))
            while Double(d) * day < s { d += 1 }
            while Double(d - 1) * day >= s { d -= 1 }
            first = max(first, d)
        }
        var last = endOfTime
        if let u = filter.until {
            var d = Int((u / day).rounded(.down)) - 1
            while Double(d + 1) * day > u { d -= 1 }
            while Double(d + 2) * day <= u { d += 1 }
            last = d
        }
        guard last >= first else { return nil }
        let lo = Double(first) * day
        var parts: [RawPart] = []
        if let s = filter.since {
            parts.append(RawPart(firstSeenFrom: s, firstSeenBelow: lo))
            if let longestVisit {
                parts.append(RawPart(firstSeenFrom: s - longestVisit - 1, firstSeenBelow: s, lastSeenFrom: s))
            }
        } else {
            parts.append(RawPart(firstSeenBelow: lo))
        }
        if last == endOfTime {
            parts.append(RawPart(firstSeenFrom: lo, openOnly: true))
        } else {
            let hi = Double(last + 1) * day
            parts.append(RawPart(firstSeenFrom: lo, firstSeenBelow: hi, openOnly: true))
            if let u = filter.until { parts.append(RawPart(firstSeenFrom: hi, firstSeenThrough: u)) }
        }
        let byType = type != nil && dimension != nil && dimension != .type
        let totalOverTypes = type != nil && dimension == nil
        let code = dimensionCode(dimension) + (byType ? 9 : 0)
        return RollupPlan(first: first, last: last, rawParts: parts, dimension: dimension,
                          dayCode: totalOverTypes ? 1 : code, memberCode: totalOverTypes ? 1 : code,
                          totalOverTypes: totalOverTypes, byType: byType, type: type)
    }

    /// The restriction of rollup keys (`key`), its values bound; empty without a type.
    /// Combined keys are matched by their type part.
    public var keyCondition: SQL {
        switch type {
        case nil: ""
        case .prefix(let body)?: " AND key LIKE \(body + "%")"
        case .exact(let pattern)? where byType:
            " AND key >= \(pattern + Self.separator) AND key < \(pattern + " ")"
        case .exact(let pattern)?: " AND key = \(pattern)"
        }
    }

    /// The restriction of visit rows (`typeCode`), its value bound; empty without a type.
    public var typeCondition: SQL {
        switch type {
        case nil: ""
        case .prefix(let body)?: " AND typeCode LIKE \(body + "%")"
        case .exact(let pattern)?: " AND typeCode = \(pattern)"
        }
    }
}
