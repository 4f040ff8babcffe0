import ModeS
import Store
import Tracking

/// How the recorder builds visits, track points and journal events.
public struct RecorderSettings: Sendable {
    /// Seconds of silence after which a visit is closed (and watchers get `lost`).
    public var closeAfter: Double = 120
    /// A track point at least this often (s) while positions arrive…
    public var pointInterval: Double = 10
    /// …and sooner (at least 1 s apart) when the track turns this much (degrees)…
    public var turnThreshold: Double = 10
    /// …or the altitude changes this much (ft).
    public var altitudeThreshold: Int = 500
    /// Position events to watchers at most this often per aircraft and rule (s).
    public var positionEventInterval: Double = 60
    /// The closest approach is reported once the aircraft is this much farther (NM) than
    /// its closest point (or when it is lost).
    public var movingAwayMargin: Double = 1
    /// Watchlists are re-read this often (s of snapshot time) so `track add` takes effect
    /// in a running receiver; nil = only on `reloadRules()`.
    public var rulesReloadInterval: Double? = 60
    /// Retention applied this often (s of snapshot time, in its own transaction); nil = never.
    public var retention: RetentionPolicy? = RetentionPolicy()
    public var retentionInterval: Double = 3600
    /// Seconds between writes of a visit's receiver rows while nothing but their counts and
    /// last-seen times change (new receivers, better levels and the close are written at once).
    public var receiverInterval: Double = 30

    public init() {}
}

/// Turns table snapshots (about one a second) into the sighting log (`visit`, `trackPoint`)
/// and the watchers' journals (`journalEvent`), writing each call's changes in ONE
/// transaction. Owned by one task (not thread-safe); the database itself may be read
/// concurrently.
public final class SightingRecorder {
    /// Where the log goes: SQLite (`AppDatabase`) or PostgreSQL (`PostgresStore`).
    public let store: any SightingStore
    public var settings: RecorderSettings
    public private(set) var matcher: WatchlistMatcher

    struct Watch {
        var rule: WatchRule
        var lastPositionEvent: Double
        var closestReported = false
    }

    struct OpenVisit {
        var record: VisitRecord
        var messageBase: Int
        var lastPositionTime: Double?
        var lastPoint: (time: Double, altitude: Int?, track: Double?)?
        var closestPosition: Coordinate?
        var closestAltitude: Int?
        var watches: [Int64: Watch] = [:]
        var dirty = true
        /// Network receivers that heard it (visitId 0 until the visit has an id), and the
        /// ones changed since the last write.
        var receivers: [ReceiverID: VisitReceiverRecord] = [:]
        var dirtyReceivers: Set<ReceiverID> = []
        /// The receiver rows as last written (changes are written when a receiver is new,
        /// its best level improves, `receiverInterval` has passed, or the visit closes).
        var writtenReceivers: [ReceiverID: VisitReceiverRecord] = [:]
    }

    private var open: [UInt32: OpenVisit] = [:]
    /// The table's message count when a key's last visit closed (to count only new ones).
    private var closedCounts: [UInt32: Int] = [:]
    private var lastRulesLoad: Double?
    private var lastPrune: Double?

    public init(store: any SightingStore, settings: RecorderSettings = RecorderSettings()) async throws {
        self.store = store
        self.settings = settings
        matcher = try await WatchlistMatcher(rules: store.watchRules(), airlines: store.watchlists.airlineCodes())
    }

    public convenience init(database: AppDatabase, settings: RecorderSettings = RecorderSettings()) async throws {
        try await self.init(store: database, settings: settings)
    }

    /// Re-reads the watchlists (after `track add/remove`).
    public func reloadRules() async throws {
        matcher = try await WatchlistMatcher(rules: store.watchRules(), airlines: store.watchlists.airlineCodes())
    }

    /// Rows handed to the store so far (visits inserted or updated, track points, journal
    /// events, visit receivers).
    public private(set) var rowsWritten = 0

    /// Why the last rule reload or retention pass failed (nil when it worked).
    public private(set) var maintenanceError: (any Error)?

