import ModeS
import Synchronization
import Tracking

/// Keeps the recent positions of every aircraft, taken from successive snapshots: a point is
/// added when an aircraft's position report is newer than its last point. Bounded: at most
/// `maxPoints` per aircraft, points older than `maxAge` seconds dropped, aircraft that left
/// the snapshot forgotten.
public final class TrailRecorder: TrackSource {
    private struct State {
        var trails: [AircraftKey: [TrackPoint]] = [:]
        var lastTime = -Double.infinity
    }

    private let state = Mutex(State())
    public let maxPoints: Int
    public let maxAge: Double

    public init(maxPoints: Int = 600, maxAge: Double = 900) {
        self.maxPoints = max(1, maxPoints)
        self.maxAge = maxAge
    }

    /// Adds the positions of `snapshot`. Snapshots not newer than the last one are ignored.
    public func record(_ snapshot: TableSnapshot) {
        state.withLock { s in
            guard snapshot.time > s.lastTime else { return }
            s.lastTime = snapshot.time
            var next: [AircraftKey: [TrackPoint]] = [:]
            next.reserveCapacity(snapshot.aircraft.count)
            for a in snapshot.aircraft {
                var trail = s.trails[a.key] ?? []
                if let p = a.position, p.time > (trail.last?.time ?? -.infinity) {
                    trail.append(TrackPoint(time: p.time, position: p.value, altitude: a.isOnGround ? 0 : a.altBaro?.value))
                }
                let cutoff = snapshot.time - maxAge
                if let first = trail.firstIndex(where: { $0.time >= cutoff }) {
                    if first > 0 { trail.removeFirst(first) }
                } else {
                    trail.removeAll()
                }
                if trail.count > maxPoints { trail.removeFirst(trail.count - maxPoints) }
                if !trail.isEmpty { next[a.key] = trail }
            }
            s.trails = next
        }
    }

    public func track(for key: AircraftKey) -> [TrackPoint] {
        state.withLock { $0.trails[key] ?? [] }
    }

    public func allTracks() -> [AircraftKey: [TrackPoint]] {
        state.withLock { $0.trails }
    }
}

/// A live source that feeds a `TrailRecorder` with each new snapshot it hands out, so trails
/// build up while anyone looks (the page polls every second) with no extra wiring.
public struct RecordingTableSource: LiveTableSource {
    public let base: any LiveTableSource
    public let trails: TrailRecorder

    public init(_ base: any LiveTableSource, trails: TrailRecorder = TrailRecorder()) {
        self.base = base
        self.trails = trails
    }

    public var currentSnapshot: TableSnapshot {
        let snapshot = base.currentSnapshot
        trails.record(snapshot)
        return snapshot
    }
}
