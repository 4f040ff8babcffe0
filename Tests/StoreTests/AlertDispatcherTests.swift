import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing
@testable import Services
@testable import Store

/// A tiny HTTP server on 127.0.0.1 answering each request with the next scripted status
/// (the last one repeats) and keeping the request bodies.
final class ScriptedServer: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int]
    private var received: [String] = []
    private var channel: Channel?

    init(statuses: [Int]) { self.statuses = statuses }

    var bodies: [String] { lock.withLock { received } }

    func next(body: String) -> Int {
        lock.withLock {
            received.append(body)
            return statuses.count > 1 ? statuses.removeFirst() : statuses[0]
        }
    }

    /// Starts listening; returns the port.
    func start() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    try ch.pipeline.syncOperations.configureHTTPServerPipeline()
                    try ch.pipeline.syncOperations.addHandler(Handler(server: self))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        self.channel = channel
        return channel.localAddress!.port!
    }

    func stop() async { try? await channel?.close() }

    final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let server: ScriptedServer
        var body = ByteBuffer()

        init(server: ScriptedServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: body.clear()
            case .body(var part): body.writeBuffer(&part)
            case .end:
                let status = server.next(body: String(buffer: body))
                let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status),
                                            headers: ["Content-Length": "0"])
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

@Suite("Webhook alerts")
struct AlertDispatcherTests {
    static func setUp(port: Int) async throws -> (AppDatabase, JournalEventRecord) {
        let db = try await databaseWithUsers()
        var alice = try await #require(try db.accounts.user(named: "alice"))
        alice.channels = [NotificationChannel(url: "http://127.0.0.1:\(port)/hook")]
        try await db.accounts.update(alice)
        let draft = JournalEventRecord(userId: alice.id!, watchRuleId: nil, visitId: nil, address: 0x4840D6, time: 1000, kind: .firstSeen,
                                       callsign: "KLM601", typeCode: "B738", latitude: 52.1, longitude: 4.2, altitude: 3000,
                                       distance: 4.25, ruleLabel: "flight KL601")
        let event = try await db.writer.write { d in var e = draft; try e.insert(d); return e }
        return (db, event)
    }

    @Test("A POST with IFTTT value1-3 and the full event; failures are retried with back-off and logged")
    func retries() async throws {
        let server = ScriptedServer(statuses: [500, 503, 200])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, event) = try await Self.setUp(port: port)
        let dispatcher = AlertDispatcher(database: db, retryDelays: [.milliseconds(10), .milliseconds(20), .milliseconds(40)])
        let log = await dispatcher.deliver([event])
        #expect(log.map(\.attempt) == [1, 2, 3])
        #expect(log.map(\.status) == [500, 503, 200])
        #expect(log.map(\.success) == [false, false, true])
        #expect(try await db.deliveryLog.deliveries().count == 3)
        let bodies = server.bodies
        #expect(bodies.count == 3)
        let payload = try JSONDecoder().decode(WebhookPayload.self, from: Data(try #require(bodies.last).utf8))
        #expect(payload.value1 == "KLM601")
        #expect(payload.value2 == "First seen: flight KL601")
        #expect(payload.value3 == "7.9 km 914 m 52.1000,4.2000", "in alice's units (metric)")
        #expect(payload.user == "alice")
        #expect(payload.event == event)
    }

    /// Another journal event like `event`, `seconds` later (a row of its own).
    static func another(_ event: JournalEventRecord, after seconds: Double, kind: JournalKind? = nil, in db: AppDatabase) throws -> JournalEventRecord {
        var e = event
        e.id = nil
        e.time += seconds
        if let kind { e.kind = kind }
        try db.writer.write { d in try e.insert(d) }
        return e
    }

    @Test("Webhook texts in each of the user's languages (English for a code without a catalogue)")
    func languages() throws {
        let event = JournalEventRecord(userId: 1, watchRuleId: nil, visitId: nil, address: 0x4840D6, time: 0, kind: .closestApproach,
                                       callsign: "KLM601", altitude: 3000, distance: 4.25, ruleLabel: "flight KL601")
        #expect(WebhookPayload(event: event, user: "a").value2 == "Closest approach: flight KL601")
        #expect(WebhookPayload(event: event, user: "a", language: "de").value2 == "Größte Annäherung: flight KL601")
        #expect(WebhookPayload(event: event, user: "a", language: "fr").value2 == "Point le plus proche: flight KL601")
        #expect(WebhookPayload(event: event, user: "a", language: "xx").value2 == "Closest approach: flight KL601")
        for kind in JournalKind.allCases {
            var e = event
            e.kind = kind
            #expect(!WebhookPayload(event: e, user: "a", language: "fr").value2.hasPrefix("kind."), "\(kind) has a French text")
        }
    }

    @Test("Webhook texts and figures in each of the user's units")
    func units() throws {
        let event = JournalEventRecord(userId: 1, watchRuleId: nil, visitId: nil, address: 0x4840D6, time: 0, kind: .closestApproach,
                                       altitude: 3000, distance: 4.25)
        #expect(WebhookPayload(event: event, user: "a", units: .aeronautical).value3 == "4.2 NM 3000 ft")
        #expect(WebhookPayload(event: event, user: "a", units: .metric).value3 == "7.9 km 914 m")
        #expect(WebhookPayload(event: event, user: "a", units: .imperial).value3 == "4.9 mi 3000 ft")
        #expect(Units.metric.speed(450) == "833 km/h" && Units.imperial.speed(450) == "518 mph" && Units.aeronautical.speed(450) == "450 kt")
    }

    @Test("One aircraft cannot flood a user: one alert per kind per interval, the rest logged as held back; position updates do not alert")
    func rateLimit() async throws {
        let server = ScriptedServer(statuses: [200])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, event) = try await Self.setUp(port: port)
        let dispatcher = AlertDispatcher(database: db, retryDelays: [], minInterval: 600)
        let later = try Self.another(event, after: 10, in: db)
        let position = try Self.another(event, after: 20, kind: .position, in: db)
        let muchLater = try Self.another(event, after: 700, in: db)
        let first = await dispatcher.deliver([event, later, position])
        #expect(first.map(\.attempt) == [1, 0], "one sent, one held back (logged), the position not an alert")
        #expect(first.last?.journalEventId == later.id && first.last?.error?.hasPrefix("held back") == true)
        #expect(await dispatcher.deliver([muchLater]).map(\.attempt) == [1])
        #expect(server.bodies.count == 2)
    }

