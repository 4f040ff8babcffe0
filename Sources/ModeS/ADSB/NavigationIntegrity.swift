/// Navigation Integrity Category (NIC) of a position message: the containment radius class
/// the type code announces, refined by the NIC supplement bits that other messages carry
/// (DO-260B §2.2.3.2.7.2.6 and Tables 2-14 / 2-15 for version 2; DO-260A Table 2-11 for
/// version 1). Version 0 transmitters report NUCp, not NIC: nil.
public enum NavigationIntegrity {
    /// NIC 0–11, or nil when the combination of type code and supplements is not defined.
    /// - Parameters:
    ///   - typeCode: position type code 5–8 (surface), 9–18 or 20–22 (airborne).
    ///   - version: ADS-B version from the aircraft's operational status (TC31).
    ///   - supplementA: NIC supplement A from TC31 (version 1: the single NIC supplement).
    ///   - supplementB: NIC supplement B, airborne position ME bit 8 (version 2).
    ///   - supplementC: NIC supplement C, surface operational status (version 2).
    public static func nic(typeCode tc: Int, version: Int, supplementA a: Bool, supplementB b: Bool = false, supplementC c: Bool = false) -> Int? {
        switch version {
        case 1: return versionOne(tc, supplement: a)
        case 2: return versionTwo(tc, a: a, b: b, c: c)
        default: return nil
        }
    }

    static func versionOne(_ tc: Int, supplement s: Bool) -> Int? {
        switch tc {
        case 5, 9, 20: 11
        case 6, 10, 21: 10
        case 7, 11: s ? 9 : 8
        case 12: 7
        case 13: 6
        case 14: 5
        case 15: 4
        case 16: s ? 3 : 2
        case 17: 1
        case 8, 18, 22: 0
        default: nil
        }
    }

    static func versionTwo(_ tc: Int, a: Bool, b: Bool, c: Bool) -> Int? {
        switch tc {
        case 5, 9, 20: return 11
        case 6, 10, 21: return 10
        case 7: return a ? 9 : 8            // surface: NIC-A alone (NIC-C = 0 in both rows)
        case 8:
            switch (a, c) {
            case (true, true): return 7
            case (true, false), (false, true): return 6
            case (false, false): return 0
            }
        case 11:
            if a && b { return 9 }
            if !a && !b { return 8 }
            return nil
        case 12: return 7
        case 13: return a && !b ? nil : 6  // (0,1) 0.3 NM, (0,0) 0.5 NM, (1,1) 0.6 NM
        case 14: return 5
        case 15: return 4
        case 16:
            if a && b { return 3 }
            if !a && !b { return 2 }
            return nil
        case 17: return 1
        case 18, 22: return 0
        default: return nil
        }
    }
}
