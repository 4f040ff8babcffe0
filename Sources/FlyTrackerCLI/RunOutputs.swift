import ArgumentParser
import Demod
import Feeds
import Foundation
import ModeS
import Store
import Services
import Tracking
import Web

/// What `run` writes while it runs: the JSON directory, the interactive screen, statistics.
final class RunOutputs {
    private let jsonDirectory: JSONDirectoryWriter?
    private let interactive: Bool
    /// The interactive view's keys (sort, filter, quit) and the terminal they come from.
    private var keys: InteractiveKeys
    private let terminal: TerminalKeys?
    /// Called when the user presses `q` in the interactive view.
    var onQuit: () -> Void = {}
    private var stats: StatsHistory
    /// Processor time per period. Made here, on the thread that runs the receiver loop (and
    /// so `update`): `run` builds the outputs and then runs the loop on its own thread.
    private var cpu = CPUMeter()
    private var lastScreen = ContinuousClock.now - .seconds(2)
    private var lastJSON = ContinuousClock.now - .seconds(2)
    private var snapshot = TableSnapshot.empty
    private var lastNow: Double
    private var jsonFailed = false
    /// history_N.json (tar1090's trails).
    private var history: JSONHistory
    /// outline.json, kept in `outlineState` in the JSON directory across restarts.
    private var outline: RangeOutline?
    private var lastOutlineSave: Double
    private var lastOutlineWrite = -Double.infinity
    private let receiver: Coordinate?
    /// The feeds' cumulative counts at the previous update (stats take what happened since).
    private var lastRemote = FeedStatistics()
    /// The sighting log and what rides on it (a service of the run): handed each second's table.
    private let recorder: RecorderService?

    /// Where the web server reads the live table, stats.json and the network's receivers from.
    private let web: (snapshots: SnapshotPublisher, stats: PublishedStats, receivers: PublishedReceivers)?
    /// What each receiver of a network covers (aggregator).
    private var coverage = CoverageMap()

    /// `recorder`: the run's sighting log, handed each second's table.
    init(command: RunCommand, epoch: Double, recorder: RecorderService?,
         web: (SnapshotPublisher, PublishedStats, PublishedReceivers)? = nil) throws {
        self.web = web
        self.recorder = recorder
        interactive = command.interactive
        keys = InteractiveKeys(sort: command.sort)
        terminal = command.interactive ? TerminalKeys() : nil
        stats = StatsHistory(start: epoch, hasLocalReceiver: !command.network.netOnly)
        lastNow = epoch
        receiver = command.lat.flatMap { la in command.lon.map { Coordinate(latitude: la, longitude: $0) } }
        history = JSONHistory(count: command.jsonHistory, interval: command.jsonHistoryInterval)
        lastOutlineSave = epoch
        if let dir = command.jsonDir {
            do { jsonDirectory = try JSONDirectoryWriter(directory: dir) } catch {
                StandardStreams.error("\(error)")
                throw ExitCode(1)
            }
            if command.rangeOutlineHours > 0 {
                outline = Self.loadOutline(from: dir + "/" + Self.outlineState, hours: command.rangeOutlineHours)
            }
        } else {
            jsonDirectory = nil
        }
    }

    /// The file in the JSON directory that keeps the range outline across restarts.
    static let outlineState = "outline-state.json"

    /// The outline a previous run saved (a missing file starts afresh; an unreadable one
    /// is said and set aside, never overwritten unseen).
    static func loadOutline(from path: String, hours: Double) -> RangeOutline {
        guard let data = FileManager.default.contents(atPath: path) else { return RangeOutline(hours: hours) }
        do {
            let saved = try JSONDecoder().decode(RangeOutline.self, from: data)
            return saved.hours == hours ? saved : saved.rescaled(hours: hours)
        } catch {
            StandardStreams.error("cannot read the saved range outline \(path) (\(error)): starting a new one, the old file kept as \(path).bad")
            try? FileManager.default.removeItem(atPath: path + ".bad")
            try? FileManager.default.moveItem(atPath: path, toPath: path + ".bad")
            return RangeOutline(hours: hours)
        }
    }

    /// Once per second of sample time; returns once the sighting log has taken the table.
    func update(loop: ReceiverLoop, delta: ReceptionStatistics, remote totals: FeedStatistics? = nil,
                receivers: [ReceiverStatus]? = nil, now: Double) async {
        lastNow = now
        var remote = RemoteStatistics()
        if let totals {
            remote = Self.remoteStatistics(totals, since: lastRemote)
            lastRemote = totals
        }
        // One snapshot a second serves the stats (range), the store, the web and the files.
        snapshot = loop.table.snapshot(at: now)
        let receiverPosition = snapshot.receiverPosition(configured: receiver)
        stats.record(local: delta, remote: remote, cpu: cpu.period(), table: loop.table.counters,
                     maxDistance: Self.farthest(snapshot, from: receiverPosition, since: now - 2), at: now)
        if jsonDirectory != nil { writeHistoryAndOutline(now: now, receiver: receiverPosition) }
        if let web {
            web.snapshots.publish(snapshot)
            web.stats.publish(statsDocument(at: now))
            if let receivers, !receivers.isEmpty {
                var stations: [ReceiverID: Coordinate] = [:]
                for r in receivers { stations[r.id] = r.position }
                coverage.update(snapshot, stations: stations, known: Set(receivers.map(\.id)))
                web.receivers.publish(receivers.map { NetworkReceiver(status: $0, coverage: coverage.receivers[$0.id] ?? ReceiverCoverage()) })
            }
        }
        await recorder?.hand(snapshot)
        guard jsonDirectory != nil || interactive else { return }
        let wall = ContinuousClock.now
        let wantJSON = jsonDirectory != nil && wall - lastJSON >= .seconds(1)
        let wantScreen = interactive && wall - lastScreen >= .seconds(1)
        guard wantJSON || wantScreen else { return }
        if wantJSON { lastJSON = wall; writeJSON(now: now) }
        if wantScreen { lastScreen = wall; drawScreen() }
    }

