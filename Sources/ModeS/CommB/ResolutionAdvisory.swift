/// An ACAS resolution advisory report: MB/ME bits 9–56 of BDS 3,0 (Comm-B) and of ADS-B
/// TC 28 subtype 2, which share the layout (ICAO Annex 10 Vol IV §4.3.8.4.2.2; Doc 9871
/// Table A-2-48; DO-260B §2.2.3.2.7.8.2).
///
/// | bits | field | coding |
/// |---|---|---|
/// | 9–22 | ARA, active resolution advisories | bit 9 and `mte` select the meaning, see `Advisory` |
/// | 23–26 | RAC, RAs complement | do not pass below, above, turn left, right |
/// | 27 | RAT, RA terminated | 1 = the RA has ceased (reported for 18 s after) |
/// | 28 | MTE, multiple threat encounter | |
/// | 29–30 | TTI, threat type indicator | 0 none, 1 address, 2 altitude/range/bearing, 3 reserved |
/// | 31–56 | TID, threat identity data | TTI 1: 31–54 address, 55–56 zero; TTI 2: see `ThreatPosition` |
///
/// ARA bits 16–22 are reserved for ACAS III.
public struct ResolutionAdvisory: Hashable, Sendable {
    /// The 14 ARA bits, field bit 9 most significant.
    public var ara: UInt16
    /// RA complements received from other ACAS (bits 23–26).
    public var complement: Complement
    /// RAT: the RA was terminated.
    public var terminated: Bool
    /// MTE: more than one threat is being processed.
    public var multipleThreats: Bool
    /// TTI, 0–3.
    public var threatTypeIndicator: Int
    /// The threat identity; nil when TTI is 0 or the reserved 3.
    public var threat: Threat?

    /// Decodes field bits 9…56 (bits 1–8 are the register code or the ADS-B type and subtype).
    public init(_ field: MessageField) {
        ara = UInt16(truncatingIfNeeded: field.bits(9, 22))
        complement = Complement(rawValue: UInt8(truncatingIfNeeded: field.bits(23, 26)))
        terminated = field.bit(27)
        multipleThreats = field.bit(28)
        threatTypeIndicator = field.int(29, 30)
        switch threatTypeIndicator {
        case 1:
            threat = .address(UInt32(truncatingIfNeeded: field.bits(31, 54)))
        case 2:
            threat = .position(ThreatPosition(
                altitudeCode: UInt16(truncatingIfNeeded: field.bits(31, 43)),
                rangeCode: field.int(44, 50),
                bearingCode: field.int(51, 56)))
        default:
            threat = nil
        }
    }

    /// ARA bit `n` as the table numbers it (9…22).
    @inlinable
    public func araBit(_ n: Int) -> Bool {
        guard (9...22).contains(n) else { return false }
        return (ara >> UInt16(22 - n)) & 1 == 1
    }

    /// The vertical RA the ARA bits describe.
    public var advisory: Advisory {
        let detail = UInt8(truncatingIfNeeded: (ara >> 7) & 0x3F)   // bits 10–15
        if araBit(9) { return .oneSense(OneSense(rawValue: detail)) }
        if multipleThreats { return .multipleSenses(MultipleSenses(rawValue: detail)) }
        return .none
    }

    /// What the ARA reports (Annex 10 Vol IV §4.3.8.4.2.2.1.1).
    public enum Advisory: Hashable, Sendable {
        /// ARA bit 9 = 0 and MTE = 0: no vertical RA has been generated.
        case none
        /// ARA bit 9 = 1: an RA is generated, against one threat or (MTE = 1) against several
        /// resolved in the same sense; bits 10–15 describe it.
        case oneSense(OneSense)
        /// ARA bit 9 = 0 and MTE = 1: several threats; bits 10–15 list the requirements.
        case multipleSenses(MultipleSenses)
    }

