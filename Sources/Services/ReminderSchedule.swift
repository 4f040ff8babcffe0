import Foundation
import Store

/// Which reminders come due, from one evaluation of the predictions to the next. Pure: the
/// caller brings the predictions and the clock.
///
/// - A reminder (place, tracked item or every tracked aircraft, event, lead N minutes) fires
///   for an aircraft when the current prediction puts the event at most N minutes ahead, in
///   two evaluations running (one stray position does not fire it).
/// - At most once per user, aircraft, place, event and lead, for as long as the aircraft stays
///   in view (`forgetAfter` seconds without a prediction of any kind clear it).
/// - A prediction that moves later delays the firing, one that moves earlier brings it
///   forward: only the current prediction counts. One that is withdrawn (the aircraft turns
///   away, stops descending) fires nothing; if it comes back it is armed as before.
public struct ReminderSchedule: Sendable {
    struct Key: Hashable {
        var userId: Int64
        var address: UInt32
        var placeId: Int64
        var event: ReminderRecord.Event
        var lead: Int
    }

    /// Fired reminders and when their aircraft was last predicted.
    private var fired: [Key: Double] = [:]
    /// Reminders due in the previous evaluation (not yet fired).
    private var pending: Set<Key> = []
    private var lastSeen: [UInt32: Double] = [:]
    public let forgetAfter: Double

    public init(forgetAfter: Double = 600) {
        self.forgetAfter = forgetAfter
    }

    /// The (reminder, prediction) pairs that fire now, for one user's `predictions` and
    /// `reminders`.
    public mutating func due(userId: Int64, predictions: [EtaPrediction], reminders: [ReminderRecord], now: Double) -> [(ReminderRecord, EtaPrediction)] {
        var out: [(ReminderRecord, EtaPrediction)] = []
        var dueNow: Set<Key> = []
        for p in predictions {
            lastSeen[p.address] = now
            for r in reminders where r.userId == userId && r.placeId == p.placeId && r.event == p.event {
                if let rule = r.watchRuleId, !p.ruleIds.contains(rule) { continue }
                let key = Key(userId: userId, address: p.address, placeId: p.placeId ?? 0, event: p.event, lead: r.leadMinutes)
                guard fired[key] == nil, !dueNow.contains(key) else { continue }
                let ahead = p.time - now
                guard ahead > 0, ahead <= Double(r.leadMinutes) * 60 else { continue }
                dueNow.insert(key)
                if pending.contains(key) {
                    fired[key] = now
                    out.append((r, p))
                }
            }
        }
        // Pending keys of this user are replaced; other users' stay.
        pending = pending.filter { $0.userId != userId }.union(dueNow.subtracting(fired.keys))
        return out
    }

    /// Forgets aircraft not predicted for `forgetAfter` seconds (they left; a later visit is a
    /// new flight).
    public mutating func expire(now: Double) {
        let gone = Set(lastSeen.filter { now - $0.value > forgetAfter }.keys)
        guard !gone.isEmpty else { return }
        for address in gone { lastSeen[address] = nil }
        fired = fired.filter { !gone.contains($0.key.address) }
        pending = pending.filter { !gone.contains($0.address) }
    }
}
