import Foundation
import GRDB
import ModeS
import PostgresTestSupport
import Radio
import Store
import Services
import Testing
import Tracking
@testable import Feeds
@testable import FlyTrackerCLI

/// Three receivers with overlapping coverage of one simulated sky feed one aggregator over
/// loopback TCP, as `flytracker run --receiver-id … --net-connector HOST:PORT:beast_out` feeds
/// `flytracker run --net-only`: the aggregator's `ReceiverLoop`, table and sighting log are
/// the real ones.
@Suite(.serialized, .timeLimit(.minutes(2))) struct AggregatorTests {
    struct Station {
        var announcement: ReceiverAnnouncement
        var position: Coordinate
        /// The receiver's 12 MHz clock at sky time 0 (each Pi's counter is its own).
        var clockOffset: UInt64
        var id: ReceiverID { announcement.id! }
    }

    /// Coverage radius of each receiver, NM (the stations stand 32 NM from the sky's centre,
    /// whose aircraft fly within 108 NM of it).
    static let coverage = 60.0
    static let centre = SkyConfiguration.defaultReceiver

    let stations: [Station] = [
        Station(announcement: ReceiverAnnouncement(id: ReceiverID.uuid("11111111-2222-3333-4444-555555555555"), name: "West",
                                                   position: Geodesy.destination(from: centre, bearing: 270, distance: 32)),
                position: Geodesy.destination(from: centre, bearing: 270, distance: 32), clockOffset: 0),
        Station(announcement: ReceiverAnnouncement(id: ReceiverID(rawValue: "east-pi"), name: "East",
                                                   position: Geodesy.destination(from: centre, bearing: 90, distance: 32)),
                position: Geodesy.destination(from: centre, bearing: 90, distance: 32), clockOffset: 12_000_000 * 86_400 * 300),
        // A clock far off (its counter near the 48-bit wrap): arrival time is what counts.
        Station(announcement: ReceiverAnnouncement(id: ReceiverID(rawValue: "north-pi"), name: "North",
                                                   position: Geodesy.destination(from: centre, bearing: 0, distance: 32)),
                position: Geodesy.destination(from: centre, bearing: 0, distance: 32), clockOffset: (1 << 48) - 12_000_000 * 3),
    ]

    func receiverHub(_ s: Station, port: Int) async throws -> FeedHub {
        var o = FeedOptions(bindHost: "127.0.0.1", heartbeatInterval: nil, reconnectInitialDelay: 0.05, reconnectMaximumDelay: 0.2)
        o.connectors = [FeedConnectorSpec(host: "127.0.0.1", port: port, kind: .beastOut)]
        o.announcement = s.announcement
        let hub = FeedHub(options: o)
        try await hub.start()
        #expect(Poll.until { hub.statistics().clients[.beast] == 1 }, "receiver \(s.id) connects")
        return hub
    }

    @Test func mergedTableHoldsEveryAircraftOnceWithItsReceiversAndARestartedReceiverLosesNothing() async throws {
        let aggregatorHub = FeedHub(options: FeedOptions(bindHost: "127.0.0.1", beastInPorts: [0], heartbeatInterval: nil))
        try await aggregatorHub.start()
        defer { aggregatorHub.stopAfterTest() }
        let port = try #require(aggregatorHub.boundPorts(.input(.beast)).first)
        var aggregator = ReceiverLoop(sampleRate: .rate2_4)
        aggregator.feeds = aggregatorHub
        let database = try AppDatabase.inMemory()
        let recorder = try await SightingRecorder(database: database)

        var hubs: [FeedHub?] = []
        defer { for h in hubs { h?.stopAfterTest() } }
        for station in stations { hubs.append(try await receiverHub(station, port: port)) }

        var sky = Sky(configuration: SkyConfiguration(seed: 11, aircraftCount: 30, interrogations: false))
        /// Per receiver: DF17 frames it sent per aircraft; per aircraft: transmissions heard.
        var sent: [[UInt32: Int]] = stations.map { _ in [:] }
        var transmissions: [UInt32: Set<Int>] = [:]
        var copies: [UInt32: Int] = [:]
        var published = 0
        let killAt = 35, restartAt = 55, steps = 90
        for step in 0..<steps {
            if step == killAt { await hubs[1]?.shutdown(); hubs[1] = nil }
            if step == restartAt { hubs[1] = try await receiverHub(stations[1], port: port) }
            for frame in sky.advance() where frame.frame.downlinkFormat == 17 {
                for (i, s) in stations.enumerated() where Geodesy.distance(s.position, frame.position) <= Self.coverage {
                    guard let hub = hubs[i] else { continue }
                    let ticks = UInt64(frame.time * ReceivedFrame.ticksPerSecond) &+ s.clockOffset
                    hub.publish(ReceivedFrame(frame: frame.frame, timestamp: ticks, signal: frame.levelDBFS - Double(i)))
                    sent[i][frame.address, default: 0] += 1
                    transmissions[frame.address, default: []].insert(frame.sequence)
                    copies[frame.address, default: 0] += 1
                    published += 1
                }
            }
            try await Task.sleep(for: .seconds(0.05))
            aggregator.applyRemoteFrames()
            if step % 10 == 9 { try await recorder.record(aggregator.table.snapshot(at: Date().timeIntervalSince1970)) }
        }
        #expect(Poll.until(seconds: 10) { aggregatorHub.statistics().remoteFrames == published }, "every frame sent arrived")
        aggregator.applyRemoteFrames()
        let now = Date().timeIntervalSince1970
        let snapshot = aggregator.table.snapshot(at: now)
        try await recorder.record(snapshot)
        try await recorder.finish(at: now + 1)

        let heardAtAll = Set(sent.flatMap(\.keys))
        #expect(heardAtAll.count >= 15, "the sky gives the test something to merge")
        #expect(Set(sent[0].keys).intersection(sent[1].keys).count >= 3, "coverage overlaps")
        #expect(aggregatorHub.statistics().remoteMerged > 0)

        // Every aircraft once, with exactly the receivers that heard it.
        for address in heardAtAll {
            let a = try #require(snapshot.aircraft(address: address), "aircraft \(String(address, radix: 16)) is in the merged table")
            let expected = Set(stations.indices.filter { sent[$0][address] != nil }.map { stations[$0].id })
            #expect(Set(a.heardBy.keys) == expected, "receivers of \(String(address, radix: 16))")
            // Every copy recorded as a hearing, and each transmission applied once (copies merged).
            #expect(a.heardBy.values.map(\.messages).reduce(0, +) == copies[address])
            let heard = transmissions[address]?.count ?? 0
            #expect(a.messages >= heard && a.messages <= heard + heard / 10,
                    "\(a.messages) messages applied for \(heard) transmissions (\(copies[address] ?? 0) copies)")
        }
        #expect(snapshot.count == heardAtAll.count, "no aircraft nobody heard")

        // The sighting log: one visit per aircraft, with its receivers.
        let visits = try await database.writer.read { db in try VisitRecord.fetchAll(db) }
        #expect(visits.count == heardAtAll.count, "one visit per aircraft, none duplicated")
        #expect(Set(visits.map { UInt32($0.address) }) == heardAtAll)
        for v in visits {
            let rows = try await database.sightings.visitReceivers(visitId: try #require(v.id))
            let expected = Set(stations.indices.filter { sent[$0][UInt32(v.address)] != nil }.map { stations[$0].id.rawValue })
            #expect(Set(rows.map(\.receiver)) == expected)
        }
        // Statistics per receiver answer from the same log.
        for (i, s) in stations.enumerated() {
            let total = try await database.statistics.total(filter: StatsFilter(receiver: s.id.rawValue))
            #expect(total.aircraft == sent[i].count, "aircraft heard by \(s.id)")
        }

        // The receiver that was restarted is one receiver that connected twice, and it was
        // heard both before and after its restart.
        let status = try #require(aggregatorHub.receivers().first { $0.id == stations[1].id })
        #expect(status.connects == 2)
        #expect(status.isConnected)
        #expect(status.position == stations[1].position)
        #expect(status.name == "East")
        #expect(aggregatorHub.receivers().count == 3, "no ghost receiver from the reconnection")
    }
}
