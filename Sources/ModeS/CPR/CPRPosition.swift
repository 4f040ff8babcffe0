/// The Compact Position Reporting fields of one airborne (TC 9–18, 20–22) or surface
/// (TC 5–8) position message, as transmitted (DO-260B §2.2.3.2.3.7–8, Doc 9871 §A.2.3.2–3).
///
/// | ME bits | frame bits | field | meaning |
/// |---|---|---|---|
/// | 22 | 54 | F | CPR format: 0 even, 1 odd |
/// | 23–39 | 55–71 | LAT-CPR | 17-bit encoded latitude (fraction of a zone × 2^17) |
/// | 40–56 | 72–88 | LON-CPR | 17-bit encoded longitude (fraction of a zone × 2^17) |
///
/// Airborne and surface messages put these fields at the same places; the zone sizes
/// differ (360° vs 90°), so the decoder needs to know which kind it holds.
public struct CPRPosition: Hashable, Sendable {
    /// Even (F = 0) or odd (F = 1).
    public var format: CPRFormat
    /// Encoded latitude, 0 ..< 2^17.
    public var lat: UInt32
    /// Encoded longitude, 0 ..< 2^17.
    public var lon: UInt32

    /// Stores the values; bits above the 17th are ignored by the decoders.
    public init(format: CPRFormat, lat: UInt32, lon: UInt32) {
        self.format = format
        self.lat = lat
        self.lon = lon
    }

    /// Reads F, LAT-CPR and LON-CPR from ME bits 22, 23–39 and 40–56.
    public init(messageField field: MessageField) {
        self.format = field.bit(22) ? .odd : .even
        self.lat = UInt32(field.bits(23, 39))
        self.lon = UInt32(field.bits(40, 56))
    }
}
