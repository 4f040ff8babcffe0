import Feeds
import Foundation
import ModeS
import PostgresStore
import Store
import Services
import Synchronization
import Threads
import Tracking

/// `flytracker bench --aggregate`: N receivers, each sending `rate` Beast frames a second over
/// loopback TCP, into one aggregator (the real feeds, merger, table and sighting log, on
/// SQLite or PostgreSQL), for `seconds` at each N.
///
/// The sky: 200 aircraft per 10 receivers on a ring, each heard by the receiver nearest it and
/// its two neighbours (overlap 3), so a third of the frames are copies to merge. Every frame
/// is a real squitter (positions along a track, velocity, identification) stamped with its
/// send time (µs) in the Beast timestamp, so the aggregator measures the end-to-end latency
/// (receiver's publish → its network thread → TCP → aggregator's network thread → parity and
/// merge → inbox → table).
///
/// CPU is the aggregator's: its network thread and its table/log thread (thread CPU clocks),
/// per message received. The receivers run in the same process on the same cores, so the
/// figures are for a machine that is also running N receivers' network output: conservative.
/// With PostgreSQL on this machine its server processes' CPU is reported too. Log rows/s:
/// rows of the sighting log written (visits inserted or updated, track points, visit
/// receivers) over the run; backlog: rows still queued for PostgreSQL 2 s after the run
/// ended. Held: ≥ 99 % of the frames received, none lost, p99 latency < 1 s,
/// no backlog.
struct AggregateBenchmark {
    var receiverCounts: [Int]
    var rate: Int
    var seconds: Double
    var database: String?

    struct Outcome {
        var receivers: Int
        var offered = 0
        var received = 0
        var merged = 0
        var overflow = 0
        var aggregatorCPU = 0.0
        var postgresCPU: Double?
        /// The whole process (receivers' network output included).
        var processCPU = 0.0
        var latencies: [Double] = []
        var logRows = 0
        var logSeconds = 0.0
        var backlog = 0
        var elapsed = 0.0
    }

    static let overlap = 3

    func run() async throws {
        print("aggregate: \(rate) messages/s per receiver, \(Int(seconds)) s per point, each transmission heard by \(Self.overlap) receivers; store: \(database.map { PostgresURL.isPostgres($0) ? "PostgreSQL" : "SQLite \($0)" } ?? "SQLite (scratch file)")")
        print("receivers  offered/s  received/s  merged  aggregator CPU  µs/msg  latency p50 / p99 / max ms  log rows/s  backlog  held")
        for n in receiverCounts {
            let o = try await point(receivers: n)
            let sorted = o.latencies.sorted()
            func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
            let held = o.received >= o.offered * 99 / 100 && o.overflow == 0 && pct(0.99) < 1000 && o.backlog == 0
            let cpuPercent = o.aggregatorCPU / o.elapsed * 100
            var line = "\(pad(n, 9))  \(pad(Int(Double(o.offered) / o.elapsed), 9))  \(pad(Int(Double(o.received) / o.elapsed), 10))"
            line += "  \(pad(String(format: "%.0f%%", Double(o.merged) / Double(max(o.received, 1)) * 100), 6))"
            line += "  \(pad(String(format: "%.0f%% of a core", cpuPercent), 14))  \(pad(String(format: "%.1f", o.aggregatorCPU / Double(max(o.received, 1)) * 1e6), 6))"
            line += "  \(pad(String(format: "%.1f / %.1f / %.1f", pct(0.5), pct(0.99), (sorted.last ?? 0) * 1000), 26))"
            line += "  \(pad(Int(Double(o.logRows) / o.elapsed), 10))  \(pad(o.backlog, 7))  \(held ? "yes" : "NO")"
            line += String(format: "  (whole process with the receivers: %.0f%%", o.processCPU / o.elapsed * 100)
            if let pg = o.postgresCPU { line += String(format: "; PostgreSQL server: %.0f%%", pg / o.elapsed * 100) }
            line += ")"

            print(line)
        }
    }

    private func pad(_ v: Any, _ width: Int) -> String {
        let s = "\(v)"
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }

