import ModeS
import PostgresTestSupport
import Testing
import Tracking
@testable import Store

/// A visit's path (issue 27 item 5): distance and duration computed from its points.
struct VisitPathTests {
    @Test("distance is the sum of the legs between points, duration first to last, average speed their ratio")
    func straightLine() {
        // North at 360 kt: 1 NM every 10 s, for a minute; altitude climbing 100 ft a point.
        let records = TrackFixtures.northbound(visitId: 9)
        let path = VisitPath(visitId: 9, points: records.reversed())
        #expect(path.start == 1000 && path.end == 1060 && path.duration == 60)
        #expect(abs(path.distance - 6) < 1e-6)
        #expect(abs(path.averageSpeed! - 360) < 1e-3)
        #expect(path.maxSpeed == 361)
        #expect(path.minAltitude == 3000 && path.maxAltitude == 3600)
        #expect(path.points.map(\.elapsed) == [0, 10, 20, 30, 40, 50, 60], "in time order")
        #expect(path.points.map { ($0.distance * 1e6).rounded() / 1e6 } == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test("a turn counts the legs flown, not the straight line from start to end")
    func aTurnIsLongerThanTheChord() {
        let start = Coordinate(latitude: 52, longitude: 4)
        let east = Geodesy.destination(from: start, bearing: 90, distance: 3)
        let back = Geodesy.destination(from: east, bearing: 0, distance: 4)
        let records = [start, east, back].enumerated().map { i, p in
            TrackPointRecord(visitId: 1, time: Double(i) * 60, latitude: p.latitude, longitude: p.longitude)
        }
        let path = VisitPath(visitId: 1, points: records)
        #expect(abs(path.distance - 7) < 0.01)
        #expect(path.maxSpeed == nil && path.minAltitude == nil)
    }

    @Test("no points: an empty path; one point: no average speed")
    func degenerate() {
        #expect(VisitPath(visitId: 1, points: []).points.isEmpty)
        let one = VisitPath(visitId: 1, points: [TrackPointRecord(visitId: 1, time: 5, latitude: 1, longitude: 2)])
        #expect(one.duration == 0 && one.distance == 0 && one.averageSpeed == nil)
    }

    @Test("track points read the same on both engines, in time order", arguments: [0, 7, 13])
    func trackPointsOnBothEngines(aircraft index: Int) async throws {
        var paths: [[TrackPointRecord]] = []
        for engine in Engine.allCases {
            let store = try await engine.makeStore()
            _ = try await EngineParityTests.fill(store, aircraft: 20)
            let visit = try await #require(try store.sightings.visits(address: UInt32(0x400000 + index), limit: 10).last)
            let points = try await store.sightings.trackPoints(visitId: visit.id!)
            #expect(!points.isEmpty)
            #expect(points.map(\.time) == points.map(\.time).sorted())
            paths.append(points.map { var p = $0; p.id = nil; p.visitId = 0; return p })
        }
        #expect(paths[0] == paths[1])
    }
}