    /// ARA bits 10–15 when bit 9 = 1 (bit 10 is the most significant flag here).
    public struct OneSense: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0x3F }
        /// Bit 15: positive (climb/descend) rather than a vertical speed limit.
        public static let positive = OneSense(rawValue: 1 << 0)
        /// Bit 14: altitude crossing.
        public static let altitudeCrossing = OneSense(rawValue: 1 << 1)
        /// Bit 13: sense reversal.
        public static let senseReversal = OneSense(rawValue: 1 << 2)
        /// Bit 12: increased rate.
        public static let increasedRate = OneSense(rawValue: 1 << 3)
        /// Bit 11: downward sense (clear: upward).
        public static let downwardSense = OneSense(rawValue: 1 << 4)
        /// Bit 10: corrective (clear: preventive).
        public static let corrective = OneSense(rawValue: 1 << 5)
    }

    /// ARA bits 10–15 when bit 9 = 0 and MTE = 1.
    public struct MultipleSenses: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0x3F }
        /// Bit 15: sense reversal.
        public static let senseReversal = MultipleSenses(rawValue: 1 << 0)
        /// Bit 14: requires a crossing.
        public static let crossing = MultipleSenses(rawValue: 1 << 1)
        /// Bit 13: requires a positive descend.
        public static let positiveDescend = MultipleSenses(rawValue: 1 << 2)
        /// Bit 12: requires a correction in the downward sense.
        public static let downwardCorrection = MultipleSenses(rawValue: 1 << 3)
        /// Bit 11: requires a positive climb.
        public static let positiveClimb = MultipleSenses(rawValue: 1 << 4)
        /// Bit 10: requires a correction in the upward sense.
        public static let upwardCorrection = MultipleSenses(rawValue: 1 << 5)
    }

    /// RAC bits 23–26.
    public struct Complement: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0xF }
        /// Bit 26.
        public static let doNotTurnRight = Complement(rawValue: 1 << 0)
        /// Bit 25.
        public static let doNotTurnLeft = Complement(rawValue: 1 << 1)
        /// Bit 24.
        public static let doNotPassAbove = Complement(rawValue: 1 << 2)
        /// Bit 23.
        public static let doNotPassBelow = Complement(rawValue: 1 << 3)
    }

    /// The threat identity data (TID).
    public enum Threat: Hashable, Sendable {
        /// TTI = 1: the threat's 24-bit Mode S address.
        case address(UInt32)
        /// TTI = 2: the threat's altitude, range and bearing.
        case position(ThreatPosition)
    }

    /// TID when TTI = 2: bits 31–43 TIDA (the threat's 13-bit Mode C altitude code, coded as
    /// the AC field), 44–50 TIDR (range), 51–56 TIDB (bearing).
    public struct ThreatPosition: Hashable, Sendable {
        /// TIDA as transmitted.
        public var altitudeCode: UInt16
        /// TIDR: 0 no range estimate, 1 under 0.05 NM, n = 2…126 (n − 1)/10 NM, 127 over 12.55 NM.
        public var rangeCode: Int
        /// TIDB: 0 no bearing, n = 1…60 between 6(n − 1) and 6n degrees, 61–63 not assigned.
        public var bearingCode: Int

        public init(altitudeCode: UInt16, rangeCode: Int, bearingCode: Int) {
            self.altitudeCode = altitudeCode
            self.rangeCode = rangeCode
            self.bearingCode = bearingCode
        }

        /// The threat's altitude, ft; nil when the code is zero or invalid.
        public var altitude: Int? { Altitude.fromAC13(UInt32(altitudeCode)) }

        /// Range, NM: (n − 1)/10 (0 for "under 0.05 NM", 12.6 for "over 12.55 NM"); nil when
        /// no estimate.
        public var range: Double? {
            rangeCode == 0 ? nil : Double(rangeCode - 1) / 10
        }

        /// Bearing from own aircraft, degrees: the middle of the 6° sector; nil when not
        /// available or not assigned.
        public var bearing: Double? {
            (1...60).contains(bearingCode) ? Double(6 * (bearingCode - 1) + 3) : nil
        }
    }
}
