import Foundation
import Localization
import ModeS
import Store
import Tracking

/// Reminders in a running receiver: once a second, every user's predictions (`EtaBoard`)
/// against their reminders (`ReminderSchedule`); each reminder that comes due is written to
/// the user's journal (kind `reminder`, its text in `note`) and returned for the alert paths
/// (webhooks; the page shows the journal). Users, places, rules and reminders are re-read
/// every `reloadInterval` seconds, so changes made on the page or with the CLI apply.
public final class ReminderService {
    public let store: any SightingStore
    public let reloadInterval: Double
    private var schedule = ReminderSchedule()
    private var lastReload: Double?
    private var users: [(user: UserRecord, places: [PlaceRecord], reminders: [ReminderRecord], matcher: WatchlistMatcher)] = []
    private let timeZone: TimeZone

    public init(store: any SightingStore, reloadInterval: Double = 30, timeZone: TimeZone = .current) {
        self.store = store
        self.reloadInterval = reloadInterval
        self.timeZone = timeZone
    }

    /// Re-reads who has reminders, and their places and rules.
    public func reload() async throws {
        let reminders = Dictionary(grouping: try await store.places.allReminders(), by: \.userId)
        let airlines = try await store.watchlists.airlineCodes()
        var loaded: [(UserRecord, [PlaceRecord], [ReminderRecord], WatchlistMatcher)] = []
        let rules = Dictionary(grouping: try await store.watchRules(), by: \.userId)
        for (userId, list) in reminders.sorted(by: { $0.key < $1.key }) {
            guard let user = try await store.accounts.user(id: userId) else { continue }
            await loaded.append((user, try store.places.places(userId: userId), list, WatchlistMatcher(rules: rules[userId] ?? [], airlines: airlines)))
        }
        users = loaded
    }

    /// Evaluates the reminders against `snapshot` (the receiver's position: `receiver`, else
    /// the table's); returns the journal events written.
    public func evaluate(_ snapshot: TableSnapshot, receiver: Coordinate?) async throws -> [JournalEventRecord] {
        let now = snapshot.time
        if lastReload == nil || now - lastReload! >= reloadInterval || now < lastReload! {
            lastReload = now
            if store.isAvailable { try await reload() }
        }
        schedule.expire(now: now)
        guard !users.isEmpty else { return [] }
        var batch = SightingBatch()
        let home = snapshot.receiverPosition(configured: receiver)
        let inputs = EtaBoard.inputs(snapshot.aircraft)
        for entry in users {
            guard let userId = entry.user.id else { continue }
            var places = entry.places
            if let home { places.append(EtaBoard.receiverPlace(home, userId: userId)) }
            let predictions = EtaBoard.predictions(inputs, places: places, matcher: entry.matcher, now: now, landings: snapshot.landings)
            for (reminder, p) in schedule.due(userId: userId, predictions: predictions, reminders: entry.reminders, now: now) {
                let event = JournalEventRecord(
                    userId: userId, watchRuleId: reminder.watchRuleId ?? p.ruleIds.first(where: WatchRule.isWatchlistRow), visitId: nil, address: Int(p.address), time: now,
                    kind: .reminder, callsign: p.callsign, registration: p.registration, typeCode: p.typeCode,
                    latitude: p.point.latitude, longitude: p.point.longitude, distance: p.distance,
                    ruleLabel: MessageCatalogues.shipped.text(p.event == .arrival ? "reminder.ruleArrival" : "reminder.ruleClosest",
                                                              language: entry.user.language, ["minutes": "\(reminder.leadMinutes)"]),
                    note: EtaBoard.note(p, now: now, format: entry.user.timeFormat, timeZone: timeZone, units: entry.user.units,
                                        language: entry.user.language))
                batch.events.append((VisitKey(address: Int(p.address), firstSeen: -1), event))
            }
        }
        guard !batch.events.isEmpty else { return [] }
        let written = try await store.write(batch).events
        return written
    }
}
