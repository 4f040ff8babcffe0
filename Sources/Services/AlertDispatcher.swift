import AsyncHTTPClient
import Foundation
import Localization
import Store

/// The JSON body of a webhook: IFTTT Maker-compatible `value1…3` plus the whole event.
public struct WebhookPayload: Codable, Sendable, Equatable {
    /// Callsign, else registration, else hex address.
    public var value1: String
    /// What happened and which rule, in the user's language (`First seen: flight BA283`).
    public var value2: String
    /// Where: distance and altitude in the user's units, and position, when known.
    public var value3: String
    public var user: String
    public var event: JournalEventRecord

    public init(event: JournalEventRecord, user: String, units: Units = .aeronautical, language: String = MessageCatalogues.english) {
        self.event = event
        self.user = user
        value1 = event.callsign ?? event.registration ?? event.hex
        value2 = event.what(language: language)
        value3 = event.place(units: units)
    }
}

/// An event as a person reads it: the webhook's texts, and the journal's in the API.
extension JournalEventRecord {
    /// What happened and which rule, in `language`: `First seen: flight BA283`.
    public func what(language: String) -> String {
        "\(MessageCatalogues.shipped.text("kind.\(kind.rawValue)", language: language)): \(note ?? ruleLabel ?? "")"
    }

    /// Where: distance and altitude in `units`, and the position, as far as known
    /// (`7.9 km 914 m 52.1000,4.2000`).
    public func place(units: Units) -> String {
        var parts: [String] = []
        if let distance { parts.append(units.distance(distance)) }
        if let altitude { parts.append(units.altitude(altitude)) }
        if let latitude, let longitude { parts.append(String(format: "%.4f,%.4f", latitude, longitude)) }
        return parts.joined(separator: " ")
    }
}

