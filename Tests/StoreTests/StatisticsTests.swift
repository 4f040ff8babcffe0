import Foundation
import GRDB
import ModeS
import Testing
@testable import Store

@Suite("Statistics over the sighting log")
struct StatisticsTests {
    static let t0 = 1_763_769_600.0   // 2025-11-22 00:00:00 UTC
    static let miami = Coordinate(latitude: 25.7959, longitude: -80.2870)

    /// A generated log of 3000 visits over 3 days near Miami.
    static func generatedLog() -> [VisitRecord] {
        var rng = SplitMix64(seed: 42)
        let types: [String?] = ["B738", "B737", "B38M", "A320", "A321", "A319", "E190", "C172", nil]
        let operators: [String?] = ["American Airlines", "Delta Air Lines", "JetBlue", "United Airlines", nil]
        let categories: [String?] = ["A1", "A2", "A3", "A5", nil]
        return (0..<3000).map { _ in
            let first = t0 + Double.random(in: 0..<(3 * 86_400), using: &rng).rounded()
            let hasCallsign = Int.random(in: 0..<10, using: &rng) > 1
            return VisitRecord(address: Int.random(in: 0..<400, using: &rng) + 0xA00000, firstSeen: first,
                               lastSeen: first + Double.random(in: 10...3600, using: &rng),
                               callsign: hasCallsign ? "AAL\(Int.random(in: 1...250, using: &rng))" : nil,
                               typeCode: types.randomElement(using: &rng)!, operatorName: operators.randomElement(using: &rng)!,
                               category: categories.randomElement(using: &rng)!,
                               maxAltitude: Int.random(in: 0..<4, using: &rng) == 0 ? nil : Int.random(in: -500...45_000, using: &rng),
                               closestDistance: Int.random(in: 0..<5, using: &rng) == 0 ? nil : Double.random(in: 0...200, using: &rng),
                               messages: Int.random(in: 1...5000, using: &rng),
                               lastLatitude: 25.0 + Double.random(in: -2...2, using: &rng),
                               lastLongitude: -80.3 + Double.random(in: -2...2, using: &rng),
                               lastTrack: Int.random(in: 0..<6, using: &rng) == 0 ? nil : Double.random(in: 0..<360, using: &rng),
                               closed: true)
        }
    }