    /// Visits currently open.
    public var openVisits: Int { open.count }

    /// The visits the last `record` or `finish` closed, as written (with their ids when the
    /// store gave them): what goals count (`GoalService`).
    public private(set) var lastClosed: [VisitRecord] = []

    /// Records a snapshot; returns the journal events written (with ids).
    @discardableResult
    public func record(_ snapshot: TableSnapshot) async throws -> [JournalEventRecord] {
        try await record(snapshot.aircraft.map(Observation.init), at: snapshot.time)
    }

    /// Records observations made at `time`; returns the journal events written.
    @discardableResult
    public func record(_ observations: [Observation], at time: Double) async throws -> [JournalEventRecord] {
        // A failed rule reload or retention pass must not stop the log: the old rules stay.
        do { try await maintain(at: time); maintenanceError = nil } catch { maintenanceError = error }
        var points: [(UInt32, TrackPointRecord)] = []
        var events: [(UInt32, JournalEventRecord)] = []
        for o in observations where time - o.lastSeen <= settings.closeAfter {
            update(o, at: time, points: &points, events: &events)
        }
        var closing: [UInt32] = []
        for (key, visit) in open where time - visit.record.lastSeen > settings.closeAfter {
            closing.append(key)
            close(key, visit, at: time, events: &events)
        }
        return try await write(points: points, events: events, closing: closing)
    }

    /// Closes the visits a killed process left open (last seen before `time`, the start of
    /// this run): each closed at its last sighting and counted once. Call once, before the
    /// first `record`; the aircraft heard again then starts a new visit, exactly as after a
    /// clean stop. The closed visits are `lastClosed` (for goals) and returned.
    @discardableResult
    public func closeInterruptedVisits(before time: Double) async throws -> [VisitRecord] {
        let closed = try await store.sightings.closeInterruptedVisits(lastSeenBefore: time)
        lastClosed = closed
        rowsWritten += closed.count
        return closed
    }

    /// Closes every open visit (at the end of a run) and writes them.
    @discardableResult
    public func finish(at time: Double) async throws -> [JournalEventRecord] {
        var events: [(UInt32, JournalEventRecord)] = []
        let keys = Array(open.keys)
        for key in keys { close(key, open[key]!, at: time, events: &events) }
        return try await write(points: [], events: events, closing: keys)
    }

    /// Re-reads the rules and applies retention when their intervals have passed (not while
    /// the store is away: the old rules stay in force, retention waits).
    private func maintain(at time: Double) async throws {
        guard store.isAvailable else { return }
        if let interval = settings.rulesReloadInterval {
            if let last = lastRulesLoad {
                if time - last >= interval || time < last {
                    try await reloadRules()
                    lastRulesLoad = time
                }
            } else {
                lastRulesLoad = time   // the initializer has just loaded them
            }
        }
        if let policy = settings.retention {
            if lastPrune == nil || time - lastPrune! >= settings.retentionInterval || time < lastPrune! {
                lastPrune = time
                _ = try await store.sightings.prune(policy, now: time)
            }
        }
    }

    // MARK: Updating

