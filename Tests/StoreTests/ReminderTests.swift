import Foundation
import ModeS
import PostgresTestSupport
import Testing
import Tracking
@testable import Services
@testable import Store

/// Reminders: when they fire (the schedule, pure), and end to end through a live aircraft
/// table, the store (both engines) and the journal.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReminderTests {
    static func prediction(_ address: UInt32, time: Double, place: Int64? = 1, event: ReminderRecord.Event = .closest, rules: [Int64] = [7]) -> EtaPrediction {
        EtaPrediction(address: address, callsign: "KLM601", placeId: place, placeName: "Garden", event: event, time: time, distance: 0.3,
                      point: Coordinate(latitude: 52, longitude: 4), ruleIds: rules)
    }

    static let tenAndTwo = [
        ReminderRecord(id: 1, userId: 1, placeId: 1, event: .closest, leadMinutes: 10, createdAt: 0),
        ReminderRecord(id: 2, userId: 1, placeId: 1, event: .closest, leadMinutes: 2, createdAt: 0),
    ]

    @Test("Each lead fires once, after two evaluations agree, when the event is that many minutes ahead")
    func firesOncePerLead() {
        var s = ReminderSchedule()
        var fired: [(Double, Int)] = []
        // The event is at t = 1000 s throughout; evaluated every 5 s.
        for t in stride(from: 0.0, through: 1100, by: 5) {
            for (r, _) in s.due(userId: 1, predictions: t < 1000 ? [Self.prediction(0xABC, time: 1000)] : [], reminders: Self.tenAndTwo, now: t) {
                fired.append((t, r.leadMinutes))
            }
        }
        #expect(fired.map(\.1) == [10, 2])
        #expect(fired.map(\.0) == [405, 885], "10 min before (400 s) plus one evaluation; 2 min before (880 s) plus one")
    }

    @Test("A prediction that moves later delays the reminder; one that moves earlier brings it forward")
    func followsThePrediction() {
        var s = ReminderSchedule()
        var fired: [Double] = []
        let reminder = [Self.tenAndTwo[0]]
        for t in stride(from: 0.0, through: 1500, by: 5) {
            // Event at 1000 until t = 380 (just before 10 min), then delayed to 1300, then at
            // t = 600 moved forward to 700 (due at once).
            let event = t < 380 ? 1000.0 : t < 600 ? 1300 : 700
            guard t < event else { continue }
            for _ in s.due(userId: 1, predictions: [Self.prediction(0xABC, time: event)], reminders: reminder, now: t) { fired.append(t) }
        }
        #expect(fired == [605])
    }

    @Test("A withdrawn prediction (turned away) fires nothing; a single stray one neither")
    func withdrawn() {
        var s = ReminderSchedule()
        var count = 0
        for t in stride(from: 0.0, through: 1000, by: 5) {
            // Heading for the place until t = 300 (event at 1000, 11.7 min ahead), then gone;
            // at t = 700 one stray prediction.
            let predictions = t < 300 || t == 700 ? [Self.prediction(0xABC, time: 1000)] : []
            count += s.due(userId: 1, predictions: predictions, reminders: Self.tenAndTwo, now: t).count
        }
        #expect(count == 0)
    }

    @Test("A reminder for one tracked item ignores aircraft tracked by another rule; other users' reminders are theirs")
    func itemsAndUsers() {
        var s = ReminderSchedule()
        let onlyRule9 = [ReminderRecord(id: 3, userId: 1, placeId: 1, watchRuleId: 9, event: .closest, leadMinutes: 10, createdAt: 0)]
        let bobs = [ReminderRecord(id: 4, userId: 2, placeId: 1, event: .closest, leadMinutes: 10, createdAt: 0)]
        var fired = 0
        for t in stride(from: 500.0, through: 600, by: 5) {
            fired += s.due(userId: 1, predictions: [Self.prediction(0xABC, time: 1000, rules: [7])], reminders: onlyRule9 + bobs, now: t).count
        }
        #expect(fired == 0)
        for t in stride(from: 500.0, through: 600, by: 5) {
            fired += s.due(userId: 1, predictions: [Self.prediction(0xABC, time: 1000, rules: [7, 9])], reminders: onlyRule9, now: t).count
        }
        #expect(fired == 1)
    }

    /// Frames of an aircraft at `position`, `track`, 360 kt, into `table` at `t`.
    static func feed(_ table: inout AircraftTable, _ address: UInt32, callsign: String, _ position: Coordinate, track: Double, at t: Double, step: Int) throws {
        let frames = [SyntheticFrames.identification(address: address, callsign: callsign),
                      SyntheticFrames.airbornePosition(address: address, position: position, altitude: 20_000, format: step % 2 == 0 ? .even : .odd),
                      SyntheticFrames.velocity(address: address, groundSpeed: 360, track: track)]
        for (i, frame) in frames.enumerated() {
            let message = try #require(ModeSMessage.decode(frame))
            table.apply(message, received: ReceivedFrame(frame: frame), at: t + Double(i) * 0.01)
        }
    }

    @Test("A reminder's text is in the user's language, units and time format")
    func noteLanguages() {
        let utc = TimeZone(identifier: "UTC")!
        let pass = Self.prediction(0x4840D6, time: 600, event: .closest)   // 00:10 UTC, 10 min after now = 0
        let landing = Self.prediction(0x4840D6, time: 600, event: .arrival)
        #expect(EtaBoard.note(pass, now: 0, format: .both, timeZone: utc, units: .metric) == "KLM601 passes Garden (0.6 km) in 10 min (00:10)")
        #expect(EtaBoard.note(pass, now: 0, format: .both, timeZone: utc, units: .metric, language: "de")
                == "KLM601 fliegt an Garden vorbei (0.6 km) in 10 min (00:10)")
        #expect(EtaBoard.note(landing, now: 0, format: .clock, timeZone: utc, language: "fr") == "KLM601 atterrit à Garden à 00:10")
        #expect(EtaBoard.note(landing, now: 600, format: .minutes, timeZone: utc, language: "de") == "KLM601 landet in Garden jetzt")
    }

    @Test("End to end: tracked aircraft heading for a place raise each reminder once, at its lead, in the journal", arguments: Engine.allCases)
    func endToEnd(_ engine: Engine) async throws {
        let store = try await engine.makeStore()
        let alice = try await store.accounts.add(username: "alice", password: "correct horse", now: 0, cost: testCost)
        _ = try await store.accounts.add(username: "bob", password: "battery staple", now: 0, cost: testCost)
        var settings = alice
        settings.timeFormat = .minutes
        try await store.accounts.update(settings)
        try await store.watchlists.add(username: "alice", kind: .callsign, value: "KLM601", now: 0)
        try await store.watchlists.add(username: "alice", kind: .callsign, value: "DLH4", now: 0)
        let receiver = Coordinate(latitude: 52.0, longitude: 4.0)
        let garden = try await store.places.addPlace(PlaceRecord(userId: alice.id!, name: "Garden", latitude: 52.2, longitude: 4.1, radius: 2, createdAt: 0))
        for lead in [10, 2] {
            _ = try await store.places.addReminder(ReminderRecord(userId: alice.id!, placeId: garden.id, event: .closest, leadMinutes: lead, createdAt: 0))
        }
        let service = ReminderService(store: store, timeZone: TimeZone(identifier: "UTC")!)
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver))
        // KLM601 flies straight over the garden from 80 NM west-southwest: 6 NM a minute, so
        // over it at t = 800 s. DLH4 heads for it from 84 NM too, but turns away at t = 200.
        let inbound = Geodesy.bearing(from: Geodesy.destination(from: garden.coordinate, bearing: 250, distance: 80), to: garden.coordinate)
        let klmStart = Geodesy.destination(from: garden.coordinate, bearing: 250, distance: 80)
        let dlhStart = Geodesy.destination(from: garden.coordinate, bearing: 300, distance: 84)
        var dlh = (position: dlhStart, track: Geodesy.bearing(from: dlhStart, to: garden.coordinate))
        var events: [JournalEventRecord] = []
        var step = 0
        for t in stride(from: 0.0, through: 900, by: 5) {
            let klm = Geodesy.destination(from: klmStart, bearing: inbound, distance: 360 * t / 3600)
            if t == 200 { dlh.track = (dlh.track + 100).truncatingRemainder(dividingBy: 360) }
            if t > 0 { dlh.position = Geodesy.destination(from: dlh.position, bearing: dlh.track, distance: 360 * 5 / 3600) }
            try Self.feed(&table, 0x4840D6, callsign: "KLM601", klm, track: inbound, at: t, step: step)
            try Self.feed(&table, 0x3C6444, callsign: "DLH4", dlh.position, track: dlh.track, at: t, step: step)
            step += 1
            await events += try service.evaluate(table.snapshot(at: t + 0.5), receiver: receiver)
        }
        #expect(events.map(\.kind) == [.reminder, .reminder])
        #expect(events.map(\.address) == [0x4840D6, 0x4840D6], "DLH4 turned away before its 10-minute mark")
        let times = events.map(\.time)
        #expect(times.count == 2 && abs(times[0] - 205.5) <= 5.5 && abs(times[1] - 685.5) <= 5.5, "\(times)")
        let note = try #require(events.first?.note)
        #expect(note.hasPrefix("KLM601 passes Garden (") && note.hasSuffix(" km) in 10 min"), "in alice's units (metric): \(note)")
        let journal = try await store.watchlists.journal(username: "alice", limit: 10)
        #expect(journal.map(\.note) == events.reversed().map(\.note))
        await #expect(try store.watchlists.journal(username: "bob", limit: 10).isEmpty)
    }
}
