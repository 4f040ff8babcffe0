import ModeS

/// The aircraft table's tunables. Times in seconds, distances in nautical miles, speeds in
/// knots. The defaults follow readsb's where it has one.
public struct TableConfiguration: Sendable {
    /// The receiver's position, when known: reference for local CPR decoding, range checks,
    /// distance and bearing. When nil the table estimates one from decoded positions
    /// (used only as the reference for surface decoding; see `ReceiverEstimator`).
    public var receiver: Coordinate?
    /// Positions farther than this from the receiver are rejected (`cpr.global_range`,
    /// `cpr.local_range`). Airborne positions are decoded relative to the receiver alone
    /// only when this is at most 180 NM (beyond, local decoding is ambiguous).
    public var maxRange: Double = 300

    /// Messages an aircraft must send, each within `reliabilityWindow` of the previous one,
    /// before it appears in snapshots (single-message "aircraft" from noise never do).
    public var reliableAfter: Int = 2
    public var reliabilityWindow: Double = 30
    /// A reliable aircraft silent this long is removed.
    public var removeAfter: Double = 300
    /// An aircraft that never became reliable is removed after this much silence.
    public var removeUnreliableAfter: Double = 30
    /// Most aircraft kept at once; beyond it the longest-silent (unreliable first) go.
    public var capacity: Int = 20_000

    /// A value from a better source is protected from worse sources for this long.
    public var staleAfter: Double = 15
    /// How long each kind of field is shown after it was last received.
    public var expiry = FieldExpiry()

    /// Surface positions are paired within 50 s when the ground speed is at most 25 kt (or
    /// unknown), 25 s above (DO-260B §A.1.7.8); airborne ones within 10 s, shortened for
    /// aircraft faster than `pairingReferenceSpeed` so the pair spans at most
    /// 10 s × that speed of travel.
    public var airbornePairWindow: Double = 10
    public var pairingReferenceSpeed: Double = 500
    /// Oldest own position used as the reference for local decoding (airborne: 300 s at
    /// 600 kt is 50 NM, well within the 180 NM half zone; surface the same within 45 NM).
    public var localReferenceMaxAge: Double = 300

    public init(receiver: Coordinate? = nil) {
        self.receiver = receiver
    }
}

/// How long fields are shown after they were last received, by kind (seconds).
public struct FieldExpiry: Sendable {
    /// Position (readsb: 60 s).
    public var position: Double = 60
    /// Callsign, category, squawk.
    public var identity: Double = 120
    /// Altitude, speeds, track, rates, headings, intent, quality indicators.
    public var state: Double = 60
    /// Comm-B meteorology (wind, temperature, pressure, humidity).
    public var weather: Double = 120

    public init() {}
}
