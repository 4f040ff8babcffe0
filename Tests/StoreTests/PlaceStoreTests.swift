import Foundation
import PostgresTestSupport
import Testing
@testable import Store

/// Saved places and reminders on both engines: validation, one user's rows invisible to
/// another, names unique regardless of case, reminders tied to the user's own places and
/// tracked items, and nothing stored when a request is refused.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PlaceStoreTests {
    static let now = 1_795_000_000.0

    /// A store with two users, alice (with a B738 rule) and bob.
    static func store(_ engine: Engine) async throws -> (store: any SightingStore, alice: UserRecord, bob: UserRecord, rule: WatchRule) {
        let store = try await engine.makeStore()
        let alice = try await store.accounts.add(username: "alice", password: "correct horse", now: now, cost: testCost)
        let bob = try await store.accounts.add(username: "bob", password: "battery staple", now: now, cost: testCost)
        let rule = try await store.watchlists.add(username: "alice", kind: .type, value: "B738", now: now)
        return (store, alice, bob, rule)
    }

    @Test(arguments: Engine.allCases)
    func placesAreValidatedAndBelongToTheirUser(_ engine: Engine) async throws {
        let (store, alice, bob, _) = try await Self.store(engine)
        let garden = try await store.places.addPlace(PlaceRecord(userId: alice.id!, name: "  Garden ", latitude: 60.1, longitude: 24.9, radius: 2, createdAt: Self.now))
        #expect(garden.id != nil && garden.name == "Garden")
        let schiphol = try await store.places.addPlace(PlaceRecord(userId: alice.id!, name: "Schiphol", latitude: 52.3086, longitude: 4.7639, altitude: -11,
                                                      airport: "EHAM", createdAt: Self.now))
        #expect(try await store.places.places(userId: alice.id!).map(\.name) == ["Garden", "Schiphol"])
        #expect(try await store.places.places(userId: bob.id!).isEmpty)
        // Bob may use the same name; alice may not, in any case.
        _ = try await store.places.addPlace(PlaceRecord(userId: bob.id!, name: "garden", latitude: 0, longitude: 0, createdAt: Self.now))
        await #expect(throws: PlaceError.duplicateName("GARDEN")) {
            try await store.places.addPlace(PlaceRecord(userId: alice.id!, name: "GARDEN", latitude: 1, longitude: 1, createdAt: Self.now))
        }
        let refused: [(PlaceRecord, PlaceError)] = [
            (PlaceRecord(userId: alice.id!, name: "", latitude: 1, longitude: 1, createdAt: Self.now), .invalidName("")),
            (PlaceRecord(userId: alice.id!, name: "North", latitude: 91, longitude: 1, createdAt: Self.now), .invalidPosition(latitude: 91, longitude: 1)),
            (PlaceRecord(userId: alice.id!, name: "North", latitude: .nan, longitude: 1, createdAt: Self.now), .invalidPosition(latitude: .nan, longitude: 1)),
            (PlaceRecord(userId: alice.id!, name: "East", latitude: 1, longitude: 181, createdAt: Self.now), .invalidPosition(latitude: 1, longitude: 181)),
            (PlaceRecord(userId: alice.id!, name: "Huge", latitude: 1, longitude: 1, radius: 5000, createdAt: Self.now), .invalidRadius(5000)),
            (PlaceRecord(userId: alice.id!, name: "Zero", latitude: 1, longitude: 1, radius: 0, createdAt: Self.now), .invalidRadius(0)),
            (PlaceRecord(userId: alice.id!, name: "High", latitude: 1, longitude: 1, altitude: 90_000, createdAt: Self.now), .invalidAltitude(90_000)),
        ]
        for (place, error) in refused {
            await #expect { try await store.places.addPlace(place) } throws: { e in
                guard let e = e as? PlaceError else { return false }
                if case .invalidPosition(let la, _) = error, la.isNaN, case .invalidPosition(let lb, _) = e { return lb.isNaN }
                return e == error
            }
        }
        #expect(try await store.places.places(userId: alice.id!).count == 2, "nothing stored by a refused request")
        // Rename: validated, unique, and only one's own.
        #expect(try await store.places.renamePlace(userId: alice.id!, id: garden.id!, name: "Back garden").name == "Back garden")
        await #expect(throws: PlaceError.duplicateName("schiphol")) { try await store.places.renamePlace(userId: alice.id!, id: garden.id!, name: "schiphol") }
        await #expect(throws: PlaceError.unknownPlace(garden.id!)) { try await store.places.renamePlace(userId: bob.id!, id: garden.id!, name: "Mine") }
        await #expect(throws: PlaceError.unknownPlace(schiphol.id!)) { try await store.places.removePlace(userId: bob.id!, id: schiphol.id!) }
        #expect(try await store.places.places(userId: alice.id!).map(\.name) == ["Back garden", "Schiphol"])
        try await store.places.removePlace(userId: alice.id!, id: schiphol.id!)
        await #expect(throws: PlaceError.unknownPlace(schiphol.id!)) { try await store.places.removePlace(userId: alice.id!, id: schiphol.id!) }
        #expect(try await store.places.places(userId: alice.id!).map(\.name) == ["Back garden"])
    }

    @Test(arguments: Engine.allCases)
    func remindersNeedTheUsersOwnPlaceAndRuleAndGoWithThePlace(_ engine: Engine) async throws {
        let (store, alice, bob, rule) = try await Self.store(engine)
        let airport = try await store.places.addPlace(PlaceRecord(userId: alice.id!, name: "Schiphol", latitude: 52.3086, longitude: 4.7639, airport: "EHAM", createdAt: Self.now))
        let garden = try await store.places.addPlace(PlaceRecord(userId: alice.id!, name: "Garden", latitude: 52.4, longitude: 4.9, createdAt: Self.now))
        let ten = try await store.places.addReminder(ReminderRecord(userId: alice.id!, placeId: airport.id, watchRuleId: rule.id, event: .arrival, leadMinutes: 10, createdAt: Self.now))
        _ = try await store.places.addReminder(ReminderRecord(userId: alice.id!, placeId: airport.id, watchRuleId: rule.id, event: .arrival, leadMinutes: 2, createdAt: Self.now))
        _ = try await store.places.addReminder(ReminderRecord(userId: alice.id!, placeId: nil, event: .closest, leadMinutes: 5, createdAt: Self.now))
        _ = try await store.places.addReminder(ReminderRecord(userId: alice.id!, placeId: garden.id, event: .closest, leadMinutes: 5, createdAt: Self.now))
        #expect(try await store.places.reminders(userId: alice.id!).count == 4)
        let refused: [(ReminderRecord, PlaceError)] = [
            (ReminderRecord(userId: alice.id!, placeId: airport.id, watchRuleId: rule.id, event: .arrival, leadMinutes: 10, createdAt: Self.now), .duplicateReminder),
            (ReminderRecord(userId: alice.id!, placeId: nil, event: .closest, leadMinutes: 5, createdAt: Self.now), .duplicateReminder),
            (ReminderRecord(userId: alice.id!, placeId: garden.id, event: .arrival, leadMinutes: 5, createdAt: Self.now), .arrivalNeedsAirport("Garden")),
            (ReminderRecord(userId: alice.id!, placeId: nil, event: .arrival, leadMinutes: 5, createdAt: Self.now), .arrivalNeedsAirport("receiver")),
            (ReminderRecord(userId: alice.id!, placeId: garden.id, event: .closest, leadMinutes: 0, createdAt: Self.now), .invalidLead(0)),
            (ReminderRecord(userId: alice.id!, placeId: garden.id, event: .closest, leadMinutes: 241, createdAt: Self.now), .invalidLead(241)),
            (ReminderRecord(userId: bob.id!, placeId: garden.id, event: .closest, leadMinutes: 5, createdAt: Self.now), .unknownPlace(garden.id!)),
            (ReminderRecord(userId: bob.id!, placeId: nil, watchRuleId: rule.id, event: .closest, leadMinutes: 5, createdAt: Self.now), .unknownRule(rule.id!)),
        ]
        for (reminder, error) in refused {
            await #expect(throws: error) { try await store.places.addReminder(reminder) }
        }
        #expect(try await store.places.reminders(userId: alice.id!).count == 4)
        #expect(try await store.places.reminders(userId: bob.id!).isEmpty)
        await #expect(throws: PlaceError.unknownReminder(ten.id!)) { try await store.places.removeReminder(userId: bob.id!, id: ten.id!) }
        try await store.places.removeReminder(userId: alice.id!, id: ten.id!)
        #expect(try await store.places.reminders(userId: alice.id!).count == 3)
        // Removing the place removes its reminders.
        try await store.places.removePlace(userId: alice.id!, id: airport.id!)
        #expect(try await store.places.allReminders().map(\.placeId) == [nil, garden.id])
    }

    @Test(arguments: Engine.allCases)
    func timeFormatIsASavedSetting(_ engine: Engine) async throws {
        let (store, alice, _, _) = try await Self.store(engine)
        #expect(alice.timeFormat == .minutes)
        var changed = alice
        changed.timeFormat = .both
        try await store.accounts.update(changed)
        #expect(try await store.accounts.user(named: "alice")?.timeFormat == .both)
    }

    @Test(arguments: Engine.allCases)
    func airportsAreFoundByCodeOrByName(_ engine: Engine) async throws {
        let (store, _, _, _) = try await Self.store(engine)
        let airports = store.airports
        try await airports.save([
            AirportRecord(ident: "EFHK", iata: "HEL", name: "Helsinki Vantaa Airport", latitude: 60.3172, longitude: 24.9633, kind: "large_airport"),
            AirportRecord(ident: "EFHF", iata: "HEM", name: "Helsinki-Malmi Airport", latitude: 60.2546, longitude: 25.0428, kind: "small_airport"),
            AirportRecord(ident: "XX%1", iata: nil, name: "100% Field", latitude: 1, longitude: 1, kind: "small_airport"),
        ])
        #expect(try await airports.search("helsinki", limit: 10).map(\.ident) == ["EFHK", "EFHF"])
        #expect(try await airports.search("hem", limit: 10).first?.ident == "EFHF")
        #expect(try await airports.search("heathrow", limit: 10).map(\.ident) == ["EGLL"], "built-in airports too")
        #expect(try await airports.search("%", limit: 10).map(\.ident) == ["XX%1"], "LIKE wildcards are literal")
        #expect(try await airports.search("_", limit: 10).isEmpty)
        #expect(try await airports.search("zzzz nowhere", limit: 10).isEmpty)
    }
}
