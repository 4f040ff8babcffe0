import ArgumentParser
import Foundation
import Store
import Services
import Testing
@testable import FlyTrackerCLI

/// `places` and `eta`, and the measured accuracy of the arrival predictions.
@Suite("Places commands and prediction accuracy", .serialized)
struct PlacesCommandTests {
    static func run(_ command: any ParsableCommand.Type, _ arguments: [String]) async throws {
        try await ParsedCommand.run(try command.parseAsRoot(arguments))
    }

    @Test("places add by coordinates, code and name search; refused input stores nothing; remind and forget")
    func placesRoundTrip() async throws {
        let (path, db) = try await StoreCommandsTests.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let alice = try await #require(try db.accounts.user(named: "alice")).id!
        try await Self.run(PlacesCommand.self, ["add", "--user", "alice", "Garden", "--at", "52.37,4.89", "--radius", "2km", "--db", path])
        try await Self.run(PlacesCommand.self, ["add", "--user", "alice", "--airport", "ams", "--db", path])
        try await Self.run(PlacesCommand.self, ["add", "--user", "alice", "Big one", "--search", "heathrow", "--db", path])
        let places = try await db.places.places(userId: alice)
        #expect(places.map(\.name) == ["Amsterdam Schiphol", "Big one", "Garden"])
        #expect(abs(places[2].radius - 2 / 1.852) < 1e-9 && places[1].airport == "EGLL")
        for bad in [["--at", "95,4"], ["--airport", "ZZZZ"], ["--at", "52,4", "--radius", "900km"], ["--at", "north"], ["--search", "no such airport field"]] {
            await #expect(throws: ExitCode.self) { try await Self.run(PlacesCommand.self, ["add", "--user", "alice", "Bad"] + bad + ["--db", path]) }
        }
        await #expect(throws: (any Error).self) { try await Self.run(PlacesCommand.self, ["add", "--user", "alice", "Two", "--at", "1,1", "--airport", "EHAM", "--db", path]) }
        await #expect(throws: ExitCode.self) { try await Self.run(PlacesCommand.self, ["add", "--user", "alice", "garden", "--at", "1,1", "--db", path]) }
        await #expect(throws: ExitCode.self) { try await Self.run(PlacesCommand.self, ["add", "--user", "nobody", "X", "--at", "1,1", "--db", path]) }
        await #expect(try db.places.places(userId: alice).count == 3, "nothing stored by refused commands")
        let schiphol = places[0].id!
        try await Self.run(PlacesCommand.self, ["remind", "--user", "alice", "--place", "\(schiphol)", "--event", "arrival", "--minutes", "10,2", "--db", path])
        await #expect(try db.places.reminders(userId: alice).map(\.leadMinutes) == [10, 2])
        await #expect(throws: ExitCode.self) {
            try await Self.run(PlacesCommand.self, ["remind", "--user", "alice", "--place", "\(places[2].id!)", "--event", "arrival", "--minutes", "5,1", "--db", path])
        }
        await #expect(throws: ExitCode.self) { try await Self.run(PlacesCommand.self, ["remind", "--user", "alice", "--place", "receiver", "--minutes", "5,x", "--db", path]) }
        await #expect(try db.places.reminders(userId: alice).count == 2, "a refused lead stores none")
        let first = try await db.places.reminders(userId: alice)[0].id!
        try await Self.run(PlacesCommand.self, ["forget", "--user", "alice", "\(first)", "--db", path])
        try await Self.run(PlacesCommand.self, ["rename", "--user", "alice", "\(schiphol)", "Home base", "--db", path])
        try await Self.run(PlacesCommand.self, ["remove", "--user", "alice", "\(places[2].id!)", "--db", path])
        await #expect(try db.places.places(userId: alice).map(\.name) == ["Big one", "Home base"])
        await #expect(throws: ExitCode.self) { try await Self.run(PlacesCommand.self, ["remove", "--user", "alice", "999", "--db", path]) }
    }

    @Test("eta reads an aircraft.json (readsb's shape) and finds the tracked aircraft heading for a place; bad documents are one clear error")
    func etaFromAircraftJSON() async throws {
        let (path, db) = try await StoreCommandsTests.database()
        let directory = (path as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await db.watchlists.add(username: "alice", kind: .callsign, value: "KLM1023", now: 0)
        _ = try await db.places.addPlace(PlaceRecord(userId: try #require(try db.accounts.user(named: "alice")).id!, name: "Ahead", latitude: 53.0, longitude: 4.76, radius: 1, createdAt: 0))
        // Due north at 480 kt from 60 NM south of the place: over it in 7.5 min.
        let json = #"{"now": 1000.0, "aircraft": [{"hex": "4840d6", "flight": "KLM1023 ", "lat": 52.0, "lon": 4.76, "track": 0, "gs": 480, "alt_baro": 20000, "seen_pos": 0.5}, {"hex": "3c66b0", "flight": "DLH4", "lat": 52.0, "lon": 4.76, "track": 0, "gs": 480, "alt_baro": 20000}]}"#
        let file = directory + "/aircraft.json"
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let (now, inputs) = try EtaBoard.inputs(aircraftJSON: Data(json.utf8))
        #expect(now == 1000 && inputs.count == 2 && inputs[0].motion.time == 999.5)
        func eta(_ arguments: [String]) async throws {
            var command = try EtaCommand.parse(arguments + ["--db", path])
            try await command.run()
        }
        try await eta(["--user", "alice", "--source", file, "--json"])
        let garbage = directory + "/garbage.json"
        try "not json".write(toFile: garbage, atomically: true, encoding: .utf8)
        await #expect(throws: ExitCode.self) { try await eta(["--user", "alice", "--source", garbage]) }
        await #expect(throws: ExitCode.self) { try await eta(["--user", "alice", "--source", directory + "/missing.json"]) }
        await #expect(throws: ExitCode.self) { try await eta(["--user", "alice", "--source", "http://127.0.0.1:9/data/aircraft.json"]) }
    }

    @Test("Simulated landings are predicted within the README's bounds: 3 min before to 30 s, 10 min before to 8 min (3 min with the runway known)")
    func landingAccuracy() {
        let results = EtaBenchmark(skies: 2).run()
        #expect(results.flights == 12)
        let three = results.landing.decoded.summary(lead: 180)
        #expect(three.count == 12 && three.errors.allSatisfy { abs($0) <= 30 }, "\(three.errors)")
        let ten = results.landing.decoded.summary(lead: 600)
        #expect(ten.count >= 10 && ten.errors.allSatisfy { abs($0) <= 480 }, "\(ten.errors)")
        let known = results.landing.learned.summary(lead: 600)
        #expect(known.count >= 10 && known.errors.allSatisfy { abs($0) <= 180 }, "with the runway known: \(known.errors)")
        let pass = results.passing.decoded.summary(lead: 180)
        #expect(pass.count >= 4 && pass.errors.allSatisfy { abs($0) <= 60 }, "\(pass.errors)")
    }
}

/// The site owner's social tools: groups and moderation.
@Suite("Groups and moderation commands", .serialized)
struct SocialCommandTests {
    @Test("groups list/show/delete and moderation reports/delete/admin work on the database; unknown names exit 1")
    func ownerTools() async throws {
        let (path, db) = try await StoreCommandsTests.database()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let alice = try await #require(try db.accounts.user(named: "alice")).id!
        let bob = try await db.accounts.add(username: "bob", password: "correct horse", now: 0, cost: 4).id!
        let g = try await db.groups.createGroup(ownerId: alice, name: "Spotters", description: nil, open: true, now: 0)
        _ = try await db.groups.addGroupRule(groupId: g.id, kind: .type, value: "A388", label: nil, now: 0)
        let post = try await db.posts.addPost(PostRecord(userId: bob, audience: .public, text: "rude", createdAt: 0))
        try await db.posts.report(postId: post.id!, userId: alice, reason: "rude", now: 1)
        try await PlacesCommandTests.run(GroupsCommand.self, ["list", "--user", "alice", "--db", path])
        try await PlacesCommandTests.run(GroupsCommand.self, ["show", "Spotters", "--db", path])
        await #expect(throws: ExitCode.self) { try await PlacesCommandTests.run(GroupsCommand.self, ["show", "Nope", "--db", path]) }
        try await PlacesCommandTests.run(ModerationCommand.self, ["reports", "--db", path])
        try await PlacesCommandTests.run(ModerationCommand.self, ["admin", "alice", "--db", path])
        await #expect(try db.posts.isAdmin(userId: alice))
        try await PlacesCommandTests.run(ModerationCommand.self, ["admin", "alice", "--remove", "--db", path])
        await #expect(try !db.posts.isAdmin(userId: alice))
        try await PlacesCommandTests.run(ModerationCommand.self, ["delete", "\(post.id!)", "--db", path])
        #expect(try await db.posts.post(id: post.id!, viewer: nil) == nil)
        #expect(try await db.posts.reports(limit: 5).isEmpty)
        await #expect(throws: ExitCode.self) { try await PlacesCommandTests.run(ModerationCommand.self, ["delete", "\(post.id!)", "--db", path]) }
        try await PlacesCommandTests.run(GroupsCommand.self, ["delete", "Spotters", "--db", path])
        #expect(try await db.groups.group(named: "Spotters") == nil)
        #expect(try await db.groups.allGroupRules().isEmpty)
    }
}
