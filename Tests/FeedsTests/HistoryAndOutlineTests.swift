import Foundation
import ModeS
import Testing
import Tracking
@testable import Feeds

/// tar1090's trails and range outline (issue 26): dump1090-fa's history ring and readsb's
/// outline.json.
struct HistoryAndOutlineTests {
    @Test("history files: the first at once, then one per interval, round a ring of count files")
    func historyRing() {
        var history = JSONHistory(count: 3, interval: 30)
        #expect(history.take(at: 1000) == "history_0.json")
        #expect(history.take(at: 1010) == nil, "younger than the interval")
        #expect(history.take(at: 1030) == "history_1.json")
        #expect(history.take(at: 1060) == "history_2.json")
        #expect(history.available == 3)
        #expect(history.take(at: 1090) == "history_0.json", "the ring wraps: the oldest file is replaced")
        #expect(history.available == 3)
        var none = JSONHistory(count: 0)
        #expect(none.take(at: 1000) == nil && none.available == 0)
    }

    @Test("receiver.json names the history files written and the outline")
    func receiverJSON() throws {
        let text = ReceiverJSON.document(version: "x", history: 7, position: nil, outline: true)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(doc["history"] as? Int == 7)
        #expect(doc["outlineJson"] as? Bool == true)
        let plain = ReceiverJSON.document(version: "x", position: nil)
        #expect(!plain.contains("outlineJson"))
    }

    static let receiver = Coordinate(latitude: 52, longitude: 4)

    @Test("the outline keeps the farthest position of each one-degree bearing, in readsb's outline.json shape")
    func farthestPerBearing() throws {
        var outline = RangeOutline(hours: 24)
        let t = 1_700_000_000.0
        let north100 = Geodesy.destination(from: Self.receiver, bearing: 0, distance: 100)
        let north150 = Geodesy.destination(from: Self.receiver, bearing: 0.2, distance: 150)
        let north120 = Geodesy.destination(from: Self.receiver, bearing: 0.1, distance: 120)
        let east80 = Geodesy.destination(from: Self.receiver, bearing: 90, distance: 80)
        outline.record(north100, altitude: 30000, receiver: Self.receiver, at: t)
        outline.record(north150, altitude: 36000, receiver: Self.receiver, at: t + 1)
        outline.record(north120, altitude: 20000, receiver: Self.receiver, at: t + 2)
        outline.record(east80, altitude: nil, receiver: Self.receiver, at: t + 3)
        let points = outline.outline(at: t + 4)
        #expect(points.count == 2)
        #expect(abs(points[0].distance - 150) < 0.01 && points[0].altitude == 36000)
        #expect(abs(points[1].distance - 80) < 0.01 && points[1].altitude == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(outline.document(at: t + 4).utf8)) as? [String: Any])
        let json = try #require(((doc["actualRange"] as? [String: Any])?["last24h"] as? [String: Any])?["points"] as? [[Double]])
        #expect(json.count == 2)
        #expect(abs(json[0][0] - north150.latitude) < 1e-4 && abs(json[0][1] - north150.longitude) < 1e-4 && json[0][2] == 36000)
    }

    @Test("points older than the outline's hours drop out; newer ones in the same bearing take over")
    func expiry() {
        var outline = RangeOutline(hours: 1)
        let t = 1_700_000_000.0
        outline.record(Geodesy.destination(from: Self.receiver, bearing: 10, distance: 200), altitude: 1, receiver: Self.receiver, at: t)
        outline.record(Geodesy.destination(from: Self.receiver, bearing: 10, distance: 50), altitude: 2, receiver: Self.receiver, at: t + 1800)
        #expect(outline.outline(at: t + 1800).map(\.altitude) == [1], "the 200 NM point is still within the hour")
        #expect(outline.outline(at: t + 3700).map(\.altitude) == [2], "past the hour only the later one remains")
        #expect(outline.outline(at: t + 7300).isEmpty)
    }

    @Test("the outline survives a restart: encoded and decoded it is the same; a new period keeps the points")
    func persistence() throws {
        var outline = RangeOutline(hours: 24)
        let t = 1_700_000_000.0
        for bearing in stride(from: 0.0, to: 360, by: 7) {
            outline.record(Geodesy.destination(from: Self.receiver, bearing: bearing, distance: 50 + bearing / 4),
                           altitude: Int(bearing) * 100, receiver: Self.receiver, at: t + bearing)
        }
        let data = try JSONEncoder().encode(outline)
        let back = try JSONDecoder().decode(RangeOutline.self, from: data)
        #expect(back == outline)
        #expect(back.document(at: t + 400) == outline.document(at: t + 400))
        let longer = outline.rescaled(hours: 48)
        #expect(longer.outline(at: t + 400).map(\.altitude) == outline.outline(at: t + 400).map(\.altitude))
    }
}
