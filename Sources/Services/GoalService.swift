import Foundation
import Localization
import Store

/// Goals in a running receiver: each visit the recorder closes is applied once to every
/// active goal (`Goal.apply`: a set insert, no rescan of the log); progress is saved, and a
/// goal that a visit completes is written to the owner's journal (for a group goal, every
/// member's) as kind `goal`, returned for the alert paths.
public final class GoalService {
    public let store: any SightingStore
    public let reloadInterval: Double
    private var goals: [Goal] = []
    private var lastReload: Double?

    public init(store: any SightingStore, reloadInterval: Double = 30) {
        self.store = store
        self.reloadInterval = reloadInterval
    }

    /// Applies visits that closed at `now`; returns the journal events of completed goals.
    public func apply(_ closed: [VisitRecord], now: Double) async throws -> [JournalEventRecord] {
        if lastReload == nil || now - lastReload! >= reloadInterval || now < lastReload! {
            lastReload = now
            if store.isAvailable { goals = try await store.goals.activeGoals(now: now) }
        }
        guard !closed.isEmpty, !goals.isEmpty else { return [] }
        var changed: Set<Int> = []
        var batch = SightingBatch()
        for v in closed {
            for i in goals.indices where !goals[i].isComplete {
                let before = goals[i].progress
                let completed = goals[i].apply(v)
                if goals[i].progress != before { changed.insert(i) }
                guard completed else { continue }
                let owners = if let userId = goals[i].userId { [userId] } else {
                    try await store.groups.members(groupId: goals[i].groupId!).filter { $0.role != .invited }.map(\.userId)
                }
                let who = v.callsign ?? v.registration ?? Observation.hex(UInt32(truncatingIfNeeded: v.address))
                for userId in owners {
                    let language = try await store.accounts.user(id: userId)?.language ?? MessageCatalogues.english
                    let note = MessageCatalogues.shipped.text(v.typeCode == nil ? "goal.reached" : "goal.reachedWithType", language: language,
                                                              ["goal": goals[i].name, "who": who, "type": v.typeCode ?? ""])
                    let event = JournalEventRecord(userId: userId, watchRuleId: nil, visitId: v.id, address: v.address, time: v.lastSeen, kind: .goal,
                                                   callsign: v.callsign, registration: v.registration, typeCode: v.typeCode,
                                                   latitude: v.lastLatitude, longitude: v.lastLongitude, distance: v.closestDistance,
                                                   ruleLabel: goals[i].name, note: note)
                    batch.events.append((VisitKey(v), event))
                }
            }
        }
        if !changed.isEmpty { try await store.goals.saveProgress(changed.sorted().map { goals[$0] }) }
        goals.removeAll { $0.isComplete }
        guard !batch.events.isEmpty else { return [] }
        return try await store.write(batch).events
    }
}
