/// Autopilot and navigation modes engaged (TC29 version 2, Comm-B 4,0), as aircraft.json's
/// `nav_modes` names them.
public struct NavModes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let autopilot = NavModes(rawValue: 1 << 0)
    public static let vnav = NavModes(rawValue: 1 << 1)
    public static let altitudeHold = NavModes(rawValue: 1 << 2)
    public static let approach = NavModes(rawValue: 1 << 3)
    public static let lnav = NavModes(rawValue: 1 << 4)
    public static let tcas = NavModes(rawValue: 1 << 5)

    /// The aircraft.json names of the modes set, in a fixed order.
    public var names: [String] {
        var result: [String] = []
        if contains(.autopilot) { result.append("autopilot") }
        if contains(.vnav) { result.append("vnav") }
        if contains(.altitudeHold) { result.append("althold") }
        if contains(.approach) { result.append("approach") }
        if contains(.lnav) { result.append("lnav") }
        if contains(.tcas) { result.append("tcas") }
        return result
    }
}

/// Whether the SIL probability is per flight hour or per sample (DO-260B §2.2.3.2.7.2.15).
public enum SILType: String, Sendable, Equatable {
    case unknown, perhour, persample
}