    /// Opens the log's store: PostgreSQL (buffered, as `run` does) or a scratch SQLite file.
    private func openStore() async throws -> (any SightingStore, cleanUp: () async -> Void) {
        if let database, PostgresURL.isPostgres(database) {
            let store = try await PostgresStore.open(try PostgresURL(database), bufferedWrites: true)
            return (store, { store.close() })
        }
        let path = database ?? FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-aggregate-\(UUID().uuidString).sqlite").path
        let store = try AppDatabase.open(path: path)
        return (store, { if database == nil { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } } })
    }

    private func point(receivers n: Int) async throws -> Outcome {
        let (store, cleanUp) = try await openStore()
        let aggregator = FeedHub(options: FeedOptions(bindHost: "127.0.0.1", beastInPorts: [0], heartbeatInterval: nil), inboxLimit: 2_000_000)
        var hubs: [FeedHub] = []
        do {
            try await aggregator.start()
            guard let port = aggregator.boundPorts(.input(.beast)).first else { throw StoreError(description: "no port") }
            for i in 0..<n {
                var o = FeedOptions(bindHost: "127.0.0.1", heartbeatInterval: nil)
                o.connectors = [FeedConnectorSpec(host: "127.0.0.1", port: port, kind: .beastOut)]
                o.announcement = ReceiverAnnouncement(id: ReceiverID(rawValue: "bench-\(i)"), name: "Receiver \(i)",
                                                      position: Self.station(i, of: n))
                let hub = FeedHub(options: o)
                hubs.append(hub)
                try await hub.start()
            }
            let outcome = try await measure(aggregator: aggregator, hubs: hubs, store: store)
            for hub in [aggregator] + hubs { await hub.shutdown() }
            await cleanUp()
            return outcome
        } catch {
            for hub in [aggregator] + hubs { await hub.shutdown() }
            await cleanUp()
            throw error
        }
    }

    /// One point: the sky sent through `hubs` (started, connected to `aggregator`) for `seconds`.
    private func measure(aggregator: FeedHub, hubs: [FeedHub], store: any SightingStore) async throws -> Outcome {
        let n = hubs.count
        let aircraftCount = max(20 * n, 60)
        let logRows = Atomic<Int>(0)
        let deadline = Date().addingTimeInterval(10)
        while hubs.contains(where: { $0.statistics().clients[.beast] != 1 }) && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }

        // Frames: 40 per aircraft, cycled (even/odd positions along a track, velocity, identification).
        let frames: [[Frame]] = (0..<aircraftCount).map { j in
            let address = UInt32(0x700000 + j)
            let bearing = Double(j) / Double(aircraftCount) * 360
            let start = Geodesy.destination(from: Self.centre, bearing: bearing, distance: 60)
            return (0..<40).map { k in
                let p = Geodesy.destination(from: start, bearing: 90, distance: Double(k / 4) * 0.1)
                switch k % 4 {
                case 0: return SyntheticFrames.airbornePosition(address: address, position: p, altitude: 30000 + j * 10, format: .even)
                case 1: return SyntheticFrames.airbornePosition(address: address, position: p, altitude: 30000 + j * 10, format: .odd)
                case 2: return SyntheticFrames.velocity(address: address, groundSpeed: 420, track: 90)
                default: return SyntheticFrames.identification(address: address, callsign: "BN\(j)")
                }
            }
        }
        // The receivers hearing aircraft j: the nearest station and its neighbours.
        let hearers: [[Int]] = (0..<aircraftCount).map { j in
            let home = j * n / aircraftCount
            return Set((-1...1).map { (home + $0 + n) % n }).sorted()
        }

        let stop = Atomic<Bool>(false)
        let started = Date().timeIntervalSince1970
        let outcome = Mutex(Outcome(receivers: n))
        // The aggregator's table and log, on a thread of their own (as a run's receiver).
        let consumerThread = ThreadExecutor(name: "flytracker.bench.aggregator")
        defer { consumerThread.stop() }
        let consumer = Task(executorPreference: consumerThread) { [aggregator] in
            var table = AircraftTable()
            var settings = RecorderSettings()
            settings.retention = nil
            let recorder = try? await SightingRecorder(store: store, settings: settings)
            var latencies: [Double] = []
            latencies.reserveCapacity(Int(Double(n * rate) * seconds))
            var received = 0, merged = 0
            var nextRecord = Date().timeIntervalSince1970 + 1
            let cpuStart = Self.threadCPU()
            var logSeconds = 0.0
            while true {
                let done = stop.load(ordering: .acquiring)
                let batch = aggregator.takeRemoteFrames()
                let now = Date().timeIntervalSince1970
                for r in batch {
                    latencies.append(now - started - Double(r.received.timestamp) * 1e-6)
                    received += 1
                    let message = ModeSMessage(r.parity)
                    if r.merged, let h = r.hearing { table.hear(message, received: r.received, at: r.arrival, via: h); merged += 1 }
                    else { table.apply(message, received: r.received, at: r.arrival, via: r.hearing) }
                }
                if now >= nextRecord || (done && batch.isEmpty) {
                    nextRecord = now + 1
                    let t0 = Date()
                    if let events = try? await recorder?.record(table.snapshot(at: now)) { _ = events }
                    logSeconds += Date().timeIntervalSince(t0)
                }
                if done && batch.isEmpty { break }
                if batch.isEmpty { try? await Task.sleep(for: .milliseconds(5)) }
            }
            let cpu = Self.threadCPU() - cpuStart
            _ = try? await recorder?.finish(at: Date().timeIntervalSince1970)
            logRows.store(recorder?.rowsWritten ?? 0, ordering: .relaxed)
            outcome.withLock {
                $0.latencies = latencies
                $0.received = received
                $0.merged = merged
                $0.aggregatorCPU += cpu
                $0.logSeconds = logSeconds
            }
        }
        let processStart = Self.processCPU()
        let networkCPUStart = await aggregator.networkThreadCPUSeconds()
        let postgresStart = Self.postgresCPU()

        // The sky: transmissions at n × rate / overlap a second, each published by its hearers.
        let perSecond = Double(n * rate) / Double(Self.overlap)
        var sent = 0
        var cursor = [Int](repeating: 0, count: aircraftCount)
        var next = 0
        let clockStart = ContinuousClock.now
        while true {
            let elapsed = ContinuousClock.now - clockStart
            let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if t >= seconds { break }
            let due = Int(t * perSecond)
            while sent < due {
                let j = next % aircraftCount
                next += 7
                let frame = frames[j][cursor[j] % 40]
                cursor[j] += 1
                let stamp = UInt64(max(0, (Date().timeIntervalSince1970 - started) * 1e6))
                for i in hearers[j] {
                    hubs[i].publish(ReceivedFrame(frame: frame, timestamp: stamp, signal: -20 - Double(i % 7)))
                    outcome.withLock { $0.offered += 1 }
                }
                sent += 1
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let elapsed = Date().timeIntervalSince1970 - started
        // Let what is in flight arrive, then stop the consumer.
        let settle = Date().addingTimeInterval(5)
        while aggregator.statistics().remoteFrames < outcome.withLock({ $0.offered }) && Date() < settle { try await Task.sleep(for: .milliseconds(10)) }
        stop.store(true, ordering: .releasing)
        await consumer.value
        let networkCPU = await aggregator.networkThreadCPUSeconds() - networkCPUStart
        var result = outcome.withLock { $0 }
        result.aggregatorCPU += networkCPU
        result.processCPU = Self.processCPU() - processStart
        result.elapsed = elapsed
        result.overflow = aggregator.statistics().remoteOverflow
        if let pg = store as? PostgresStore {
            // The last second's batch was queued as the run ended: give it 2 s.
            let grace = Date().addingTimeInterval(2)
            while (pg.queueState?.rows ?? 0) > 0 && Date() < grace { try await Task.sleep(for: .milliseconds(10)) }
            result.backlog = pg.queueState?.rows ?? 0
            await pg.flush()
            result.postgresCPU = postgresStart.map { Self.postgresCPU()! - $0 }
        }
        result.logRows = logRows.load(ordering: .relaxed)
        return result
    }

    static let centre = Coordinate(latitude: 52.3, longitude: 4.76)

    /// Receiver i of n on a ring 40 NM around the centre.
    static func station(_ i: Int, of n: Int) -> Coordinate {
        Geodesy.destination(from: centre, bearing: Double(i) / Double(n) * 360, distance: 40)
    }

    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    }

    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// CPU seconds of every `postgres` process on this machine (nil when none is visible).
    static func postgresCPU() -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        var found = false
        for pid in entries where Int(pid) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close].hasPrefix("postgres") else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            total += (user + system) / tick
            found = true
        }
        return found ? total : nil
    }
}
