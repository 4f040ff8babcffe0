import Foundation
import Hummingbird
import HummingbirdTesting
import ModeS
import Store
import Testing
import Tracking
@testable import Web

/// `/api/me/places`, `/api/me/reminders`, `/api/me/eta`: each user's own places only, clear
/// 4xx answers to bad input with nothing stored, and predictions for tracked aircraft.
@Suite("Web: places, reminders and predictions")
struct PlacesAPITests {
    static func app() throws -> some ApplicationProtocol {
        let accounts = WebAccounts(database: try AppDatabase.inMemory(), bcryptCost: 4)
        var sources = try Sky.sources()
        sources.accounts = accounts
        sources.receiver.position = Sky.receiver
        return try buildApplication(configuration: WebConfiguration(port: 0), sources: sources)
    }

    static func body(_ json: String) -> ByteBuffer { ByteBuffer(string: json) }

    /// A place 60 NM north-east of the receiver: KLM1023 (30.3 NM out on track 045 at 450 kt)
    /// passes over it 237.6 s after the snapshot.
    static let ahead = Geodesy.destination(from: Sky.receiver, bearing: 45, distance: 60)

    /// Every route of this controller with a request that names alice's place or reminder:
    /// logged out each must be 401; as bob, 404 (or, for lists, none of alice's rows).
    struct Route: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        /// What bob gets.
        var asOther: HTTPResponse.Status
        var description: String { "\(method) \(path)" }
    }

    static func routes(place: Int, reminder: Int) -> [Route] {
        [
            Route(method: .get, path: "/api/me/places", asOther: .ok),
            Route(method: .post, path: "/api/me/places", body: #"{"name":"x","lat":1,"lon":2}"#, asOther: .created),
            Route(method: .put, path: "/api/me/places/\(place)", body: #"{"name":"mine now"}"#, asOther: .notFound),
            Route(method: .delete, path: "/api/me/places/\(place)", asOther: .notFound),
            Route(method: .get, path: "/api/me/reminders", asOther: .ok),
            Route(method: .post, path: "/api/me/reminders", body: #"{"place_id":\#(place),"event":"closest","minutes":[5]}"#, asOther: .notFound),
            Route(method: .delete, path: "/api/me/reminders/\(reminder)", asOther: .notFound),
            Route(method: .get, path: "/api/me/eta", asOther: .ok),
        ]
    }

    @Test("Every route: 401 logged out; another user's place or reminder is 404 and leaks nothing; nothing of alice's changes")
    func accessControl() async throws {
        try await Self.app().test(.router) { client in
            let alice = try await AccountTests.register(client, "alice")
            let bob = try await AccountTests.register(client, "bob")
            let place = try await client.execute(uri: "/api/me/places", method: .post, headers: alice,
                                                 body: Self.body(#"{"name":"Garden","lat":52.4,"lon":4.9,"radius_km":3}"#)) { r in
                #expect(r.status == .created)
                return try #require(try r.json()["id"] as? Int)
            }
            let reminder = try await client.execute(uri: "/api/me/reminders", method: .post, headers: alice,
                                                    body: Self.body(#"{"place_id":\#(place),"event":"closest","minutes":[10]}"#)) { r in
                #expect(r.status == .created)
                let list = try #require(try r.json()["reminders"] as? [[String: Any]])
                return try #require(list.first?["id"] as? Int)
            }
            for route in Self.routes(place: place, reminder: reminder) {
                try await client.execute(uri: route.path, method: route.method, body: route.body.map(Self.body)) { r in
                    #expect(r.status == .unauthorized, "\(route) logged out")
                }
                try await client.execute(uri: route.path, method: route.method, headers: bob, body: route.body.map(Self.body)) { r in
                    #expect(r.status == route.asOther, "\(route) as bob: \(r.text)")
                    #expect(!r.text.contains("Garden"), "\(route) leaks alice's place")
                }
            }
            try await client.execute(uri: "/api/me/places", method: .get, headers: alice) { r in
                let places = try #require(try r.json()["places"] as? [[String: Any]])
                #expect(places.compactMap { $0["name"] as? String } == ["Receiver", "Garden"])
            }
            try await client.execute(uri: "/api/me/reminders", method: .get, headers: alice) { r in
                let list = try r.json()["reminders"] as? [[String: Any]]
                #expect(list?.count == 1)
            }
        }
    }

    @Test("Bad input gets a clear 4xx and stores nothing")
    func badInput() async throws {
        try await Self.app().test(.router) { client in
            let alice = try await AccountTests.register(client, "alice")
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"airport":"ZZZZ"}"#, .badRequest, "no airport 'ZZZZ'"),
                (#"{"search":"no such field anywhere"}"#, .badRequest, "no airport"),
                (#"{"name":"North","lat":95,"lon":0}"#, .badRequest, "not on the Earth"),
                (#"{"name":"East","lat":0,"lon":-200}"#, .badRequest, "not on the Earth"),
                (#"{"name":"Huge","lat":1,"lon":1,"radius_km":100000}"#, .badRequest, "radius"),
                (#"{"name":"Neg","lat":1,"lon":1,"radius_nm":-1}"#, .badRequest, "radius"),
                (#"{"lat":1,"lon":1}"#, .badRequest, "place name"),
                (#"{"name":"Both","lat":1,"lon":1,"airport":"EHAM"}"#, .badRequest, "exactly one"),
                (#"{"name":"x","lat":"north","lon":1}"#, .badRequest, ""),
                (#"not json"#, .badRequest, ""),
            ]
            for (json, status, message) in cases {
                try await client.execute(uri: "/api/me/places", method: .post, headers: alice, body: Self.body(json)) { r in
                    #expect(r.status == status, "\(json): \(r.text)")
                    #expect(message.isEmpty || r.text.contains(message), "\(json): \(r.text)")
                }
            }
            try await client.execute(uri: "/api/me/places", method: .post, headers: alice, body: Self.body(#"{"airport":"ams"}"#)) { r in
                #expect(r.status == .created)
                let doc = try r.json()
                #expect(doc["airport"] as? String == "EHAM" && doc["name"] as? String == "Amsterdam Schiphol")
            }
            try await client.execute(uri: "/api/me/places", method: .post, headers: alice, body: Self.body(#"{"search":"schiphol"}"#)) { r in
                #expect(r.status == .conflict, "same name again: \(r.text)")
            }
            try await client.execute(uri: "/api/me/places", method: .post, headers: alice,
                                     body: Self.body(#"{"name":"Garden","lat":52.4,"lon":4.9}"#)) { r in
                #expect(r.status == .created)
            }
            let reminderCases: [(String, HTTPResponse.Status)] = [
                (#"{"place_id":null,"event":"arrival","minutes":[5]}"#, .badRequest),
                (#"{"place_id":2,"event":"arrival","minutes":[5]}"#, .badRequest),
                (#"{"place_id":2,"event":"closest","minutes":[5, 0]}"#, .badRequest),
                (#"{"place_id":2,"event":"closest","minutes":[]}"#, .badRequest),
                (#"{"place_id":2,"event":"closest","minutes":[5, 5]}"#, .badRequest),
                (#"{"place_id":2,"event":"soon","minutes":[5]}"#, .badRequest),
                (#"{"place_id":999,"event":"closest","minutes":[5]}"#, .notFound),
                (#"{"place_id":2,"rule_id":999,"event":"closest","minutes":[5]}"#, .notFound),
            ]
            for (json, status) in reminderCases {
                try await client.execute(uri: "/api/me/reminders", method: .post, headers: alice, body: Self.body(json)) { r in
                    #expect(r.status == status, "\(json): \(r.text)")
                }
            }
            try await client.execute(uri: "/api/me/reminders", method: .get, headers: alice) { r in
                let list = try r.json()["reminders"] as? [[String: Any]]
                #expect(list?.isEmpty == true, "a refused request stores no lead")
            }
            try await client.execute(uri: "/api/me/places/abc", method: .delete, headers: alice) { r in
                #expect(r.status == .badRequest)
            }
        }
    }

    @Test("GET /api/me/eta predicts when a tracked aircraft passes a place, in the user's time format, language and units")
    func eta() async throws {
        try await Self.app().test(.router) { client in
            let alice = try await AccountTests.register(client, "alice")
            try await client.execute(uri: "/api/me/watchlist", method: .post, headers: alice,
                                     body: Self.body(#"{"kind":"callsign","value":"KLM1023"}"#)) { r in
                #expect(r.status == .created)
            }
            try await client.execute(uri: "/api/me/places", method: .post, headers: alice,
                                     body: Self.body(#"{"name":"Ahead","lat":\#(Self.ahead.latitude),"lon":\#(Self.ahead.longitude)}"#)) { r in
                #expect(r.status == .created)
            }
            try await client.execute(uri: "/api/me", method: .put, headers: alice, body: Self.body(#"{"timeFormat":"both"}"#)) { r in
                let format = try r.json()["timeFormat"] as? String
                #expect(format == "both")
            }
            try await client.execute(uri: "/api/me/eta", method: .get, headers: alice) { r in
                #expect(r.status == .ok)
                let doc = try r.json()
                #expect(doc["time_format"] as? String == "both")
                let predictions = try #require(doc["predictions"] as? [[String: Any]])
                #expect(predictions.count == 1, "\(r.text)")
                let p = try #require(predictions.first)
                #expect(p["hex"] as? String == "4840d6" && p["place"] as? String == "Ahead" && p["event"] as? String == "closest")
                let seconds = try #require(p["in_seconds"] as? Double)
                #expect(abs(seconds - 237.6) < 3, "\(seconds)")
                #expect((p["when"] as? String)?.hasPrefix("in 4 min (") == true, "\(p["when"] ?? "")")
                #expect(try #require(p["distance_nm"] as? Double) < 0.3)
                #expect((p["distance"] as? String)?.hasSuffix(" km") == true, "metric, a new account's units")
            }
            try await client.execute(uri: "/api/me", method: .put, headers: alice, body: Self.body(#"{"language":"fr","units":"imperial"}"#)) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/api/me/eta", method: .get, headers: alice) { r in
                let p = try #require((try r.json()["predictions"] as? [[String: Any]])?.first)
                #expect((p["when"] as? String)?.hasPrefix("dans 4 min (") == true, "\(p["when"] ?? "")")
                #expect((p["distance"] as? String)?.hasSuffix(" mi") == true, "\(p["distance"] ?? "")")
                #expect(try #require(p["distance_nm"] as? Double) < 0.3, "the number stays in NM")
            }
        }
    }
}
