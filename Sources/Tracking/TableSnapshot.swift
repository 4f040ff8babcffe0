import ModeS

/// An immutable, consistent view of the table at one instant: what readers (JSON files,
/// terminal view, HTTP API, watchlist) work on while the decoder goes on writing.
public struct TableSnapshot: Sendable {
    /// The instant of the view (seconds, the table's time base).
    public let time: Double
    /// Reliable aircraft sorted by key; expired fields are nil.
    public let aircraft: [Aircraft]
    /// The table's cumulative counters at that instant.
    public let counters: TableCounters
    /// The configured receiver position, and the estimate made from positions.
    public let receiver: Coordinate?
    public let receiverEstimate: Coordinate?
    /// Aircraft held, including those not reliable yet.
    public let tracked: Int
    /// The latest landings the table saw (runways in use).
    public var landings: [Landing] = []

    public init(time: Double, aircraft: [Aircraft], counters: TableCounters = TableCounters(),
                receiver: Coordinate? = nil, receiverEstimate: Coordinate? = nil, tracked: Int? = nil) {
        self.time = time
        self.aircraft = aircraft
        self.counters = counters
        self.receiver = receiver
        self.receiverEstimate = receiverEstimate
        self.tracked = tracked ?? aircraft.count
    }

    /// An empty snapshot.
    public static let empty = TableSnapshot(time: 0, aircraft: [])

    /// Number of aircraft shown.
    public var count: Int { aircraft.count }

    /// The receiver's position: `configured` when given, else the table's configured one,
    /// else the one estimated from decoded positions.
    public func receiverPosition(configured: Coordinate?) -> Coordinate? { configured ?? receiver ?? receiverEstimate }

    // MARK: Queries

    /// The aircraft with this key (binary search).
    public func aircraft(_ key: AircraftKey) -> Aircraft? {
        var low = 0
        var high = aircraft.count
        while low < high {
            let mid = (low + high) / 2
            if aircraft[mid].key < key { low = mid + 1 } else { high = mid }
        }
        return low < aircraft.count && aircraft[low].key == key ? aircraft[low] : nil
    }

    /// The aircraft with this ICAO address.
    public func aircraft(address: UInt32) -> Aircraft? { aircraft(AircraftKey(address: address)) }

    /// The aircraft with this hex key (`4840d6`, `~3a2b4c`).
    public func aircraft(hex: String) -> Aircraft? { AircraftKey(hex: hex).flatMap { aircraft($0) } }

    /// Aircraft matching every criterion of `query`.
    public func filter(_ query: AircraftQuery) -> [Aircraft] {
        aircraft.filter { query.matches($0) }
    }

    /// By tail number (`D-AIUP`, `daiup`).
    public func aircraft(registration: String) -> [Aircraft] { filter(AircraftQuery(registration: registration)) }

    /// By callsign, exactly or as a prefix (`KLM` finds `KLM1023`).
    public func aircraft(callsign: String, prefix: Bool = false) -> [Aircraft] {
        filter(AircraftQuery(callsign: callsign, callsignPrefix: prefix))
    }

    /// By ICAO type designator with `*` and `?` wildcards (`B73*`).
    public func aircraft(typeCode pattern: String) -> [Aircraft] { filter(AircraftQuery(typeCode: pattern)) }

    /// By squawk (4 octal digits).
    public func aircraft(squawk: String) -> [Aircraft] { filter(AircraftQuery(squawk: squawk)) }

    /// Within `radius` NM of `center`.
    public func aircraft(within radius: Double, of center: Coordinate) -> [Aircraft] {
        filter(AircraftQuery(area: .radius(center: center, nauticalMiles: radius)))
    }

    /// Inside a latitude/longitude box.
    public func aircraft(in box: GeoBox) -> [Aircraft] { filter(AircraftQuery(area: .box(box))) }

    /// With a barometric altitude in `range` (ft; aircraft on the ground count as 0 ft).
    public func aircraft(altitude range: ClosedRange<Int>) -> [Aircraft] { filter(AircraftQuery(altitude: range)) }
}