    static func database(_ log: [VisitRecord]) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        try db.writer.write { d in for var v in log { try v.insert(d) } }
        return db
    }

    static func key(_ v: VisitRecord, _ dimension: StatsDimension) -> String {
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let date = Date(timeIntervalSince1970: v.firstSeen.rounded(.down))
        switch dimension {
        case .type: return v.typeCode ?? "unknown"
        case .operator: return v.operatorName ?? "unknown"
        case .category: return v.category ?? "unknown"
        case .altitude:
            guard let a = v.maxAltitude else { return "unknown" }
            let band = max(a, 0) / 5000 * 5000
            return String(format: "%05d-%05d", band, band + 4999)
        case .hour: return String(format: "%02d", calendar.component(.hour, from: date))
        case .day:
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
    }

    /// The same counts by brute force.
    static func bruteForce(_ log: [VisitRecord], _ dimension: StatsDimension, _ admit: (VisitRecord) -> Bool) -> [String: StatsRow] {
        var groups: [String: [VisitRecord]] = [:]
        for v in log where admit(v) { groups[key(v, dimension), default: []].append(v) }
        return groups.mapValues { vs in
            StatsRow(key: key(vs[0], dimension), aircraft: Set(vs.map(\.address)).count, flights: Set(vs.compactMap(\.callsign)).count,
                     visits: vs.count, messages: vs.reduce(0) { $0 + $1.messages })
        }
    }

    struct FilterCase: Sendable, CustomStringConvertible {
        var name: String
        var filter: StatsFilter
        var admit: @Sendable (VisitRecord) -> Bool
        var description: String { name }
    }

    static let filters: [FilterCase] = [
        FilterCase(name: "everything", filter: StatsFilter(), admit: { _ in true }),
        FilterCase(name: "one day", filter: StatsFilter(since: t0 + 86_400, until: t0 + 2 * 86_400),
                   admit: { $0.lastSeen >= t0 + 86_400 && $0.firstSeen <= t0 + 2 * 86_400 }),
        FilterCase(name: "type B73*", filter: StatsFilter(typePattern: "B73*"), admit: { $0.typeCode?.hasPrefix("B73") == true }),
        FilterCase(name: "type A320", filter: StatsFilter(typePattern: "a320"), admit: { $0.typeCode == "A320" }),
        FilterCase(name: "within 50 km", filter: StatsFilter(withinKm: 50), admit: { ($0.closestDistance ?? .infinity) <= 50 / 1.852 }),
        FilterCase(name: "towards Miami ±20°, B73*, since day 2",
                   filter: StatsFilter(since: t0 + 86_400, typePattern: "B73*", towards: miami, tolerance: 20),
                   admit: { v in
                       guard v.lastSeen >= t0 + 86_400, v.typeCode?.hasPrefix("B73") == true, let la = v.lastLatitude,
                             let lo = v.lastLongitude, let track = v.lastTrack else { return false }
                       return StatsFilter.isHeading(from: Coordinate(latitude: la, longitude: lo), track: track, to: miami, tolerance: 20)
                   }),
    ]

    @Test("Every grouping equals a brute-force count over a generated log", arguments: filters)
    func groupings(_ c: FilterCase) async throws {
        let log = Self.generatedLog()
        let db = try Self.database(log)
        for dimension in StatsDimension.allCases {
            let rows = try await db.statistics.groups(by: dimension, filter: c.filter)
            let expected = Self.bruteForce(log, dimension, c.admit)
            #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) }) == expected, "\(dimension)")
            #expect(rows.count == expected.count)
        }
        let total = try await db.statistics.total(filter: c.filter)
        let admitted = log.filter(c.admit)
        #expect(total.visits == admitted.count)
        #expect(total.aircraft == Set(admitted.map(\.address)).count)
        #expect(total.flights == Set(admitted.compactMap(\.callsign)).count)
        #expect(total.messages == admitted.reduce(0) { $0 + $1.messages })
    }

    @Test("Top lists are the biggest groups first; hours and days in time order")
    func ordering() async throws {
        let db = try Self.database(Self.generatedLog())
        let top = try await db.statistics.groups(by: .type, limit: 3)
        let all = try await db.statistics.groups(by: .type)
        #expect(top == Array(all.prefix(3)))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.aircraft >= $1.aircraft })
        let hours = try await db.statistics.groups(by: .hour).map(\.key)
        #expect(hours == (0..<24).map { String(format: "%02d", $0) })
        #expect(try await db.statistics.groups(by: .day).map(\.key) == ["2025-11-22", "2025-11-23", "2025-11-24"])
    }

    @Test("Direction of travel: towards a place within the tolerance, not away from it")
    func heading() {
        let p = Coordinate(latitude: 25.0, longitude: -81.0)   // west-south-west of Miami
        let bearing = 38.83   // the initial bearing from p to Miami (haversine, computed independently)
        #expect(StatsFilter.isHeading(from: p, track: bearing, to: Self.miami, tolerance: 10))
        #expect(StatsFilter.isHeading(from: p, track: bearing + 15, to: Self.miami, tolerance: 20))
        #expect(!StatsFilter.isHeading(from: p, track: bearing + 25, to: Self.miami, tolerance: 20))
        #expect(!StatsFilter.isHeading(from: p, track: bearing + 180, to: Self.miami, tolerance: 20))
        // Across north: 350° vs 010° is 20° apart.
        let south = Coordinate(latitude: 24.0, longitude: -80.2870)
        #expect(StatsFilter.isHeading(from: south, track: 355, to: Self.miami, tolerance: 10))
    }

    @Test("A random pick comes from the filtered recent visits")
    func random() async throws {
        let log = Self.generatedLog()
        let db = try Self.database(log)
        for _ in 0..<20 {
            let v = try await #require(try await db.statistics.randomVisit(filter: StatsFilter(since: Self.t0 + 2.5 * 86_400, typePattern: "E190")))
            #expect(v.typeCode == "E190" && v.lastSeen >= Self.t0 + 2.5 * 86_400)
        }
        #expect(try await db.statistics.randomVisit(filter: StatsFilter(since: Self.t0 + 10 * 86_400)) == nil)
    }

    @Test("Malformed type patterns are refused")
    func badPattern() async throws {
        let db = try AppDatabase.inMemory()
        await #expect(throws: WatchRuleError.self) { try await db.statistics.groups(by: .type, filter: StatsFilter(typePattern: "B7%")) }
    }

    @Test("Airports: built-in codes, OurAirports import, command-line places and times")
    func airportsAndInput() async throws {
        let db = try AppDatabase.inMemory()
        #expect(try await db.airports.airport(code: "mia")?.ident == "KMIA")
        #expect(try await db.airports.airport(code: "EHAM")?.iata == "AMS")
        let csv = """
            "id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","gps_code","iata_code","local_code","home_link","wikipedia_link","keywords"
            3632,"KTPA","large_airport","Tampa International Airport",27.975500106811523,-82.533203125,26,"NA","US","US-FL","Tampa","yes","KTPA","TPA","TPA",,,
            9999,"XXXX","closed","Old Field",1,2,3,"NA","US","US-FL","x","no","","","",,,

            """
        #expect(try await db.airports.importCSV(Array(csv.utf8)) == 1)
        #expect(try await db.airports.airport(code: "TPA")?.name == "Tampa International Airport")
        #expect(try await db.airports.airport(code: "XXXX") == nil)
        let place = try await db.airports.place("ktpa")
        #expect(abs(place.coordinate.latitude - 27.9755) < 1e-4)
        #expect(try await db.airports.place("52.3, 4.76").coordinate == Coordinate(latitude: 52.3, longitude: 4.76))
        await #expect(throws: InputError.self) { try await db.airports.place("ZZZZ") }
        await #expect(throws: InputError.self) { try await db.airports.place("95,4") }
        await #expect(throws: InputError.self) { try await db.airports.place("Miami!") }
        #expect(try CommandInput.time("24h", now: 100_000) == 13_600)
        #expect(try CommandInput.time("2025-11-22", now: 0) == Self.t0)
        #expect(try CommandInput.time("2025-11-22T01:00:00Z", now: 0) == Self.t0 + 3600)
        #expect(throws: InputError.self) { try CommandInput.time("yesterday", now: 0) }
        #expect(throws: InputError.self) { try CommandInput.kilometres("-5") }
        #expect(CommandInput.address("4840D6") == 0x4840D6 && CommandInput.address("~00000a") == 0x100_000A && CommandInput.address("PH-BXA") == nil)
        #expect(try CommandInput.password(fromLine: "secret pw\r") == "secret pw")
        #expect(throws: InputError.self) { try CommandInput.password(fromLine: nil) }
    }
}
