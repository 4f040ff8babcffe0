import ModeS
import Testing
@testable import Tracking

/// Derived values (registration, database fields, airline, distance) and snapshot queries.
@Suite("Derived values and queries")
struct DerivedAndQueryTests {
    /// A table with three aircraft: KLM1023 (4840d6, B738 in the database), N12345 (a061d9,
    /// no database entry), D-AIUP (3c66b0, A320 in the database) on the ground.
    static func sky() throws -> TableSnapshot {
        let database = DictionaryAircraftDatabase([
            0x4840D6: AircraftInfo(address: 0x4840D6, registration: "PH-BXA", typeCode: "B738", typeDescription: "BOEING 737-800",
                                   ownerOperator: "KLM", year: 1999),
            0x3C66B0: AircraftInfo(address: 0x3C66B0, registration: "D-AIUP", typeCode: "A320", flags: [.military]),
        ])
        let receiver = Coordinate(latitude: 52.3, longitude: 4.76)
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver), database: database)
        // KLM1023, 25 NM north of the receiver at 35000 ft, squawk 1000.
        let klm = Geodesy.destination(from: receiver, bearing: 0, distance: 25)
        try table.feed(hex: "8D4840D6202CC371C32CE0576098", at: 0)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x4840D6, position: klm, altitude: 35000, format: .even), at: 0.5)
        try table.feed(SyntheticFrames.airbornePosition(address: 0x4840D6, position: klm, altitude: 35000, format: .odd), at: 1)
        try table.feed(SyntheticFrames.surveillanceIdentity(address: 0x4840D6, squawk: 0o1000), at: 1.5)
        // N12345 (registration from the address), 100 NM east at 8000 ft, callsign KLM77X.
        let n = Geodesy.destination(from: receiver, bearing: 90, distance: 100)
        try table.feed(SyntheticFrames.identification(address: 0xA061D9, callsign: "KLM77X"), at: 0)
        try table.feed(SyntheticFrames.airbornePosition(address: 0xA061D9, position: n, altitude: 8000, format: .even), at: 0.5)
        try table.feed(SyntheticFrames.airbornePosition(address: 0xA061D9, position: n, altitude: 8000, format: .odd), at: 1)
        try table.feed(SyntheticFrames.surveillanceIdentity(address: 0xA061D9, squawk: 0o7700), at: 1.5)
        // D-AIUP on the ground at the receiver.
        try table.feed(SyntheticFrames.identification(address: 0x3C66B0, callsign: "DLH4AB"), at: 0)
        try table.feed(SyntheticFrames.surfacePosition(address: 0x3C66B0, position: receiver, format: .even), at: 0.5)
        try table.feed(SyntheticFrames.surfacePosition(address: 0x3C66B0, position: receiver, format: .odd), at: 1)
        // A ghost.
        try table.feed(SyntheticFrames.allCall(address: 0x777777), at: 1)
        return table.snapshot(at: 2)
    }

    @Test("a deferred lookup: reliable aircraft the database does not know wait in pendingLookups once, and supply gives them what an async store found")
    func deferredLookups() throws {
        let fleet = DictionaryAircraftDatabase([0x4840D6: AircraftInfo(address: 0x4840D6, registration: "PH-BXA", typeCode: "B738")])
        var table = AircraftTable(database: fleet)
        table.defersLookups = true
        for (i, address) in [UInt32(0x4840D6), 0x3C66B0, 0xA061D9].enumerated() {
            for k in 0..<3 { try table.feed(SyntheticFrames.identification(address: address, callsign: "T\(i)"), at: Double(k) * 0.5) }
        }
        #expect(table.takePendingLookups() == [0x3C66B0, 0xA061D9], "the fleet's own aircraft is not asked again")
        #expect(table.takePendingLookups().isEmpty, "handed over once")
        table.supply([0x3C66B0: AircraftInfo(address: 0x3C66B0, registration: "D-AIUP", typeCode: "A320", flags: [.military]),
                      0x777777: AircraftInfo(address: 0x777777, registration: "GONE")])
        let s = table.snapshot(at: 1.5)
        #expect(s.aircraft(address: 0x3C66B0)?.registration == "D-AIUP")
        #expect(s.aircraft(address: 0x3C66B0)?.typeCode == "A320")
        #expect(s.aircraft(address: 0x3C66B0)?.isMilitary == true)
        #expect(s.aircraft(address: 0xA061D9)?.registration == "N12345", "not found: the registration from the address stays")
        #expect(s.aircraft(address: 0x4840D6)?.registration == "PH-BXA")
        #expect(s.aircraft(address: 0x777777) == nil, "an answer for an aircraft not held adds nothing")
        for k in 3..<6 { try table.feed(SyntheticFrames.identification(address: 0x3C66B0, callsign: "T1"), at: Double(k) * 0.5) }
        #expect(table.takePendingLookups().isEmpty, "an aircraft is looked up once")
    }

    @Test("registration, type and operator come from the database, else from the address")
    func derived() throws {
        let s = try Self.sky()
        #expect(s.count == 3)
        let klm = try #require(s.aircraft(address: 0x4840D6))
        #expect(klm.registration == "PH-BXA")
        #expect(klm.typeCode == "B738")
        #expect(klm.info?.typeDescription == "BOEING 737-800")
        #expect(klm.info?.year == 1999)
        #expect(klm.airline == "KLM Royal Dutch Airlines")
        #expect(klm.operatorName == "KLM")
        let n = try #require(s.aircraft(address: 0xA061D9))
        #expect(n.registration == "N12345")
        #expect(n.info == nil)
        #expect(n.operatorName == "KLM Royal Dutch Airlines")
        #expect(n.emergency?.value == .general)
        #expect(n.country?.iso2 == "US")
        let d = try #require(s.aircraft(address: 0x3C66B0))
        #expect(d.isMilitary)
        #expect(d.isOnGround)
        #expect(d.airline == "Lufthansa")
        #expect(d.operatorName == "Lufthansa")
    }

    @Test("distance and bearing from the receiver")
    func distanceAndBearing() throws {
        let s = try Self.sky()
        let klm = try #require(s.aircraft(address: 0x4840D6))
        #expect((try #require(klm.distance) - 25).magnitude < 0.01)
        let bearing = try #require(klm.bearing)
        #expect(bearing < 0.01 || bearing > 359.99)
        let n = try #require(s.aircraft(address: 0xA061D9))
        #expect((try #require(n.distance) - 100).magnitude < 0.01)
        #expect((try #require(n.bearing) - 90).magnitude < 1)
    }

    @Test("queries by tail number ignore case and dashes")
    func byRegistration() throws {
        let s = try Self.sky()
        #expect(s.aircraft(registration: "ph-bxa").map(\.address) == [0x4840D6])
        #expect(s.aircraft(registration: "N12345").map(\.address) == [0xA061D9])
        #expect(s.aircraft(registration: "DAIUP").map(\.address) == [0x3C66B0])
        #expect(s.aircraft(registration: "G-EUUU").isEmpty)
    }

    @Test("queries by callsign, exact or prefix")
    func byCallsign() throws {
        let s = try Self.sky()
        #expect(s.aircraft(callsign: "KLM1023").map(\.address) == [0x4840D6])
        #expect(s.aircraft(callsign: "klm1023").map(\.address) == [0x4840D6])
        #expect(s.aircraft(callsign: "KLM").isEmpty)
        #expect(s.aircraft(callsign: "KLM", prefix: true).map(\.address) == [0x4840D6, 0xA061D9])
    }

    @Test("queries by type code with wildcards")
    func byType() throws {
        let s = try Self.sky()
        #expect(s.aircraft(typeCode: "B73*").map(\.address) == [0x4840D6])
        #expect(s.aircraft(typeCode: "A3?0").map(\.address) == [0x3C66B0])
        #expect(s.aircraft(typeCode: "*").map(\.address) == [0x3C66B0, 0x4840D6])
        #expect(s.aircraft(typeCode: "B77*").isEmpty)
    }

    @Test("queries by squawk, address, area and altitude")
    func otherQueries() throws {
        let s = try Self.sky()
        #expect(s.aircraft(squawk: "7700").map(\.address) == [0xA061D9])
        #expect(s.aircraft(hex: "4840D6")?.address == 0x4840D6)
        #expect(s.aircraft(hex: "777777") == nil)
        let receiver = Coordinate(latitude: 52.3, longitude: 4.76)
        #expect(s.aircraft(within: 30, of: receiver).map(\.address) == [0x3C66B0, 0x4840D6])
        #expect(s.aircraft(in: GeoBox(south: 52.0, west: 4.0, north: 53.0, east: 5.0)).map(\.address) == [0x3C66B0, 0x4840D6])
        #expect(s.aircraft(altitude: 0...10000).map(\.address) == [0x3C66B0, 0xA061D9])
        #expect(s.aircraft(altitude: 30000...40000).map(\.address) == [0x4840D6])
        #expect(s.filter(AircraftQuery(callsign: "KLM", callsignPrefix: true, altitude: 30000...40000)).map(\.address) == [0x4840D6])
        #expect(s.filter(AircraftQuery(military: true)).map(\.address) == [0x3C66B0])
    }

    @Test("wildcard matching", arguments: [
        ("B738", "B73*", true), ("B738", "B7?8", true), ("B738", "*8", true), ("B738", "B73", false),
        ("B738", "*", true), ("", "*", true), ("A320", "B*", false), ("A20N", "A2*N", true), ("A20N", "A?N", false),
    ])
    func wildcard(text: String, pattern: String, expected: Bool) {
        #expect(Wildcard.matches(text, pattern: pattern) == expected)
    }

    @Test("airline designators need three letters and a digit")
    func airlines() {
        #expect(Airlines.name(forCallsign: "KLM1023") == "KLM Royal Dutch Airlines")
        #expect(Airlines.name(forCallsign: "BAW9") == "British Airways")
        #expect(Airlines.name(forCallsign: "N12345") == nil)
        #expect(Airlines.name(forCallsign: "KLMX") == nil)
        #expect(Airlines.name(forCallsign: "ZZZ123") == nil)
    }

    @Test("great-circle distance and bearing")
    func geodesy() {
        let origin = Coordinate(latitude: 0, longitude: 0)
        // One degree of arc on a 6371 km sphere: 111.195 km = 60.04 NM.
        #expect((Geodesy.distance(origin, Coordinate(latitude: 1, longitude: 0)) - 60.04).magnitude < 0.01)
        #expect(Geodesy.bearing(from: origin, to: Coordinate(latitude: 0, longitude: 1)) == 90)
        #expect((Geodesy.bearing(from: origin, to: Coordinate(latitude: -1, longitude: 0)) - 180).magnitude < 1e-9)
        let there = Geodesy.destination(from: Coordinate(latitude: 52, longitude: 4), bearing: 33, distance: 120)
        #expect((Geodesy.distance(Coordinate(latitude: 52, longitude: 4), there) - 120).magnitude < 1e-6)
    }

    @Test("keys print and parse as aircraft.json hex")
    func keys() {
        #expect(AircraftKey(address: 0x4840D6).hex == "4840d6")
        #expect(AircraftKey(address: 0x0000AB, isICAO: false).hex == "~0000ab")
        #expect(AircraftKey(hex: "~0000AB") == AircraftKey(address: 0xAB, isICAO: false))
        #expect(AircraftKey(hex: "4840d6") == AircraftKey(address: 0x4840D6))
        #expect(AircraftKey(hex: "+840d6") == nil)
        #expect(AircraftKey(hex: "4840d") == nil)
    }

    @Test("readers keep a consistent snapshot while the table goes on")
    func publisher() async throws {
        let publisher = SnapshotPublisher()
        var table = AircraftTable()
        try table.feed(SyntheticFrames.allCall(address: 0x111111), at: 0)
        try table.feed(SyntheticFrames.allCall(address: 0x111111), at: 1)
        publisher.publish(table.snapshot(at: 1))
        let held = publisher.current
        try table.feed(SyntheticFrames.allCall(address: 0x222222), at: 2)
        try table.feed(SyntheticFrames.allCall(address: 0x222222), at: 3)
        #expect(held.count == 1)
        #expect(publisher.current.count == 1)
        let final = table.snapshot(at: 3)
        let readers = await withTaskGroup(of: Int.self) { group in
            group.addTask { publisher.publish(final); return final.count }
            for _ in 0..<4 { group.addTask { publisher.current.count } }
            var counts: [Int] = []
            for await c in group { counts.append(c) }
            return counts
        }
        #expect(readers.allSatisfy { $0 == 1 || $0 == 2 })
        #expect(publisher.current.count == 2)
    }
}

/// Databases asked in order (the simulator's fleet, then the imported database).
struct StackedAircraftDatabaseTests {
    @Test("the first layer that knows an address answers; registrations are looked up in every layer")
    func order() {
        let fleet = DictionaryAircraftDatabase([1: AircraftInfo(address: 1, registration: "PH-SIM", typeCode: "B738")])
        let imported = DictionaryAircraftDatabase([1: AircraftInfo(address: 1, registration: "PH-DB", typeCode: "A320"),
                                                   2: AircraftInfo(address: 2, registration: "PH-SIM", typeCode: "E190")])
        let stacked = StackedAircraftDatabase([fleet, imported])
        #expect(stacked.info(address: 1)?.typeCode == "B738")
        #expect(stacked.info(address: 2)?.typeCode == "E190")
        #expect(stacked.info(address: 3) == nil)
        #expect(stacked.addresses(registration: "ph-sim") == [1, 2])
    }
}
