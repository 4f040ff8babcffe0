import ArgumentParser
import Feeds
import ModeS
import Radio

/// One run of the receiver loop, made by `RunCommand` and executed on the receiver's own
/// thread (`ReceiverService`): frames printed with `--raw`, the outputs once a second (JSON
/// files, screen, web snapshots, the hand-over to the sighting log), the automatic gain; at
/// the end the last outputs, and `report()` for what the command prints and exits with.
///
/// `@unchecked Sendable`: it is made on one task and then used by one thread at a time, the
/// receiver's (`execute`), and after that thread has finished, by the command (`report`).
final class ReceiverSession: @unchecked Sendable {
    private var loop: ReceiverLoop
    private let opened: OpenedSource?
    private let feeds: FeedHub?
    private let outputs: RunOutputs
    private let lookup: StoreAircraftLookup?
    private let shouldStop: @Sendable () -> Bool
    private let raw: Bool
    private let timestamps: Bool
    private let autoGainWanted: Bool
    private let statsFile: String?
    private let quiet: Bool
    private let interactive: Bool
    private let netOnly: Bool
    private var outcome: Result<Void, SampleSourceError> = .success(())

    init(command: RunCommand, loop: ReceiverLoop, opened: OpenedSource?, feeds: FeedHub?, outputs: RunOutputs,
         lookup: StoreAircraftLookup? = nil, shouldStop: @escaping @Sendable () -> Bool) {
        self.loop = loop
        self.opened = opened
        self.feeds = feeds
        self.outputs = outputs
        self.lookup = lookup
        self.shouldStop = shouldStop
        // The options read once, not through their property wrappers for every frame.
        raw = command.raw
        timestamps = command.timestamps
        autoGainWanted = command.dongle.gain.value == .auto
        statsFile = command.statsFile
        quiet = command.quiet
        interactive = command.interactive
        netOnly = command.network.netOnly
    }

    /// The loop, until the source ends or `shouldStop`; then the last outputs.
    func execute() async {
        let capture = opened?.capture
        var autoGain = autoGainWanted ? capture?.makeAutoGainController(configuration: .init()) : nil
        var output = OutputBuffer()
        let outputs = outputs, feeds = feeds, lookup = lookup
        let periodic: (inout ReceiverLoop, ReceptionStatistics, Double) async -> Void = { loop, delta, now in
            output.flush()
            var local = delta
            if let capture {
                local.gainDB = capture.gainDB
                if autoGain != nil, let decision = autoGain?.observe(.init(period: delta)), decision.changed {
                    _ = try? capture.setGain(tenthsDB: decision.to)
                    StandardStreams.error(decision.description)
                }
            }
            // The aircraft that became reliable this second, looked up in the store before
            // the snapshot shows them.
            if let lookup, case let pending = loop.table.takePendingLookups(), !pending.isEmpty {
                loop.table.supply(await lookup.info(pending))
            }
            await outputs.update(loop: loop, delta: local, remote: feeds?.statistics(), receivers: feeds?.receivers(), now: now)
        }
        if let opened {
            let raw = raw, timestamps = timestamps
            outcome = await loop.run(source: opened.source, pace: opened.paced, shouldStop: shouldStop, frame: { frame in
                if raw { output.printLine(AVRLine.format(frame.received, timestamps: timestamps)) }
            }, periodic: periodic)
        } else {
            await loop.runNetworkOnly(shouldStop: shouldStop, periodic: periodic)
        }
        output.flush()
        opened?.stop()
        outputs.finish()
    }

    /// After `execute`: a truncated recording, `--stats-file`, a failed source (exit 1), the
    /// summary line.
    func report() throws {
        if let file = opened?.fileSource, file.truncatedBytes > 0 {
            StandardStreams.error("\(file.path) ends in the middle of a sample (\(file.truncatedBytes) bytes ignored)")
        }
        if let statsFile { try outputs.writeStats(to: statsFile) }
        if case .failure(let error) = outcome {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
        guard !quiet && !interactive else { return }
        if netOnly, let feeds {
            let f = feeds.statistics()
            let shown = loop.table.snapshot(at: loop.table.latestTime).count
            StandardStreams.error("\(f.remoteAccepted) network frames (\(f.remoteMerged) merged copies) from \(feeds.receivers().count) receivers, \(shown) aircraft")
        } else {
            let s = loop.demodulator.statistics
            let shown = loop.table.snapshot(at: loop.time(ofSample: s.samplesProcessed)).count
            StandardStreams.error("\(s.samplesProcessed) samples, \(s.acceptedTotal) frames, \(shown) aircraft")
        }
    }
}
