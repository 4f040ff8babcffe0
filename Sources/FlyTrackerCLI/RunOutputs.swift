import ArgumentParser
import Demod
import Feeds
import Foundation
import ModeS
import PostgresStore
import Store
import Tracking
import Web

/// What `run` writes while it runs: the JSON directory, the interactive screen, statistics.
final class RunOutputs {
    private let jsonDirectory: JSONDirectoryWriter?
    private let interactive: Bool
    private let sort: InteractiveSort
    private var stats: StatsHistory
    /// Processor time per period. Made here, on the thread that runs the receiver loop (and
    /// so `update`): `run` builds the outputs and then runs the loop on its own thread.
    private var cpu = CPUMeter()
    private var lastScreen = ContinuousClock.now - .seconds(2)
    private var lastJSON = ContinuousClock.now - .seconds(2)
    private var snapshot = TableSnapshot.empty
    private var lastNow: Double
    private var jsonFailed = false
    private let receiver: Coordinate?
    /// The feeds' cumulative counts at the previous update (stats take what happened since).
    private var lastRemote: (frames: Int, rejected: Int, accepted: Int) = (0, 0, 0)
    /// The sighting log and watchlist journal (one transaction a second), and webhook alerts.
    private let recorder: SightingRecorder?
    private let alerts: AlertDispatcher?
    private var recorderFailed = false
    /// Users' reminders ("10 min before it lands"), evaluated once a second.
    private let reminders: ReminderService?
    private var remindersFailed = false
    /// Goals, fed the visits the recorder closes.
    private let goals: GoalService?
    /// The feed's automatic posts (`--auto-posts`).
    private let autoPoster: AutoPoster?
    private var autoPostsFailed = false

    /// Where the web server reads the live table, stats.json and the network's receivers from.
    private let web: (snapshots: SnapshotPublisher, stats: PublishedStats, receivers: PublishedReceivers)?
    /// What each receiver of a network covers (aggregator).
    private var coverage = CoverageMap()

    /// `store`: where the sighting log and the alert delivery log go (SQLite or PostgreSQL).
    init(command: RunCommand, epoch: Double, store: (any SightingStore)?, web: (SnapshotPublisher, PublishedStats, PublishedReceivers)? = nil) throws {
        self.web = web
        if let store {
            let log: SightingRecorder
            do { log = try SightingRecorder(store: store) } catch {
                StandardStreams.error("cannot start the sighting log: \(error)")
                throw ExitCode(1)
            }
            recorder = log
            alerts = AlertDispatcher(database: store)
            reminders = ReminderService(store: store)
            goals = GoalService(store: store)
            // Visits a killed run left open: closed at their last sighting, counted once.
            do {
                let recovered = try log.closeInterruptedVisits(before: epoch)
                if !recovered.isEmpty {
                    _ = try goals?.apply(recovered, now: epoch)
                    if !command.quiet { StandardStreams.error("closed \(recovered.count) visits left open by an interrupted run") }
                }
            } catch {
                StandardStreams.error("cannot close the visits an interrupted run left open: \(error)")
            }
            autoPoster = command.autoPostKinds.isEmpty ? nil : AutoPoster(store: store, kinds: command.autoPostKinds)
        } else {
            recorder = nil
            alerts = nil
            reminders = nil
            goals = nil
            autoPoster = nil
        }
        interactive = command.interactive
        sort = command.sort
        stats = StatsHistory(start: epoch, hasLocalReceiver: !command.network.netOnly)
        lastNow = epoch
        receiver = command.lat.flatMap { la in command.lon.map { Coordinate(latitude: la, longitude: $0) } }
        if let dir = command.jsonDir {
            do { jsonDirectory = try JSONDirectoryWriter(directory: dir) } catch {
                StandardStreams.error("\(error)")
                throw ExitCode(1)
            }
        } else {
            jsonDirectory = nil
        }
    }