    private func update(_ o: Observation, at time: Double, points: inout [(UInt32, TrackPointRecord)],
                        events: inout [(UInt32, JournalEventRecord)]) {
        var v: OpenVisit
        if let existing = open[o.key] {
            v = existing
            // Still open in memory although marked closed: the transaction that closed it
            // failed, so the row is open in the database; keep it open (a closed row never
            // changes, see `StatisticsSchema`).
            v.record.closed = false
        } else {
            let previous = closedCounts[o.key] ?? 0
            let base = previous <= o.messages ? previous : 0
            v = OpenVisit(record: VisitRecord(address: Int(o.key), firstSeen: o.lastSeen, lastSeen: o.lastSeen), messageBase: base)
        }
        var r = v.record
        let before = r
        r.lastSeen = max(r.lastSeen, o.lastSeen)
        if let c = o.callsign, !c.isEmpty {
            if r.callsign == nil { r.callsign = c }
            let all = r.callsigns?.split(separator: " ").map(String.init) ?? []
            if !all.contains(c) { r.callsigns = (all + [c]).joined(separator: " ") }
        }
        r.registration = o.registration ?? r.registration
        r.typeCode = o.typeCode ?? r.typeCode
        r.operatorName = o.operatorName ?? r.operatorName
        r.category = o.category ?? r.category
        r.military = r.military || o.military
        r.squawk = o.squawk ?? r.squawk
        if let alt = o.altitude {
            r.minAltitude = min(r.minAltitude ?? alt, alt)
            r.maxAltitude = max(r.maxAltitude ?? alt, alt)
        }
        r.messages = max(r.messages, o.messages - v.messageBase)
        let newPosition = o.position != nil && (v.lastPositionTime.map { (o.positionTime ?? time) > $0 } ?? true)
        if newPosition, let p = o.position {
            let pt = o.positionTime ?? time
            v.lastPositionTime = pt
            r.positions += 1
            r.lastLatitude = p.latitude
            r.lastLongitude = p.longitude
            r.lastTrack = o.track ?? r.lastTrack
            if let d = o.distance, d > (r.farthestDistance ?? -1) { r.farthestDistance = d }
            if let d = o.distance, d < (r.closestDistance ?? .infinity) {
                r.closestDistance = d
                r.closestTime = pt
                v.closestPosition = p
                v.closestAltitude = o.altitude
                for id in v.watches.keys { v.watches[id]?.closestReported = false }
            }
            if wantsPoint(v.lastPoint, time: pt, altitude: o.altitude, track: o.track) {
                v.lastPoint = (pt, o.altitude, o.track)
                points.append((o.key, TrackPointRecord(visitId: 0, time: pt, latitude: p.latitude, longitude: p.longitude,
                                                       altitude: o.altitude, track: o.track, groundSpeed: o.groundSpeed)))
            }
        }
        if r != before { v.dirty = true }
        v.record = r
        for (id, h) in o.receivers {
            let old = v.receivers[id]
            let row = VisitReceiverRecord(visitId: 0, receiver: id.rawValue, firstSeen: old?.firstSeen ?? h.lastSeen,
                                          lastSeen: max(old?.lastSeen ?? h.lastSeen, h.lastSeen),
                                          messages: max(old?.messages ?? 0, h.messages),
                                          bestSignal: [old?.bestSignal, h.signal].compactMap { $0 }.max())
            guard row != old else { continue }
            v.receivers[id] = row
            let written = v.writtenReceivers[id]
            if written == nil || row.bestSignal != written?.bestSignal || row.lastSeen - written!.lastSeen >= settings.receiverInterval {
                v.dirtyReceivers.insert(id)
            }
        }

        // Watchers: new matches get firstSeen; known ones position updates and the closest approach.
        if matcher.ruleCount > 0 {
            for rule in matcher.matches(o) where v.watches[rule.id ?? -1] == nil {
                guard let id = rule.id else { continue }
                v.watches[id] = Watch(rule: rule, lastPositionEvent: newPosition ? time : -.infinity)
                events.append((o.key, event(.firstSeen, rule, v, o, time: time)))
            }
        }
        for (id, watch) in v.watches {
            if newPosition, time - watch.lastPositionEvent >= settings.positionEventInterval {
                v.watches[id]?.lastPositionEvent = time
                events.append((o.key, event(.position, watch.rule, v, o, time: time)))
            }
            if !watch.closestReported, let closest = r.closestDistance, let d = o.distance, d > closest + settings.movingAwayMargin {
                v.watches[id]?.closestReported = true
                events.append((o.key, closestEvent(watch.rule, v)))
            }
        }
        open[o.key] = v
    }

