import ModeS
import Tracking

/// Keeps the counts behind stats.json in one-minute buckets, as dump1090-fa and readsb do:
/// `latest` (since the end of the last complete minute), `last1min`, `last5min`,
/// `last15min` (the last 1, 5 and 15 complete minutes; fewer at start-up) and `total`.
///
/// Feed it regularly (each second is fine) with what happened since the previous call
/// (`local`, `remote`, `cpu`) and the table's cumulative counters. Times are Unix seconds.
public struct StatsHistory: Sendable {
    /// Length of a bucket, s.
    public static let bucket = 60.0

    public private(set) var total: StatsPeriod
    public private(set) var current: StatsPeriod
    /// Completed minutes, oldest first (at most 15).
    public private(set) var completed: [StatsPeriod] = []
    private var lastTable = TableCounters()
    /// Whether this receiver has a radio of its own: without one (`--net-only`) the `local`
    /// block is left out, as readsb and dump1090-fa leave it out.
    public var hasLocalReceiver: Bool

    public init(start: Double, hasLocalReceiver: Bool = true) {
        self.hasLocalReceiver = hasLocalReceiver
        total = StatsPeriod(start: start, end: start)
        current = StatsPeriod(start: start, end: start)
    }

    /// Gain (dB) the radio runs at now, for the top-level `gain_db` (readsb); nil: unknown.
    public var gainDB: Double?

    /// Records counts at `time`: `local`, `remote` and `cpu` since the previous call, `table`
    /// cumulative (the table's own counters); `maxDistance`: the farthest position seen
    /// since the previous call, metres.
    public mutating func record(local: ReceptionStatistics = ReceptionStatistics(), remote: RemoteStatistics = RemoteStatistics(),
                                cpu: CPUStatistics = CPUStatistics(), table: TableCounters, maxDistance: Double = 0,
                                at time: Double) {
        advance(to: time)
        var delta = StatsPeriod(start: time, end: time)
        delta.local = local
        delta.remote = remote
        delta.cpu = cpu
        delta.maxDistance = maxDistance
        if let g = local.gainDB { gainDB = g }
        delta.table = table.subtracting(lastTable)
        lastTable = table
        // Counts go into the open bucket and the total; their spans stay their own.
        let (start, totalStart) = (current.start, total.start)
        current.add(delta)
        total.add(delta)
        current.start = start
        total.start = totalStart
    }

    /// Closes the buckets that ended by `time`.
    public mutating func advance(to time: Double) {
        while time >= current.start + Self.bucket {
            var done = current
            done.end = current.start + Self.bucket
            completed.append(done)
            if completed.count > 15 { completed.removeFirst(completed.count - 15) }
            current = StatsPeriod(start: done.end, end: done.end)
        }
        if time > current.end { current.end = time }
        if time > total.end { total.end = time }
    }

    /// The last `minutes` complete minutes merged (fewer when not available yet; an empty
    /// period at the current bucket's start when none is).
    public func lastMinutes(_ minutes: Int) -> StatsPeriod {
        let chosen = completed.suffix(minutes)
        guard var merged = chosen.first else { return StatsPeriod(start: current.start, end: current.start) }
        for p in chosen.dropFirst() { merged.add(p) }
        return merged
    }

    /// The stats.json document at `now`. `aircraft`: the aircraft shown now with and
    /// without a position (readsb's top-level `aircraft_with_pos`/`aircraft_without_pos`).
    public func document(at now: Double, aircraft: (withPosition: Int, withoutPosition: Int)? = nil) -> String {
        var latest = current
        latest.end = max(latest.end, now)
        var all = total
        all.end = max(all.end, now)
        var w = JSONWriter()
        let local = hasLocalReceiver
        w.add("now", now, decimals: 1)
        if local, let gainDB { w.add("gain_db", gainDB, decimals: 1) }
        if let aircraft {
            w.add("aircraft_with_pos", aircraft.withPosition)
            w.add("aircraft_without_pos", aircraft.withoutPosition)
        }
        w.addRaw("latest", StatsJSON.period(latest, local: local))
        w.addRaw("last1min", StatsJSON.period(lastMinutes(1), local: local))
        w.addRaw("last5min", StatsJSON.period(lastMinutes(5), local: local))
        w.addRaw("last15min", StatsJSON.period(lastMinutes(15), local: local))
        w.addRaw("total", StatsJSON.period(all, local: local))
        return w.finish()
    }
}