    /// Once per second of sample time.
    func update(loop: ReceiverLoop, delta: DemodStatistics, remote totals: FeedStatistics? = nil,
                receivers: [ReceiverStatus]? = nil, now: Double) {
        lastNow = now
        var remote = RemoteStatistics()
        if let totals {
            remote.modes = UInt64(max(0, totals.remoteFrames - lastRemote.frames))
            remote.bad = UInt64(max(0, totals.remoteRejected - lastRemote.rejected))
            remote.accepted.0 = UInt64(max(0, totals.remoteAccepted - lastRemote.accepted))
            lastRemote = (totals.remoteFrames, totals.remoteRejected, totals.remoteAccepted)
        }
        stats.record(local: delta, remote: remote, cpu: cpu.period(), table: loop.table.counters, at: now)
        let needsSnapshot = recorder != nil || web != nil
        if needsSnapshot { snapshot = loop.table.snapshot(at: now) }
        if let web {
            web.snapshots.publish(snapshot)
            web.stats.publish(stats.document(at: now))
            if let receivers, !receivers.isEmpty {
                var stations: [ReceiverID: Coordinate] = [:]
                for r in receivers { stations[r.id] = r.position }
                coverage.update(snapshot, stations: stations, known: Set(receivers.map(\.id)))
                web.receivers.publish(receivers.map { NetworkReceiver(status: $0, coverage: coverage.receivers[$0.id] ?? ReceiverCoverage()) })
            }
        }
        if let recorder {
            do {
                var events = try recorder.record(snapshot)
                let reached = try goals?.apply(recorder.lastClosed, now: now) ?? []
                events += reached
                recorderFailed = false
                if let autoPoster {
                    do {
                        try autoPoster.post(snapshot: snapshot, closed: recorder.lastClosed, goalEvents: reached)
                        autoPostsFailed = false
                    } catch {
                        if !autoPostsFailed { StandardStreams.error("cannot write automatic posts: \(error)") }
                        autoPostsFailed = true
                    }
                }
                if !events.isEmpty, let alerts { Task { _ = await alerts.deliver(events) } }
            } catch {
                if !recorderFailed { StandardStreams.error("cannot write the sighting log: \(error)") }
                recorderFailed = true
            }
        }
        if let reminders {
            do {
                let events = try reminders.evaluate(snapshot, receiver: receiver)
                remindersFailed = false
                if !events.isEmpty, let alerts { Task { _ = await alerts.deliver(events) } }
            } catch {
                if !remindersFailed { StandardStreams.error("cannot evaluate reminders: \(error)") }
                remindersFailed = true
            }
        }
        guard jsonDirectory != nil || interactive else { return }
        let wall = ContinuousClock.now
        let wantJSON = jsonDirectory != nil && wall - lastJSON >= .seconds(1)
        let wantScreen = interactive && wall - lastScreen >= .seconds(1)
        guard wantJSON || wantScreen else { return }
        if !needsSnapshot { snapshot = loop.table.snapshot(at: now) }
        if wantJSON { lastJSON = wall; writeJSON(now: now) }
        if wantScreen { lastScreen = wall; drawScreen() }
    }

    /// At the end: the last JSON files and screen.
    func finish() {
        do {
            _ = try recorder?.finish(at: lastNow)
            if let recorder, let goals { _ = try goals.apply(recorder.lastClosed, now: lastNow) }
        } catch {
            StandardStreams.error("cannot write the sighting log: \(error)")
        }
        if let postgres = recorder?.store as? PostgresStore {
            if !postgres.flush() {
                let rows = postgres.queueState?.rows ?? 0
                StandardStreams.error("PostgreSQL did not take the last \(rows) queued rows of the sighting log before exit")
            }
            postgres.close()
        }
        if jsonDirectory != nil { writeJSON(now: lastNow) }
        if interactive { drawScreen() }
    }

    /// stats.json to `path` (written whole, then renamed into place).
    func writeStats(to path: String) throws {
        let text = stats.document(at: lastNow) + "\n"
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            StandardStreams.error("cannot write \(path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }

    private func writeJSON(now: Double) {
        guard let jsonDirectory else { return }
        do {
            try jsonDirectory.write(
                aircraft: AircraftJSON.document(snapshot, now: now, messages: snapshot.counters.messages),
                receiver: ReceiverJSON.document(version: "flytracker 0.1.0", position: receiver ?? snapshot.receiverEstimate),
                stats: stats.document(at: now))
            jsonFailed = false
        } catch {
            // Say it once per failure streak; keep running (the disk may come back).
            if !jsonFailed { StandardStreams.error("\(error)") }
            jsonFailed = true
        }
    }

    private func drawScreen() {
        var width = 100, height = 40
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
            height = Int(size.ws_row)
        }
        let lines = InteractiveView.lines(snapshot, sort: sort, width: width, height: height)
        var text = "\u{1B}[H\u{1B}[2J"
        text += lines.joined(separator: "\n")
        text += "\n"
        StandardStreams.writeAll(Array(text.utf8), to: STDOUT_FILENO)
    }
}
