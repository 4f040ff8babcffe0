import ModeS

/// What one receiver of a network covers: the aircraft it hears now and the farthest
/// position it has heard in each 30° sector of bearing since the aggregator started (the
/// "range outline" of a receiver, as tar1090's outline shows for one).
public struct ReceiverCoverage: Sendable, Hashable, Codable {
    /// Bearing sectors of the outline: 12 of 30°, the first 0°…30° true, then clockwise.
    public static let sectorCount = 12

    /// Aircraft heard now (in the last snapshot).
    public var aircraft = 0
    /// Of those, with a position.
    public var withPosition = 0
    /// Farthest aircraft heard now, NM (nil: none with a position, or no station position).
    public var rangeNow: Double?
    /// Farthest position heard since start in each sector, NM (0 = none).
    public var sectors = [Double](repeating: 0, count: ReceiverCoverage.sectorCount)

    public init() {}

    /// Farthest position heard since start, NM.
    public var maxRange: Double { sectors.max() ?? 0 }
}

/// Coverage of every receiver, updated from each snapshot of the merged table.
public struct CoverageMap: Sendable {
    public private(set) var receivers: [ReceiverID: ReceiverCoverage] = [:]

    public init() {}

    /// Counts `snapshot`'s aircraft per receiver that hears them; ranges are measured from
    /// each receiver's own position (`stations`), so a receiver with no known position
    /// counts aircraft but no range.
    /// `known`: the receivers the network still knows; coverage of any other is forgotten
    /// (nil keeps every one).
    public mutating func update(_ snapshot: TableSnapshot, stations: [ReceiverID: Coordinate], known: Set<ReceiverID>? = nil) {
        if let known { receivers = receivers.filter { known.contains($0.key) } }
        for id in receivers.keys {
            receivers[id]?.aircraft = 0
            receivers[id]?.withPosition = 0
            receivers[id]?.rangeNow = nil
        }
        for a in snapshot.aircraft where !a.heardBy.isEmpty {
            for id in a.heardBy.keys {
                if let known, !known.contains(id) { continue }
                var c = receivers[id] ?? ReceiverCoverage()
                c.aircraft += 1
                if let p = a.position?.value {
                    c.withPosition += 1
                    if let station = stations[id] {
                        let d = Geodesy.distance(station, p)
                        c.rangeNow = max(c.rangeNow ?? 0, d)
                        let b = Geodesy.bearing(from: station, to: p)
                        let sector = min(Int(b / (360 / Double(ReceiverCoverage.sectorCount))), ReceiverCoverage.sectorCount - 1)
                        if d > c.sectors[sector] { c.sectors[sector] = d }
                    }
                }
                receivers[id] = c
            }
        }
    }
}