    @Test("Restarts within the rate-limit window post nothing twice")
    func rateLimitSurvivesARestart() async throws {
        let server = ScriptedServer(statuses: [200])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, event) = try await Self.setUp(port: port)
        _ = await AlertDispatcher(database: db, retryDelays: [], now: event.time - 5).deliver([event])
        #expect(server.bodies.count == 1)
        // Three restarts in twelve minutes, the aircraft seen anew each time.
        for minutes in [4.0, 8.0, 12.0] {
            let again = try Self.another(event, after: minutes * 60, in: db)
            let restarted = AlertDispatcher(database: db, retryDelays: [], minInterval: 600, now: again.time - 1)
            #expect(await restarted.recover().isEmpty, "nothing of earlier runs left to send")
            _ = await restarted.deliver([again])
        }
        #expect(server.bodies.count == 2, "the first, and the one twelve minutes later (ten after it)")
    }

    @Test("An alert raised as the receiver stopped is delivered after the next start, once; one older than a day is not")
    func alertsOfAStoppedRunAreRecovered() async throws {
        let server = ScriptedServer(statuses: [200])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, event) = try await Self.setUp(port: port)
        // Journalled at shutdown (a closest approach), never handed to a dispatcher.
        let closest = try Self.another(event, after: 30, kind: .closestApproach, in: db)
        let next = AlertDispatcher(database: db, retryDelays: [], now: closest.time + 300)
        let recovered = await next.recover()
        #expect(recovered.map(\.journalEventId) == [event.id, closest.id], "both went out after the start")
        #expect(recovered.allSatisfy { $0.success })
        #expect(server.bodies.count == 2)
        #expect(await next.recover().isEmpty, "once")
        let afterThat = AlertDispatcher(database: db, retryDelays: [], now: closest.time + 600)
        #expect(await afterThat.recover().isEmpty, "delivered ones are not sent again at the next start")
        // A day later an undelivered alert has expired.
        let old = try Self.another(event, after: 1000, kind: .goal, in: db)
        let muchLater = AlertDispatcher(database: db, retryDelays: [], memory: 86_400, now: old.time + 86_401)
        #expect(await muchLater.recover().isEmpty)
        #expect(server.bodies.count == 2)
    }

    @Test("An alert whose every attempt failed is tried again at the next start")
    func failedAlertsAreRetriedAtTheNextStart() async throws {
        let server = ScriptedServer(statuses: [500, 200])
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let (db, event) = try await Self.setUp(port: port)
        #expect(await AlertDispatcher(database: db, retryDelays: []).deliver([event]).map(\.success) == [false])
        let restarted = AlertDispatcher(database: db, retryDelays: [], now: event.time + 60)
        #expect(await restarted.recover().map(\.success) == [true])
        #expect(server.bodies.count == 2)
    }

    @Test("An unreachable webhook is tried every time and each failure logged")
    func unreachable() async throws {
        let server = ScriptedServer(statuses: [200])
        let port = try await server.start()
        await server.stop()   // nothing listens on the port now
        let (db, event) = try await Self.setUp(port: port)
        let dispatcher = AlertDispatcher(database: db, retryDelays: [.milliseconds(5), .milliseconds(5)], timeout: .milliseconds(500))
        let log = await dispatcher.deliver([event])
        #expect(log.count == 3)
        #expect(log.allSatisfy { !$0.success && $0.status == nil && $0.error != nil })
    }
}
