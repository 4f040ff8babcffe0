import AsyncHTTPClient
import Foundation
import GRDB

/// The JSON body of a webhook: IFTTT Maker-compatible `value1…3` plus the whole event.
public struct WebhookPayload: Codable, Sendable, Equatable {
    /// Callsign, else registration, else hex address.
    public var value1: String
    /// What happened and which rule (`firstSeen: flight BA283`).
    public var value2: String
    /// Where: distance, altitude and position when known.
    public var value3: String
    public var user: String
    public var event: JournalEventRecord

    public init(event: JournalEventRecord, user: String) {
        self.event = event
        self.user = user
        value1 = event.callsign ?? event.registration ?? event.hex
        value2 = "\(event.kind.rawValue): \(event.note ?? event.ruleLabel ?? "")"
        var parts: [String] = []
        if let d = event.distance { parts.append(String(format: "%.1f NM", d)) }
        if let a = event.altitude { parts.append("\(a) ft") }
        if let la = event.latitude, let lo = event.longitude { parts.append(String(format: "%.4f,%.4f", la, lo)) }
        value3 = parts.joined(separator: " ")
    }
}

/// Delivers journal events to the users' webhooks: an HTTP POST of `WebhookPayload` JSON,
/// retried with back-off on failure (no response or a status outside 200…299), every attempt
/// written to `alertDelivery`. A rate limit keeps one aircraft from flooding a user: at most
/// one alert per user, aircraft and event kind every `minInterval` seconds (event time);
/// reminders are limited where they are made (`ReminderService`).
public actor AlertDispatcher {
    /// Where users are read and deliveries logged: SQLite or PostgreSQL.
    public let store: any SightingStore
    let client: HTTPClient
    /// Waits before the 2nd, 3rd… attempt (so `retryDelays.count + 1` attempts at most).
    public let retryDelays: [Duration]
    public let minInterval: Double
    /// Event kinds that alert (position updates are journal-only by default).
    public let kinds: Set<JournalKind>
    public let timeout: Duration
    private var lastAlert: [String: Double] = [:]
    private var userCache: [Int64: UserRecord] = [:]

    public init(database: any SightingStore, client: HTTPClient = .shared,
                retryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(60)], minInterval: Double = 600,
                kinds: Set<JournalKind> = [.firstSeen, .closestApproach, .reminder, .goal], timeout: Duration = .seconds(10)) {
        self.store = database
        self.client = client
        self.retryDelays = retryDelays
        self.minInterval = minInterval
        self.kinds = kinds
        self.timeout = timeout
    }

    /// Delivers `events` (those of alerting kinds, within the rate limit) to every webhook
    /// of their users; returns the delivery log rows written.
    @discardableResult
    public func deliver(_ events: [JournalEventRecord]) async -> [AlertDeliveryRecord] {
        var log: [AlertDeliveryRecord] = []
        for event in events where kinds.contains(event.kind) {
            if event.kind.isRateLimited {
                let limitKey = "\(event.userId)/\(event.address)/\(event.kind.rawValue)"
                if let last = lastAlert[limitKey], event.time - last < minInterval { continue }
                lastAlert[limitKey] = event.time
            }
            guard let user = user(event.userId) else { continue }
            for channel in user.channels where channel.kind == .webhook {
                log += await post(WebhookPayload(event: event, user: user.username), to: channel.url, userId: event.userId, eventId: event.id)
            }
        }
        return log
    }

    private func user(_ id: Int64) -> UserRecord? {
        if let cached = userCache[id] { return cached }
        let user = try? store.user(id: id)
        userCache[id] = user
        return user
    }

    /// Forgets cached user settings (after a change of channels).
    public func reloadUsers() { userCache = [:] }

    /// POSTs one payload with retries; returns the attempts logged.
    func post(_ payload: WebhookPayload, to url: String, userId: Int64, eventId: Int64?) async -> [AlertDeliveryRecord] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let body = try? encoder.encode(payload) else { return [] }
        var attempts: [AlertDeliveryRecord] = []
        for attempt in 1...(retryDelays.count + 1) {
            if attempt > 1 { try? await Task.sleep(for: retryDelays[attempt - 2]) }
            var status: Int?
            var failure: String?
            do {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "User-Agent", value: "flytracker")
                request.body = .bytes([UInt8](body))
                let milliseconds = max(1, Int64(timeout / .milliseconds(1)))
                let response = try await client.execute(request, timeout: .milliseconds(milliseconds))
                status = Int(response.status.code)
                _ = try? await response.body.collect(upTo: 64 * 1024)
                if !(200...299).contains(status!) { failure = "HTTP \(status!)" }
            } catch {
                failure = "\(error)"
            }
            let attempt = AlertDeliveryRecord(userId: userId, journalEventId: eventId, url: url,
                                              time: Date().timeIntervalSince1970, attempt: attempt, status: status,
                                              success: failure == nil, error: failure)
            let record = (try? store.recordDelivery(attempt)) ?? attempt
            attempts.append(record)
            if failure == nil { break }
        }
        return attempts
    }
}

extension AppDatabase {
    /// The delivery log, newest first.
    public func deliveries(limit: Int = 100) throws -> [AlertDeliveryRecord] {
        try writer.read { db in try AlertDeliveryRecord.order(Column("id").desc).limit(limit).fetchAll(db) }
    }
}
