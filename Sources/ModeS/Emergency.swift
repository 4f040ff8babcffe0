/// Emergency / priority status (DO-260B §2.2.3.2.7.8.1.1, TC28 subtype 1), as aircraft.json
/// names it.
public enum Emergency: Int, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case none = 0, general, lifeguard, minfuel, nordo, unlawful, downed, reserved

    public var description: String {
        switch self {
        case .none: "none"
        case .general: "general"
        case .lifeguard: "lifeguard"
        case .minfuel: "minfuel"
        case .nordo: "nordo"
        case .unlawful: "unlawful"
        case .downed: "downed"
        case .reserved: "reserved"
        }
    }

    /// The emergency a Mode A code announces: 7500 unlawful interference, 7600 no radio,
    /// 7700 general emergency; nil for any other code. `squawk` is the 12-bit code.
    public init?(squawk: UInt16) {
        switch squawk {
        case 0o7500: self = .unlawful
        case 0o7600: self = .nordo
        case 0o7700: self = .general
        default: return nil
        }
    }
}
