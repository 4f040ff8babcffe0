import Foundation
import GRDB
import Synchronization
import Logging
import ModeS
import ServiceLifecycle
import Testing
import Tracking
@testable import Services
@testable import Store

/// The sighting log as a service of the run: what the receiver hands over, second by second,
/// is logged exactly as the recorder logs it when called directly, however fast the seconds
/// come (a replay), and the end closes what is open and lets the group stop in order.
@Suite("Recorder service", .serialized)
struct RecorderServiceTests {
    static let receiver = Coordinate(latitude: 52.3, longitude: 4.76)

    /// Thirty seconds of two aircraft flying east from 12 and 30 NM, one table snapshot a
    /// second (from t = 1000), then a minute of empty sky so their visits close.
    static func seconds() throws -> [TableSnapshot] {
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver))
        var snapshots: [TableSnapshot] = []
        for s in 0..<30 {
            let t = 1000 + Double(s)
            for (address, start) in [(UInt32(0x4840D6), 12.0), (0x3C6444, 30.0)] {
                let p = Geodesy.destination(from: Geodesy.destination(from: receiver, bearing: 200, distance: start),
                                            bearing: 90, distance: Double(s) * 0.12)
                let frames = [SyntheticFrames.airbornePosition(address: address, position: p, altitude: 9000 + s * 50, format: .even),
                              SyntheticFrames.airbornePosition(address: address, position: p, altitude: 9000 + s * 50, format: .odd),
                              SyntheticFrames.velocity(address: address, groundSpeed: 430, track: 90)]
                for (i, frame) in frames.enumerated() {
                    table.apply(try #require(ModeSMessage.decode(frame)), received: ReceivedFrame(frame: frame), at: t + Double(i) * 0.1)
                }
            }
            snapshots.append(table.snapshot(at: t + 0.5))
        }
        for s in 30..<90 { snapshots.append(table.snapshot(at: 1000 + Double(s) + 0.5)) }
        return snapshots
    }

    /// The log's rows without their ids (the recorder numbers the aircraft of a second in no
    /// set order): visits by address, track points by time and address.
    static func rows(_ db: AppDatabase) async throws -> (visits: [VisitRecord], points: [TrackPointRecord]) {
        let (visits, points) = try await db.writer.read { db in (try VisitRecord.fetchAll(db), try TrackPointRecord.fetchAll(db)) }
        let address = Dictionary(uniqueKeysWithValues: visits.map { ($0.id!, Int64($0.address)) })
        return (visits.map { var v = $0; v.id = nil; return v }.sorted { $0.address < $1.address },
                points.map { var p = $0; p.id = nil; p.visitId = address[p.visitId] ?? -1; return p }
                    .sorted { ($0.time, $0.visitId) < ($1.time, $1.visitId) })
    }

    @Test("every second handed over is logged as the recorder logs it directly; the end closes the visits and waits for the group")
    func logsEverySecondLikeTheRecorder() async throws {
        let seconds = try Self.seconds()
        // The recorder called directly, as the receiver's thread used to call it.
        let direct = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(database: direct)
        for snapshot in seconds { _ = try await recorder.record(snapshot) }
        _ = try await recorder.finish(at: seconds.last!.time)

        // The service, handed the same seconds as fast as it takes them.
        let db = try AppDatabase.inMemory()
        let reports = ReportLines()
        let service = try await RecorderService(store: db, autoPosts: [], receiver: Self.receiver, epoch: 999, quiet: true, alerts: nil,
                                          report: { reports.add($0) })
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let ended = Atomic<Bool>(false)
        let running = Task {
            try await group.run()
            ended.store(true, ordering: .releasing)
        }
        for snapshot in seconds { await service.hand(snapshot) }
        service.inputEnded()
        // It has closed the visits and now waits for its turn in the group's shutdown.
        for _ in 0..<500 {
            let visits = try await Self.rows(db).visits
            if !visits.isEmpty && visits.allSatisfy(\.closed) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(50))
        let endedEarly = ended.load(ordering: .acquiring)
        #expect(!endedEarly, "the service waits for the group's shutdown: returning before it would fail the group")
        await group.triggerGracefulShutdown()
        try await running.value

        let (visits, points) = try await Self.rows(db)
        let expected = try await Self.rows(direct)
        #expect(visits.count == 2 && visits.allSatisfy(\.closed))
        #expect(Set(points.map(\.visitId)).count == 2 && points.count >= 4, "the tracks of both aircraft, \(points.count) points")
        #expect(visits == expected.visits)
        #expect(points == expected.points)
        #expect(reports.lines.isEmpty, "\(reports.lines)")
    }

    @Test("a graceful shutdown before the receiver said it was done still closes the visits of what it took")
    func shutdownClosesWhatWasTaken() async throws {
        let seconds = try Self.seconds()
        let db = try AppDatabase.inMemory()
        let service = try await RecorderService(store: db, autoPosts: [], receiver: Self.receiver, epoch: 999, quiet: true, alerts: nil,
                                          report: { _ in })
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        for snapshot in seconds.prefix(10) { await service.hand(snapshot) }
        await group.triggerGracefulShutdown()
        try await running.value
        let visits = try await Self.rows(db).visits
        #expect(visits.count == 2 && visits.allSatisfy(\.closed))
        #expect(visits.map(\.lastSeen).max()! >= 1009, "the tenth second was logged before the end")
    }
}

/// What a service told the operator.
final class ReportLines: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ line: String) { list.withLock { $0.append(line) } }
    var lines: [String] { list.withLock { $0 } }
}
