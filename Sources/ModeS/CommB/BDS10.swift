/// BDS 1,0 — data link capability report (ICAO Doc 9871 Table A-2-16; Annex 10 Vol III
/// Part I §5 and Vol IV §3.1.2.6.10.2.2; ACAS bits per Vol IV §4.3.8.4.2.2.2).
///
/// | MB bits | field | coding |
/// |---|---|---|
/// | 1–8 | BDS code | 0001 0000 |
/// | 9 | continuation flag | 1 = BDS 1,1 follows |
/// | 10–14 | reserved | 0 |
/// | 15 | overlay command capability | |
/// | 16 | ACAS operational (reserved for ACAS) | |
/// | 17–23 | Mode S subnetwork version number | 0 = subnetwork not available |
/// | 24 | transponder enhanced protocol indicator | 1 = level 5 |
/// | 25 | Mode S specific services capability | |
/// | 26–28 | uplink ELM average throughput capability | |
/// | 29–32 | downlink ELM throughput capability | |
/// | 33 | aircraft identification capability | |
/// | 34 | squitter capability subfield (SCS) | |
/// | 35 | surveillance identifier code (SIC) capability | |
/// | 36 | common usage GICB capability report | 1 = BDS 1,7 content changed |
/// | 37 | ACAS hybrid surveillance capability | |
/// | 38 | ACAS generates TAs and RAs (0 = TA only) | |
/// | 39–40 | ACAS version | as transmitted |
/// | 41–56 | data terminal equipment status | one bit per DTE sub-address |
public struct BDS10: Hashable, Sendable {
    public static let bds = BDS(1, 0)

    public var continuation: Bool
    public var overlayCommandCapability: Bool
    public var acasOperational: Bool
    public var subnetworkVersion: Int
    public var enhancedProtocol: Bool
    public var specificServices: Bool
    public var uplinkELMThroughput: Int
    public var downlinkELMThroughput: Int
    public var aircraftIdentificationCapability: Bool
    public var squitterCapability: Bool
    public var surveillanceIdentifierCapability: Bool
    public var commonUsageGICBChanged: Bool
    public var acasHybridSurveillance: Bool
    public var acasResolutionAdvisories: Bool
    public var acasVersion: Int
    public var dteStatus: UInt16

    /// True when the first byte is the 1,0 code and the reserved bits 10–14 are zero.
    public static func isValid(_ mb: MessageField) -> Bool {
        mb.bits(1, 8) == 0x10 && mb.isZero(10, 14)
    }

    /// Extracts every field (the report has no status bits).
    public init(_ mb: MessageField) {
        continuation = mb.bit(9)
        overlayCommandCapability = mb.bit(15)
        acasOperational = mb.bit(16)
        subnetworkVersion = mb.int(17, 23)
        enhancedProtocol = mb.bit(24)
        specificServices = mb.bit(25)
        uplinkELMThroughput = mb.int(26, 28)
        downlinkELMThroughput = mb.int(29, 32)
        aircraftIdentificationCapability = mb.bit(33)
        squitterCapability = mb.bit(34)
        surveillanceIdentifierCapability = mb.bit(35)
        commonUsageGICBChanged = mb.bit(36)
        acasHybridSurveillance = mb.bit(37)
        acasResolutionAdvisories = mb.bit(38)
        acasVersion = mb.int(39, 40)
        dteStatus = UInt16(truncatingIfNeeded: mb.bits(41, 56))
    }

    /// Writes bds 1,0 (the report carries no aircraft.json field).
    public func contribute(to fields: inout FieldSet) {
        fields.bds = Self.bds
    }

    /// Inference evidence: 0 when invalid; otherwise all 56 bits are meaningful and the
    /// register identifier adds `CommB.identifierBonus`.
    static func score(_ mb: MessageField) -> Int {
        isValid(mb) ? 56 + CommB.identifierBonus : 0
    }
}
