import ModeS
import Tracking

/// readsb's range outline (`outline.json`, which tar1090 draws): in each one-degree bearing
/// from the receiver, the farthest position heard during the last `hours`. Kept in
/// `RangeOutline.slices` slices of the period so that old records age out a slice at a time;
/// `Codable`, so the outline survives a restart.
public struct RangeOutline: Sendable, Codable, Equatable {
    /// The farthest position in one bearing during one slice.
    public struct Point: Sendable, Codable, Equatable {
        /// NM from the receiver.
        public var distance: Double
        public var latitude: Double
        public var longitude: Double
        /// Feet (barometric, else geometric); 0 when unknown.
        public var altitude: Int
    }

    /// One-degree bearings.
    public static let bearings = 360
    /// Slices of the period (the oldest is dropped when a new one starts).
    public static let slices = 24

    /// Hours an outline point is kept (readsb's `--range-outline-hours`, default 24).
    public let hours: Double
    /// Slice number (Unix time / slice length) → its farthest point per bearing.
    private(set) var records: [Int: [Int: Point]] = [:]

    public init(hours: Double = 24) {
        self.hours = min(max(hours, 1.0 / 60), 24 * 365)
    }

    var sliceLength: Double { hours * 3600 / Double(Self.slices) }

    /// Notes a position heard at `time` (Unix seconds) from the receiver at `receiver`.
    public mutating func record(_ position: Coordinate, altitude: Int?, receiver: Coordinate, at time: Double) {
        let distance = Geodesy.distance(receiver, position)
        guard distance.isFinite, distance > 0 else { return }
        let bearing = Int(Geodesy.bearing(from: receiver, to: position).rounded()) % Self.bearings
        let slice = Int((time / sliceLength).rounded(.down))
        if records[slice] == nil { expire(at: time) }
        if let current = records[slice]?[bearing], current.distance >= distance { return }
        records[slice, default: [:]][bearing] = Point(distance: distance, latitude: position.latitude,
                                                      longitude: position.longitude, altitude: altitude ?? 0)
    }

    /// The same points under another period: each saved point is kept in the slice its time
    /// falls into under the new slice length (the latest slice when it cannot be told).
    public func rescaled(hours: Double) -> RangeOutline {
        var out = RangeOutline(hours: hours)
        let old = sliceLength
        for (slice, points) in records {
            let time = (Double(slice) + 0.5) * old
            let newSlice = Int((time / out.sliceLength).rounded(.down))
            for (bearing, p) in points where p.distance > out.records[newSlice]?[bearing]?.distance ?? 0 {
                out.records[newSlice, default: [:]][bearing] = p
            }
        }
        return out
    }

    /// Drops slices older than the period at `time`.
    public mutating func expire(at time: Double) {
        let current = Int((time / sliceLength).rounded(.down))
        records = records.filter { $0.key > current - Self.slices && $0.key <= current }
    }

    /// The farthest point in each bearing over the kept slices, by bearing.
    public func outline(at time: Double) -> [Point] {
        var pruned = self
        pruned.expire(at: time)
        var best: [Int: Point] = [:]
        for slice in pruned.records.values {
            for (bearing, p) in slice where p.distance > best[bearing]?.distance ?? 0 { best[bearing] = p }
        }
        return best.keys.sorted().map { best[$0]! }
    }

    /// `outline.json` as readsb writes it:
    /// `{"actualRange":{"last24h":{"points":[[lat,lon,alt],…]}}}` (by bearing).
    public func document(at time: Double) -> String {
        let points = outline(at: time).map { p in
            JSONWriter.array([JSONWriter.rounded(p.latitude, 4).description, JSONWriter.rounded(p.longitude, 4).description,
                              String(p.altitude)])
        }
        var period = JSONWriter()
        period.addRaw("points", JSONWriter.array(points))
        var range = JSONWriter()
        range.addRaw("last24h", period.finish())
        var w = JSONWriter()
        w.addRaw("actualRange", range.finish())
        return w.finish()
    }
}