    private func wantsPoint(_ last: (time: Double, altitude: Int?, track: Double?)?, time: Double, altitude: Int?, track: Double?) -> Bool {
        guard let last else { return true }
        let dt = time - last.time
        if dt >= settings.pointInterval { return true }
        guard dt >= 1 else { return false }
        if let a = altitude, let b = last.altitude, abs(a - b) >= settings.altitudeThreshold { return true }
        if let a = track, let b = last.track {
            let turn = abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180)
            if turn >= settings.turnThreshold { return true }
        }
        return false
    }

    private func close(_ key: UInt32, _ visit: OpenVisit, at time: Double, events: inout [(UInt32, JournalEventRecord)]) {
        var v = visit
        v.record.closed = true
        v.dirty = true
        for (id, row) in v.receivers where v.writtenReceivers[id] != row { v.dirtyReceivers.insert(id) }
        for (_, watch) in v.watches.sorted(by: { $0.key < $1.key }) {
            if !watch.closestReported, v.record.closestDistance != nil { events.append((key, closestEvent(watch.rule, v))) }
            var lost = event(.lost, watch.rule, v, nil, time: v.record.lastSeen)
            lost.latitude = v.record.lastLatitude
            lost.longitude = v.record.lastLongitude
            events.append((key, lost))
        }
        open[key] = v
        closedCounts[key] = v.record.messages + v.messageBase
    }

    private func event(_ kind: JournalKind, _ rule: WatchRule, _ v: OpenVisit, _ o: Observation?, time: Double) -> JournalEventRecord {
        JournalEventRecord(userId: rule.userId, watchRuleId: rule.id.flatMap { WatchRule.isWatchlistRow($0) ? $0 : nil }, visitId: nil, address: v.record.address, time: time,
                           kind: kind, callsign: o?.callsign ?? v.record.callsign, registration: v.record.registration,
                           typeCode: v.record.typeCode, latitude: o?.position?.latitude, longitude: o?.position?.longitude,
                           altitude: o?.altitude, distance: o?.distance,
                           ruleLabel: rule.label ?? "\(rule.kind.rawValue) \(rule.value)")
    }

    private func closestEvent(_ rule: WatchRule, _ v: OpenVisit) -> JournalEventRecord {
        var e = event(.closestApproach, rule, v, nil, time: v.record.closestTime ?? v.record.lastSeen)
        e.latitude = v.closestPosition?.latitude
        e.longitude = v.closestPosition?.longitude
        e.altitude = v.closestAltitude
        e.distance = v.record.closestDistance
        return e
    }

    // MARK: Writing

    /// One batch (one transaction): dirty visits (inserted or updated), then points, events
    /// and receivers by their visit's key. In-memory state changes only after the store took it.
    private func write(points: [(UInt32, TrackPointRecord)], events: [(UInt32, JournalEventRecord)],
                       closing: [UInt32]) async throws -> [JournalEventRecord] {
        lastClosed = []
        var batch = SightingBatch()
        var written: [UInt32] = []
        for (key, v) in open where v.dirty {
            batch.visits.append(v.record)
            written.append(key)
        }
        func visitKey(_ key: UInt32) -> VisitKey? {
            guard let v = open[key] else { return nil }
            return VisitKey(v.record)
        }
        batch.points = points.compactMap { key, p in visitKey(key).map { ($0, p) } }
        batch.events = events.compactMap { key, e in visitKey(key).map { ($0, e) } }
        var heard: [UInt32] = []
        for (key, v) in open where !v.dirtyReceivers.isEmpty {
            guard let k = visitKey(key) else { continue }
            batch.receivers += v.dirtyReceivers.compactMap { v.receivers[$0].map { (k, $0) } }
            heard.append(key)
        }
        guard !batch.isEmpty else { return [] }
        let result = try await store.write(batch)
        rowsWritten += batch.rowCount
        for key in written {
            guard let v = open[key] else { continue }
            if let id = result.visitIDs[VisitKey(v.record)] { open[key]?.record.id = id }
            open[key]?.dirty = false
        }
        for key in heard {
            guard let v = open[key] else { continue }
            for id in v.dirtyReceivers { open[key]?.writtenReceivers[id] = v.receivers[id] }
            open[key]?.dirtyReceivers.removeAll()
        }
        lastClosed = closing.compactMap { open[$0]?.record }
        for key in closing { open[key] = nil }
        return result.events
    }
}
