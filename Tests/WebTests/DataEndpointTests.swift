import Feeds
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Tracking
@testable import Web

/// `/data/*.json` are the Feeds documents, byte for byte, so tar1090 reads FlyTracker.
@Suite("Web: /data documents")
struct DataEndpointTests {
    @Test("/data/aircraft.json is Feeds.AircraftJSON's document of the live snapshot")
    func aircraftJSON() async throws {
        let sources = try Sky.sources()
        let expected = AircraftJSON.document(sources.live.currentSnapshot, now: Sky.now)
        try await Sky.app(sources).test(.router) { client in
            try await client.execute(uri: "/data/aircraft.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(response.text == expected)
                let doc = try response.json()
                #expect(doc["now"] as? Double == Sky.now)
                let hexes = try response.hexes()
                #expect(hexes == ["3c66b0", "4840d6", "a061d9", "~00abcd"])
            }
        }
    }

    @Test("/data/receiver.json: version, refresh, history, and the snapshot's receiver position")
    func receiverJSON() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/data/receiver.json", method: .get) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                #expect(doc["version"] as? String == "FlyTracker test")
                #expect(doc["refresh"] as? Int == 1000)
                #expect(doc["history"] as? Int == 0)
                #expect(doc["lat"] as? Double == 52.3)
                #expect(doc["lon"] as? Double == 4.76)
            }
        }
    }

    @Test("/data/stats.json is the stats source's document with the dump1090-fa periods")
    func statsJSON() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/data/stats.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == Sky.stats)
                let doc = try response.json()
                for period in ["latest", "last1min", "last5min", "last15min", "total"] {
                    #expect(doc[period] is [String: Any], "\(period)")
                }
            }
        }
    }

    @Test("An empty table gives an empty aircraft list and no receiver position")
    func emptyTable() async throws {
        let sources = WebSources(live: SnapshotPublisher(), clock: { 0 })
        try await Sky.app(sources).test(.router) { client in
            try await client.execute(uri: "/data/aircraft.json", method: .get) { response in
                let hexes = try response.hexes()
                #expect(hexes.isEmpty)
            }
            try await client.execute(uri: "/data/receiver.json", method: .get) { response in
                let receiverDoc = try response.json()
                #expect(receiverDoc["lat"] == nil)
            }
        }
    }
}
