import ModeS
import Store
import Tracking

/// Track points for the tests of visit paths (the store's `VisitPath`, `history --visit`).
public enum TrackFixtures {
    /// Seven points 10 s apart from 52° N 4° E due north, 1 NM apart (360 kt), climbing 100 ft
    /// a point from 3000 ft; ground speeds `355 + i` unless `speed` is given.
    public static func northbound(visitId: Int64, speed: Double? = nil) -> [TrackPointRecord] {
        let start = Coordinate(latitude: 52, longitude: 4)
        return (0...6).map { i in
            let p = Geodesy.destination(from: start, bearing: 0, distance: Double(i))
            return TrackPointRecord(visitId: visitId, time: 1000 + Double(i) * 10, latitude: p.latitude, longitude: p.longitude,
                                    altitude: 3000 + 100 * i, track: 0, groundSpeed: speed ?? 355 + Double(i))
        }
    }
}
