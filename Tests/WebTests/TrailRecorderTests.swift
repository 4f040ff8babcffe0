import ModeS
import Testing
import Tracking
@testable import Web

/// Trails grow with newer positions only, stay bounded, and forget aircraft that left.
@Suite("Web: trail recorder")
struct TrailRecorderTests {
    @Test("A point per newer position; the same snapshot twice adds nothing; older snapshots are ignored")
    func grows() throws {
        let (first, second) = try Sky.snapshots()
        let recorder = TrailRecorder()
        recorder.record(first)
        recorder.record(first)
        #expect(recorder.track(for: AircraftKey(address: 0x4840D6)).count == 1)
        recorder.record(second)
        recorder.record(first)
        #expect(recorder.track(for: AircraftKey(address: 0x4840D6)).map(\.time) == [1, 3.5])
        #expect(recorder.track(for: AircraftKey(address: 0xA061D9)).isEmpty)
    }

    @Test("maxPoints keeps the newest points")
    func bounded() throws {
        let (first, second) = try Sky.snapshots()
        let recorder = TrailRecorder(maxPoints: 1)
        recorder.record(first)
        recorder.record(second)
        #expect(recorder.track(for: AircraftKey(address: 0x4840D6)).map(\.time) == [3.5])
    }

    @Test("Points older than maxAge and aircraft no longer shown are dropped")
    func forgets() throws {
        let (first, second) = try Sky.snapshots()
        let recorder = TrailRecorder(maxAge: 2)
        recorder.record(first)
        recorder.record(second)
        // At t = 4 with maxAge 2 only points from t ≥ 2 stay.
        #expect(recorder.track(for: AircraftKey(address: 0x4840D6)).map(\.time) == [3.5])
        #expect(recorder.track(for: AircraftKey(address: 0x3C66B0)).isEmpty)
        recorder.record(TableSnapshot(time: 10, aircraft: []))
        #expect(recorder.allTracks().isEmpty)
    }
}
