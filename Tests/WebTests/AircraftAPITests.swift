import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Tracking
@testable import Web

/// `/api/aircraft` with every filter, `/api/aircraft/{hex}` with its track, `/api/trails`.
@Suite("Web: aircraft API")
struct AircraftAPITests {
    static let filters: [(String, [String])] = [
        ("", ["3c66b0", "4840d6", "a061d9", "~00abcd"]),
        ("hex=4840d6", ["4840d6"]),
        ("hex=4840D6", ["4840d6"]),
        ("address=~00abcd", ["~00abcd"]),
        ("hex=00abcd", []),
        ("registration=phbxa", ["4840d6"]),
        ("registration=D-AIUP", ["3c66b0"]),
        ("callsign=KLM1023", ["4840d6"]),
        ("callsign=klm1023", ["4840d6"]),
        ("callsign=KLM", []),
        ("callsign=KLM*", ["4840d6"]),
        ("type=B73*", ["4840d6"]),
        ("type=A32?", ["3c66b0"]),
        ("type=*", ["3c66b0", "4840d6"]),
        ("squawk=7700", ["a061d9"]),
        ("squawk=1000", ["4840d6"]),
        ("lat=52.3&lon=4.76&radius=15", ["3c66b0", "~00abcd"]),
        ("lat=52.3&lon=4.76&radius=40", ["3c66b0", "4840d6", "~00abcd"]),
        ("box=51.8,4.26,52.8,5.26", ["3c66b0", "~00abcd"]),
        ("box=52.4,4.76,53.0,6.0", ["4840d6"]),
        ("min_alt=10000", ["4840d6", "a061d9"]),
        ("max_alt=3000", ["3c66b0", "~00abcd"]),
        ("min_alt=2000&max_alt=13000", ["a061d9", "~00abcd"]),
        ("military=true", []),
        ("military=false&type=B738", ["4840d6"]),
        ("min_alt=10000&squawk=1000&type=B7*", ["4840d6"]),
        ("limit=2", ["3c66b0", "4840d6"]),
    ]

    @Test("Filters map onto AircraftQuery", arguments: filters)
    func filter(query: String, expected: [String]) async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/aircraft" + (query.isEmpty ? "" : "?" + query), method: .get) { response in
                #expect(response.status == .ok, "\(response.text)")
                let hexes = try response.hexes()
                #expect(hexes == expected)
                let doc = try response.json()
                #expect(doc["count"] as? Int == expected.count)
                #expect(doc["total"] as? Int == 4)
            }
        }
    }

    static let malformed = [
        "squawk=8888", "squawk=777", "squawk=07700", "hex=zzzzzz", "hex=4840d", "hex=4840d6&address=4840d6",
        "lat=52", "lat=52&lon=4", "lat=95&lon=4&radius=10", "lat=52&lon=4&radius=-1", "lat=nan&lon=4&radius=1",
        "box=1,2,3", "box=53,4,52,5", "box=a,b,c,d", "box=52,4,53,5&lat=52&lon=4&radius=1",
        "min_alt=abc", "min_alt=5000&max_alt=1000", "max_alt=1e9", "unknown=1", "squawk=1000&squawk=2000",
        "type=B7%3B", "type=", "callsign=ABCDEFGHI", "callsign=KL%20M%22", "military=maybe", "limit=0", "limit=x",
    ]

    @Test("Malformed, unknown and repeated parameters are 400 with a JSON error", arguments: malformed)
    func badRequest(query: String) async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/aircraft?" + query, method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let doc = try response.json()
                #expect(doc["error"] as? String == "Bad Request")
                #expect((doc["message"] as? String)?.isEmpty == false)
            }
        }
    }

    @Test("An aircraft object has aircraft.json's keys plus operator, country and military")
    func objectShape() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/aircraft?hex=4840d6", method: .get) { response in
                let list = try #require(try response.json()["aircraft"] as? [[String: Any]])
                let klm = try #require(list.first)
                #expect(klm["flight"] as? String == "KLM1023 ")
                #expect(klm["r"] as? String == "PH-BXA")
                #expect(klm["t"] as? String == "B738")
                #expect(klm["alt_baro"] as? Int == 35000)
                #expect(klm["squawk"] as? String == "1000")
                #expect(klm["operator"] as? String == "KLM")
                #expect(klm["country"] as? String == "Netherlands")
                #expect(klm["military"] as? Bool == false)
                let distance = try #require(klm["r_dst"] as? Double)
                #expect(abs(distance - 30.3) < 0.05)
            }
        }
    }

    @Test("/api/aircraft/{hex}: the aircraft and its recent track, oldest first")
    func detail() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/aircraft/4840d6", method: .get) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                let aircraft = try #require(doc["aircraft"] as? [String: Any])
                #expect(aircraft["hex"] as? String == "4840d6")
                let track = try #require(doc["track"] as? [[String: Any]])
                #expect(track.count == 2)
                #expect(track.map { $0["time"] as? Double } == [1, 3.5])
                #expect(track.map { $0["alt"] as? Int } == [35000, 35000])
                let lat0 = try #require(track.first?["lat"] as? Double)
                let lat1 = try #require(track.last?["lat"] as? Double)
                #expect(abs(lat0 - Sky.klmStart.latitude) < 0.001)
                #expect(abs(lat1 - Sky.klmLater.latitude) < 0.001)
            }
            try await client.execute(uri: "/api/aircraft/~00ABCD", method: .get) { response in
                #expect(response.status == .ok)
                let tisbDoc = try response.json()
                #expect((tisbDoc["aircraft"] as? [String: Any])?["hex"] as? String == "~00abcd")
            }
        }
    }

    @Test("/api/aircraft/{hex}: 404 when not in view, 400 when not an address")
    func detailErrors() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/aircraft/4840d7", method: .get) { response in
                #expect(response.status == .notFound)
                let errorDoc = try response.json()
                #expect(errorDoc["error"] as? String == "Not Found")
            }
            for bad in ["xyz", "4840d6a", "%7E%7E0abcd", "4840d%00"] {
                try await client.execute(uri: "/api/aircraft/" + bad, method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    let errorDoc = try response.json()
                    #expect(errorDoc["error"] as? String == "Bad Request")
                }
            }
        }
    }

    @Test("/api/trails: every recorded track of the aircraft in view")
    func trails() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/trails", method: .get) { response in
                #expect(response.status == .ok)
                let trails = try #require(try response.json()["trails"] as? [String: [[Any]]])
                #expect(Set(trails.keys) == ["3c66b0", "4840d6", "~00abcd"])
                #expect(trails["4840d6"]?.count == 2)
                #expect(trails["3c66b0"]?.first?[2] as? Int == 0)
            }
        }
    }

    @Test("Without a track source the detail has an empty track")
    func noTracks() async throws {
        let (_, second) = try Sky.snapshots()
        let sources = WebSources(live: SnapshotPublisher(second), clock: { Sky.now })
        try await Sky.app(sources).test(.router) { client in
            try await client.execute(uri: "/api/aircraft/4840d6", method: .get) { response in
                let detailDoc = try response.json()
                #expect((detailDoc["track"] as? [Any])?.isEmpty == true)
            }
        }
    }
}
