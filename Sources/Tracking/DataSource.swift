import ModeS

/// Where a value came from, worst to best. A value from a better source is kept over a
/// fresher one from a worse source until it goes stale (`TableConfiguration.staleAfter`).
///
/// Comm-B values are inferred registers (the register number is not transmitted), so they
/// rank below the surveillance replies; TIS-B and ADS-R are ground rebroadcasts of other
/// surveillance, so they rank below ADS-B the aircraft sends itself.
public enum DataSource: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A Comm-B register inferred from a DF20/21 MB field.
    case commB = 0
    /// A Mode S surveillance or all-call reply (DF0/4/5/11/16/20/21).
    case modeS = 1
    /// TIS-B (DF18 CF 2, 3, 5).
    case tisb = 2
    /// ADS-R rebroadcast (DF18 CF 6).
    case adsr = 3
    /// ADS-B from the aircraft itself (DF17, DF18 CF 0/1).
    case adsb = 4

    public static func < (a: DataSource, b: DataSource) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .commB: "comm-b"
        case .modeS: "mode_s"
        case .tisb: "tisb"
        case .adsr: "adsr"
        case .adsb: "adsb"
        }
    }

    /// The source of an extended squitter's content, from its DF and control field.
    public init(_ squitter: ExtendedSquitter) {
        switch squitter.controlField {
        case nil, 0?, 1?: self = .adsb
        case 6?: self = .adsr
        default: self = .tisb
        }
    }
}