    /// When the run fails before or around the receiver (the web port taken): the terminal
    /// back as it was, the sighting log told that nothing more comes; nothing written.
    func abandon() {
        recorder?.inputEnded()
        terminal?.restore()
    }

    /// At the end: the last JSON files and screen; the sighting log told that nothing more
    /// comes (it then closes the visits still open and writes what it queues).
    func finish() {
        recorder?.inputEnded()
        if jsonDirectory != nil {
            writeJSON(now: lastNow)
            do { try saveOutline(now: lastNow) } catch { StandardStreams.error("\(error)") }
        }
        if interactive {
            drawScreen()
            StandardStreams.writeAll([10], to: STDOUT_FILENO)   // the shell's prompt below the table
        }
        terminal?.restore()
    }

    /// Notes the positions of the last second in the outline; writes the history file when
    /// one is due, outline.json every 15 s (at once at the start), and saves the outline's
    /// state once a minute.
    private func writeHistoryAndOutline(now: Double, receiver: Coordinate?) {
        guard let jsonDirectory else { return }
        if var o = outline, let receiver {
            for a in snapshot.aircraft {
                guard let p = a.position, p.time >= now - 2 else { continue }
                o.record(p.value, altitude: a.altBaro?.value ?? a.altGeom?.value, receiver: receiver, at: now)
            }
            outline = o
        }
        do {
            if let name = history.take(at: now) {
                try jsonDirectory.write(name: name, contents: AircraftJSON.document(snapshot, now: now))
            }
            if outline != nil, now - lastOutlineWrite >= 15 || now < lastOutlineWrite { try writeOutline(now: now) }
            if outline != nil, now - lastOutlineSave >= 60 || now < lastOutlineSave { try saveOutline(now: now) }
        } catch {
            if !jsonFailed { StandardStreams.error("\(error)") }
            jsonFailed = true
        }
    }

    /// Writes outline.json.
    private func writeOutline(now: Double) throws(JSONDirectoryError) {
        guard let jsonDirectory, let outline else { return }
        lastOutlineWrite = now
        try jsonDirectory.write(name: "outline.json", contents: outline.document(at: now))
    }

    /// Writes outline.json and the state behind it.
    private func saveOutline(now: Double) throws(JSONDirectoryError) {
        guard let jsonDirectory, let outline else { return }
        lastOutlineSave = now
        try writeOutline(now: now)
        if let data = try? JSONEncoder().encode(outline) {
            try jsonDirectory.write(name: Self.outlineState, contents: String(decoding: data, as: UTF8.self))
        }
    }

    /// A period's `remote` block from the feeds' cumulative counts now and at the previous update.
    static func remoteStatistics(_ now: FeedStatistics, since before: FeedStatistics) -> RemoteStatistics {
        var remote = RemoteStatistics()
        let unknown = max(0, now.remoteUnknownAddress - before.remoteUnknownAddress)
        remote.modes = UInt64(max(0, now.remoteFrames - before.remoteFrames))
        remote.unknownICAO = UInt64(unknown)
        remote.bad = UInt64(max(0, now.remoteRejected - before.remoteRejected - unknown))
        remote.accepted.0 = UInt64(max(0, now.remoteAccepted - before.remoteAccepted))
        return remote
    }

    /// The farthest position received since `time` from `receiver`, metres (0 when none,
    /// or the receiver's position is unknown).
    static func farthest(_ snapshot: TableSnapshot, from receiver: Coordinate?, since time: Double) -> Double {
        guard let receiver else { return 0 }
        var farthest = 0.0
        for a in snapshot.aircraft {
            guard let p = a.position, p.time >= time else { continue }
            farthest = max(farthest, Geodesy.distance(receiver, p.value) * Geodesy.metresPerNM)
        }
        return farthest
    }

    /// stats.json now, with the snapshot's aircraft counts.
    private func statsDocument(at now: Double) -> String {
        let withPosition = snapshot.aircraft.count { $0.position != nil }
        return stats.document(at: now, aircraft: (withPosition, snapshot.aircraft.count - withPosition))
    }

    /// stats.json to `path` (written whole, then renamed into place).
    func writeStats(to path: String) throws {
        let text = statsDocument(at: lastNow) + "\n"
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
                receiver: ReceiverJSON.document(version: "flytracker 0.1.0", history: history.available,
                                                position: receiver ?? snapshot.receiverEstimate, outline: outline != nil),
                stats: statsDocument(at: now))
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
        if let terminal {
            for byte in terminal.take() { keys.press(byte) }
            if keys.quit { onQuit() }
        }
        let lines = InteractiveView.lines(snapshot, sort: keys.sort, width: width, height: height, filter: keys.filter,
                                          hint: terminal == nil ? nil : keys.hint)
        // No newline after the last line: on a full screen it would scroll the header away.
        var text = "\u{1B}[H\u{1B}[2J"
        text += lines.joined(separator: "\n")
        StandardStreams.writeAll(Array(text.utf8), to: STDOUT_FILENO)
    }
}
