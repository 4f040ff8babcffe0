import Feeds
import Foundation
import Hummingbird
import HummingbirdTesting
import ModeS
import Store
import Services
import Testing
import Tracking
@testable import Web

/// An aggregator's API: `/api/receivers`, and `receiver=` on the aircraft lists.
@Suite("Web: receivers of a network")
struct ReceiversAPITests {
    static let north = Hearing(receiver: ReceiverID(rawValue: "north-pi")!, position: Coordinate(latitude: 52.6, longitude: 4.76))
    static let south = Hearing(receiver: ReceiverID.uuid("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")!, position: Coordinate(latitude: 52.0, longitude: 4.76))

    /// KLM (4840d6) heard by both receivers, DLH (3c6444) by the south one only.
    static func sources() throws -> WebSources {
        var table = AircraftTable()
        let klm = Geodesy.destination(from: north.position!, bearing: 90, distance: 20)
        for (t, f) in [(0.5, CPRFormat.even), (1.0, .odd)] {
            let frame = SyntheticFrames.airbornePosition(address: 0x4840D6, position: klm, altitude: 35000, format: f)
            let message = try #require(ModeSMessage.decode(frame))
            table.apply(message, received: ReceivedFrame(frame: frame, signal: -10), at: t, via: north)
            table.hear(message, received: ReceivedFrame(frame: frame, signal: -25), at: t + 0.01, via: south)
        }
        for t in [0.6, 1.1] {
            let frame = SyntheticFrames.identification(address: 0x3C6444, callsign: "DLH1")
            table.apply(try #require(ModeSMessage.decode(frame)), received: ReceivedFrame(frame: frame, signal: -20), at: t, via: south)
        }
        let snapshot = table.snapshot(at: 2)
        var coverage = CoverageMap()
        coverage.update(snapshot, stations: [north.receiver: north.position!, south.receiver: south.position!])
        let published = PublishedReceivers()
        published.publish([north, south].map { h in
            var s = ReceiverStatus(id: h.receiver, position: h.position, peer: "192.0.2.1", firstConnected: Sky.now - 60, lastConnected: Sky.now - 60)
            s.connections = 1
            s.connects = 1
            s.frames = 10
            return NetworkReceiver(status: s, coverage: coverage.receivers[h.receiver] ?? ReceiverCoverage())
        })
        var sources = WebSources(live: SnapshotPublisher(snapshot), clock: { Sky.now })
        sources.network = published
        return sources
    }

    @Test("/api/receivers lists each receiver with its counters and coverage")
    func receivers() async throws {
        try await Sky.app(try Self.sources()).test(.router) { client in
            try await client.execute(uri: "/api/receivers", method: .get) { response in
                #expect(response.status == .ok)
                let list = try #require(try response.json()["receivers"] as? [[String: Any]])
                #expect(list.map { $0["id"] as? String } == ["north-pi", "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"])
                #expect(list[0]["aircraft"] as? Int == 1)
                #expect(list[1]["aircraft"] as? Int == 2)
                #expect(list[0]["connected"] as? Bool == true)
                let range = try #require(list[0]["max_range"] as? Double)
                #expect(abs(range - 20) < 0.2, "KLM is 20 NM east of the north receiver")
                let sectors = try #require(list[0]["sectors"] as? [Int])
                #expect(sectors.count == 12 && sectors[3] == 20, "east: the 90°…120° sector")
            }
        }
    }

    @Test("receiver= keeps the aircraft that receiver hears, in aircraft.json and /api/aircraft; each aircraft lists its receivers")
    func filter() async throws {
        try await Sky.app(try Self.sources()).test(.router) { client in
            try await client.execute(uri: "/data/aircraft.json?receiver=north-pi&_=123", method: .get) { response in
                #expect(response.status == .ok)
                #expect(try response.hexes() == ["4840d6"])
                let aircraft = try #require(try response.json()["aircraft"] as? [[String: Any]])
                let receivers = try #require(aircraft.first?["receivers"] as? [[String: Any]])
                #expect(receivers.map { $0["id"] as? String } == ["north-pi", "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"], "strongest first")
                #expect(receivers.first?["messages"] as? Int == 2)
            }
            // A UUID in any case and with or without dashes is the same receiver.
            try await client.execute(uri: "/api/aircraft?receiver=0A1B2C3D4E5F60718293A4B5C6D7E8F9", method: .get) { response in
                #expect(response.status == .ok)
                let hexes = try response.hexes()
                #expect(hexes == ["3c6444", "4840d6"])
            }
            try await client.execute(uri: "/api/aircraft?receiver=nobody", method: .get) { response in
                let hexes = try response.hexes()
                #expect(hexes == [])
            }
            try await client.execute(uri: "/api/aircraft?receiver=two%20words", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("/api/stats counts per receiver from the sighting store of an aggregator without accounts")
    func statsPerReceiver() async throws {
        let database = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(store: database)
        var seen = Observation(key: 0x4840D6, typeCode: "B738", messages: 5, lastSeen: Sky.now - 100)
        seen.receivers = [Self.north.receiver: ReceiverHearing(lastSeen: Sky.now - 100, messages: 5, signal: -12)]
        let other = Observation(key: 0x3C6444, typeCode: "A320", messages: 3, lastSeen: Sky.now - 100)
        try await recorder.record([seen, other], at: Sky.now - 100)
        try await recorder.finish(at: Sky.now - 50)
        var sources = try Self.sources()
        sources.statistics = database
        try await Sky.app(sources).test(.router) { client in
            for (query, aircraft) in [("receiver=north-pi", 1), ("", 2), ("receiver=nobody", 0)] {
                try await client.execute(uri: "/api/stats?since=0&" + query, method: .get) { response in
                    #expect(response.status == .ok)
                    let total = try #require(try response.json()["total"] as? [String: Any])
                    #expect(total["aircraft"] as? Int == aircraft, "\(query)")
                }
            }
        }
    }
}

/// An aircraft's visits and the path of one (issue 27 item 5) over the API.
@Suite("Web: visits and paths")
struct VisitPathAPITests {
    /// A sighting log with one closed visit of 4840d6 (KLM1023, B738): six positions 20 s
    /// apart along 10 NM due east, climbing from 20 000 to 22 500 ft, `ago` seconds back.
    static func databaseWithAVisit(ago: Double = 1000) async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(store: database)
        let t0 = Sky.now - ago
        for i in 0..<6 {
            let p = Geodesy.destination(from: Coordinate(latitude: 52, longitude: 4), bearing: 90, distance: Double(2 * i))
            let seen = Observation(key: 0x4840D6, callsign: "KLM1023", typeCode: "B738", altitude: 20000 + 500 * i, position: p,
                                   positionTime: t0 + Double(20 * i), track: 90, groundSpeed: 360, messages: 10 * (i + 1),
                                   lastSeen: t0 + Double(20 * i))
            try await recorder.record([seen], at: t0 + Double(20 * i))
        }
        try await recorder.finish(at: t0 + 200)
        return database
    }

    @Test("/api/aircraft/{hex}/visits lists the visits; …/visits/1/path gives distance, duration and the profile; bad input 400, no such visit 404")
    func visitsAndPath() async throws {
        let database = try await Self.databaseWithAVisit()
        var sources = try ReceiversAPITests.sources()
        sources.statistics = database
        try await Sky.app(sources).test(.router) { client in
            try await client.execute(uri: "/api/aircraft/4840d6/visits", method: .get) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                #expect(doc["hex"] as? String == "4840d6")
                #expect((doc["visits"] as? [[String: Any]])?.count == 1)
            }
            try await client.execute(uri: "/api/aircraft/4840d6/visits/1/path", method: .get) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                let points = try #require(doc["points"] as? [[String: Any]])
                #expect(points.count >= 2)
                let distance = try #require(doc["distance"] as? Double)
                let duration = try #require(doc["duration"] as? Double)
                // Whatever points the recorder kept lie on the 10 NM line flown in 100 s.
                #expect(distance > 0 && distance <= 10.01)
                #expect(duration > 0 && duration <= 100)
                #expect(abs((doc["averageSpeed"] as? Double ?? 0) - distance / duration * 3600) < 0.01)
                #expect(points.last?["distance"] as? Double == distance)
                #expect(doc["maxAltitude"] as? Int ?? 0 > doc["minAltitude"] as? Int ?? 0, "a climb in the profile")
            }
            try await client.execute(uri: "/api/aircraft/4840d6/visits/2/path", method: .get) { #expect($0.status == .notFound) }
            // The random picker: the one visit, or null when the filter admits none.
            try await client.execute(uri: "/api/stats/random?type=B73*", method: .get) { response in
                #expect(response.status == .ok)
                let visit = try response.json()["visit"] as? [String: Any]
                #expect(visit?["typeCode"] as? String == "B738")
            }
            try await client.execute(uri: "/api/stats/random?type=A38*", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"visit":null}"#)
            }
            for bad in ["by=type", "limit=3", "type=B7;", "since=x"] {
                try await client.execute(uri: "/api/stats/random?" + bad, method: .get) { #expect($0.status == .badRequest, "\(bad)") }
            }
            for bad in ["/api/aircraft/48z0d6/visits", "/api/aircraft/4840d6/visits?limit=0", "/api/aircraft/4840d6/visits?x=1",
                        "/api/aircraft/4840d6/visits/0/path", "/api/aircraft/4840d6/visits/one/path"] {
                try await client.execute(uri: bad, method: .get) { #expect($0.status == .badRequest, "\(bad)") }
            }
        }
    }
}