/// Delivers journal events to the users' webhooks: an HTTP POST of `WebhookPayload` JSON,
/// retried with back-off on failure (no response or a status outside 200…299), every attempt
/// written to `alertDelivery`. A rate limit keeps one aircraft from flooding a user: at most
/// one alert per user, aircraft and event kind every `minInterval` seconds (event time); an
/// alert held back is written to the log too (attempt 0). Reminders are limited where they
/// are made (`ReminderService`).
///
/// The delivery log is the dispatcher's memory across restarts. Made with `now` (a run's
/// start), it reads the journal and the log of the last `memory` seconds: the rate limit goes
/// on from the alerts sent before the restart, and `recover()` delivers what an earlier run
/// raised but never tried (the closest approach of aircraft lost as it stopped, alerts whose
/// delivery was cut off by the exit) or tried without success, once; an alert older than
/// `memory` (a day by default) is not sent any more.
public actor AlertDispatcher {
    /// Where users are read and deliveries logged: SQLite or PostgreSQL.
    public let store: any SightingStore
    let client: HTTPClient
    /// Waits before the 2nd, 3rd… attempt (so `retryDelays.count + 1` attempts at most).
    public let retryDelays: [Duration]
    public let minInterval: Double
    /// Event kinds that alert (position updates are journal-only by default).
    public let kinds: Set<JournalKind>
    /// The kinds that alert unless told otherwise.
    public static let defaultKinds: Set<JournalKind> = [.firstSeen, .closestApproach, .reminder, .goal]
    public let timeout: Duration
    /// Seconds after which an alert not yet delivered is given up (at a restart).
    public let memory: Double
    /// Per user, aircraft and kind: the last alert sent (event time and journal id).
    private var lastAlert: [String: (time: Double, event: Int64?)] = [:]
    private var userCache: [Int64: UserRecord] = [:]
    /// Events of earlier runs to deliver (`recover()`).
    private var pending: [JournalEventRecord] = []
    /// The start of the run whose earlier log `loadLog()` reads (nil: none).
    private let startedAt: Double?
    private var logLoaded = false

    /// `now`: the start of a run (Unix s); the log of the `memory` seconds before it is read
    /// before the first delivery (rate limit, alerts to recover). Nil reads nothing.
    public init(database: any SightingStore, client: HTTPClient = .shared,
                retryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(60)], minInterval: Double = 600,
                kinds: Set<JournalKind> = AlertDispatcher.defaultKinds, timeout: Duration = .seconds(10),
                memory: Double = 86_400, now: Double? = nil) {
        self.store = database
        self.client = client
        self.retryDelays = retryDelays
        self.minInterval = minInterval
        self.kinds = kinds
        self.timeout = timeout
        self.memory = memory
        startedAt = now
    }

    /// Reads the delivery log of the `memory` seconds before the start of the run, once,
    /// before the first delivery: the rate limit goes on across a restart, and alerts never
    /// delivered are queued for `recover()`.
    private func loadLog() async {
        guard !logLoaded else { return }
        logLoaded = true
        guard let now = startedAt, let log = try? await store.deliveryLog.summaries(since: now - max(memory, minInterval)) else { return }
        for entry in log where kinds.contains(entry.event.kind) {
            let e = entry.event
            if entry.attempted > 0, e.kind.isRateLimited {
                let key = Self.limitKey(e)
                if e.time >= lastAlert[key]?.time ?? -.infinity { lastAlert[key] = (e.time, e.id) }
            }
            // Never tried, or tried without success; not an alert that was held back.
            let heldBack = entry.logged > 0 && entry.attempted == 0
            if entry.succeeded == 0, !heldBack, e.time < now, now - e.time <= memory { pending.append(e) }
        }
    }

    static func limitKey(_ e: JournalEventRecord) -> String { "\(e.userId)/\(e.address)/\(e.kind.rawValue)" }

    /// Delivers the alerts of earlier runs found at start (once; later calls deliver nothing).
    @discardableResult
    public func recover() async -> [AlertDeliveryRecord] {
        await loadLog()
        let events = pending
        pending = []
        return await deliver(events)
    }

    /// Delivers `events` (those of alerting kinds, within the rate limit) to every webhook
    /// of their users; returns the delivery log rows written. A cancelled task stops before
    /// the next event and the next retry: what was not delivered, the next start recovers.
    @discardableResult
    public func deliver(_ events: [JournalEventRecord]) async -> [AlertDeliveryRecord] {
        await loadLog()
        var log: [AlertDeliveryRecord] = []
        for event in events where kinds.contains(event.kind) {
            if Task.isCancelled { break }
            guard let user = await user(event.userId) else { continue }
            let webhooks = user.channels.filter { $0.kind == .webhook }
            if event.kind.isRateLimited {
                let key = Self.limitKey(event)
                if let last = lastAlert[key], last.event == nil || last.event != event.id, abs(event.time - last.time) < minInterval {
                    if let url = webhooks.first?.url {
                        let note = AlertDeliveryRecord(userId: event.userId, journalEventId: event.id, url: url,
                                                       time: Date().timeIntervalSince1970, attempt: 0, status: nil, success: false,
                                                       error: "held back: an alert for this aircraft went out less than \(Int(minInterval / 60)) min before")
                        log.append((try? await store.deliveryLog.record(note)) ?? note)
                    }
                    continue
                }
                lastAlert[key] = (event.time, event.id)
            }
            for channel in user.channels where channel.kind == .webhook {
                log += await post(WebhookPayload(event: event, user: user.username, units: user.units, language: user.language), to: channel.url, userId: event.userId, eventId: event.id)
            }
        }
        return log
    }

    private func user(_ id: Int64) async -> UserRecord? {
        if let cached = userCache[id] { return cached }
        let user = try? await store.accounts.user(id: id)
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
            if attempt > 1 {
                do { try await Task.sleep(for: retryDelays[attempt - 2]) } catch { break }   // cancelled: no more tries now
            }
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
            let record = (try? await store.deliveryLog.record(attempt)) ?? attempt
            attempts.append(record)
            if failure == nil { break }
        }
        return attempts
    }
}
