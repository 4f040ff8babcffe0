import ModeS

/// The path a visit flew, from its track points: how far, how long, how fast, and its
/// altitude profile ("record a path: distance, time, pace"). Distances in NM, speeds in kt,
/// altitudes in ft, times in Unix seconds.
public struct VisitPath: Codable, Sendable, Equatable {
    /// One point of the profile.
    public struct Point: Codable, Sendable, Equatable {
        /// Seconds since the first point.
        public var elapsed: Double
        /// NM flown since the first point (along the path).
        public var distance: Double
        public var latitude: Double
        public var longitude: Double
        public var altitude: Int?
        /// Ground speed reported with the point, kt.
        public var groundSpeed: Double?
    }

    public var visitId: Int64
    public var start: Double
    public var end: Double
    /// Seconds from the first point to the last.
    public var duration: Double
    /// NM along the path (great circle between successive points).
    public var distance: Double
    /// Distance over duration, kt (nil for less than a second of path).
    public var averageSpeed: Double?
    /// The highest reported ground speed, kt.
    public var maxSpeed: Double?
    public var minAltitude: Int?
    public var maxAltitude: Int?
    public var points: [Point]

    /// The path of `points` (any order; sorted by time here).
    public init(visitId: Int64, points records: [TrackPointRecord]) {
        let sorted = records.sorted { $0.time < $1.time }
        self.visitId = visitId
        start = sorted.first?.time ?? 0
        end = sorted.last?.time ?? 0
        duration = end - start
        var along = 0.0
        var points: [Point] = []
        points.reserveCapacity(sorted.count)
        for (i, p) in sorted.enumerated() {
            if i > 0 {
                let q = sorted[i - 1]
                along += Geodesy.distance(Coordinate(latitude: q.latitude, longitude: q.longitude),
                                          Coordinate(latitude: p.latitude, longitude: p.longitude))
            }
            points.append(Point(elapsed: p.time - start, distance: along, latitude: p.latitude, longitude: p.longitude,
                                altitude: p.altitude, groundSpeed: p.groundSpeed))
        }
        distance = along
        averageSpeed = duration >= 1 ? along / duration * 3600 : nil
        maxSpeed = sorted.compactMap(\.groundSpeed).max()
        let altitudes = sorted.compactMap(\.altitude)
        minAltitude = altitudes.min()
        maxAltitude = altitudes.max()
        self.points = points
    }
}
