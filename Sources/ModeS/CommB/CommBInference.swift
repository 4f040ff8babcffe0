/// One register a Comm-B MB field can be read as, with how strongly it fits.
public struct CommBCandidate: Hashable, Sendable {
    public var register: CommBRegister
    /// Evidence score, higher is better; only meaningful relative to other candidates of the
    /// same MB.
    public var score: Int

    public init(register: CommBRegister, score: Int) {
        self.register = register
        self.score = score
    }
}

/// Comm-B register inference: which register a DF20/DF21 MB field holds, since the reply does
/// not say (a ground-initiated Comm-B reply carries no register number; ICAO Doc 9871
/// Appendix A).
///
/// Each register's validator (`BDSxy.isValid`) decides whether the MB can be that register at
/// all. A valid register is then scored by its evidence:
/// - registers with a fixed signature — 1,0, 2,0 and 3,0 (register code in bits 1–8) and 1,7
///   (capability map plus 32 reserved zeros) — score 56 + `identifierBonus` = 80;
/// - the status-bit registers 4,0, 5,0 and 6,0 score the status and value bits of each field
///   whose status bit is set (reserved bits too, for 4,0) plus at most 16 points of
///   cross-checks and plausible values (5,0: ground speed vs true airspeed, track rate vs
///   roll, wings level; 6,0: IAS vs Mach, barometric vs inertial rate; 4,0: round selected
///   altitudes, standard-ish QNH), so at most 72, minus penalties for field combinations a
///   real report rarely has (5,0 ground speed without TAS, 6,0 airspeed without the
///   barometric rate, …) — these are what separate 5,0 from 6,0;
/// - the optional meteorological registers 4,4 and 4,5 score half of that, so they win only
///   when nothing else fits.
/// An all-zero MB fits nothing. Inference never mutates anything; the caller skips it for
/// frames whose bits were corrected.
public enum CommB {
    /// Points a fixed register signature adds to its 56 meaningful bits: more than any
    /// status-bit register can reach (56 + 16).
    public static let identifierBonus = 24

    /// Every register whose validator accepts `mb`, best score first (ties keep the
    /// order 1,0 1,7 2,0 3,0 4,0 4,4 4,5 5,0 6,0).
    public static func candidates(_ mb: MessageField) -> [CommBCandidate] {
        guard mb.value != 0 else { return [] }
        var result: [CommBCandidate] = []
        for kind in CommBRegister.Kind.allCases {
            let score = kind.score(mb)
            if score > 0 { result.append(CommBCandidate(register: kind.decode(mb), score: score)) }
        }
        // Stable: insertion sort keeps equal scores in register order.
        var i = 1
        while i < result.count {
            var j = i
            while j > 0, result[j - 1].score < result[j].score {
                result.swapAt(j - 1, j)
                j -= 1
            }
            i += 1
        }
        return result
    }

    /// The best-scoring register, or nil when none fits or the two best tie. Allocation-free.
    public static func infer(_ mb: MessageField) -> CommBRegister? {
        guard mb.value != 0 else { return nil }
        var best: CommBRegister.Kind?
        var bestScore = 0
        var tied = false
        var raw = 0
        while raw < CommBRegister.Kind.count {
            if let kind = CommBRegister.Kind(rawValue: raw) {
                let score = kind.score(mb)
                if score > bestScore {
                    best = kind
                    bestScore = score
                    tied = false
                } else if score > 0, score == bestScore {
                    tied = true
                }
            }
            raw += 1
        }
        guard let best, !tied else { return nil }
        return best.decode(mb)
    }
}
