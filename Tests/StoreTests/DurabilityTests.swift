import Foundation
import GRDB
import Testing
@testable import Services
@testable import Store

/// Killing a writer process mid-stream (SIGKILL) loses nothing committed and corrupts
/// nothing. The writer is this test binary run again with only `durabilityChildWriter`
/// selected (enabled by an environment variable), feeding a `SightingRecorder`.
@Suite("Durability", .serialized)
struct DurabilityTests {
    static let variable = "FLYTRACKER_DURABILITY_DB"
    static let aircraftPerBatch = 10

    @Test("Child writer: records batches until killed, acknowledging each committed one",
          .enabled(if: ProcessInfo.processInfo.environment[DurabilityTests.variable] != nil))
    func durabilityChildWriter() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.variable])
        let db = try AppDatabase.open(path: path)
        let recorder = try await SightingRecorder(database: db)
        for batch in 1... {
            // Batch n: ten new aircraft, each with a position (a visit and a track point each).
            let observations = (0..<Self.aircraftPerBatch).map { i in
                Observation(key: UInt32(batch * 100 + i), callsign: "T\(batch)X\(i)", altitude: 1000 * i,
                            position: .init(latitude: 50, longitude: Double(i)), lastSeen: Double(batch))
            }
            try await recorder.record(observations, at: Double(batch))
            FileHandle.standardOutput.write(Data("ACK \(batch)\n".utf8))
        }
    }

    @Test("SIGKILL mid-stream: integrity check passes and every acknowledged batch is complete")
    func killedWriter() async throws {
        let path = temporaryDatabasePath()
        defer { removeTemporary(path) }
        _ = try AppDatabase.open(path: path)   // creates the directory and schema
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "durabilityChildWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.variable] = path
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()

        var text = ""
        var acknowledged = 0
        let reader = output.fileHandleForReading
        while acknowledged < 40 {
            let data = reader.availableData
            if data.isEmpty { break }   // the child ended without being killed
            text += String(decoding: data, as: UTF8.self)
            acknowledged = text.split(separator: "\n").compactMap { $0.hasPrefix("ACK ") ? Int($0.dropFirst(4)) : nil }.max() ?? 0
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        try #require(acknowledged >= 40, "child output: \(text.suffix(500))")

        let db = try AppDatabase.open(path: path)
        let integrity = try await db.writer.read { d in try String.fetchAll(d, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let perBatch = try await db.writer.read { d in
            try Row.fetchAll(d, sql: "SELECT CAST(firstSeen AS INTEGER) AS batch, COUNT(*) AS n FROM visit GROUP BY 1 ORDER BY 1")
                .map { (batch: $0["batch"] as Int, n: $0["n"] as Int) }
        }
        // Every acknowledged batch is there in full; a batch cut by the kill is all or nothing.
        #expect(perBatch.count >= acknowledged)
        #expect(perBatch.allSatisfy { $0.n == Self.aircraftPerBatch })
        #expect(perBatch.map(\.batch) == Array(1...perBatch.count))
        #expect(try count(db, "trackPoint") == perBatch.count * Self.aircraftPerBatch)

        // The next start closes every visit the kill left open, each counted once.
        let visits = perBatch.count * Self.aircraftPerBatch
        await #expect(try db.writer.read { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM visit WHERE NOT closed") } == visits)
        let closed = try await SightingRecorder(database: db).closeInterruptedVisits(before: Date().timeIntervalSince1970)
        #expect(closed.count == visits)
        await #expect(try db.writer.read { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM visit WHERE NOT closed") } == 0)
        await #expect(try db.statistics.withTotal(by: .day, filter: StatsFilter(), limit: nil).total.visits == visits)
    }
}
