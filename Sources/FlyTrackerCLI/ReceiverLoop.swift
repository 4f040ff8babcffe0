import Demod
import Feeds
import Foundation
import ModeS
import Radio
import Tracking

/// The receiver's main loop: blocks from a source through the demodulator, the decoder and
/// the aircraft table; once per second of sample time the table is tidied and `periodic`
/// runs (JSON files, the interactive view, statistics, gain control, the hand-over to the
/// sighting log). Async only where it hands over or paces: the work between is synchronous
/// and CPU-bound, so it runs on a thread of its own (`ReceiverService`).
struct ReceiverLoop {
    var demodulator: Demodulator
    var table: AircraftTable
    /// Wall-clock seconds (Unix epoch) of the first sample: sample time + this = table time.
    let epoch: Double
    /// Statistics of the period since the last `periodic` call.
    private(set) var period = ReceptionStatistics()
    private var lastPeriodic: Double?
    /// Network feeds: every frame goes out; frames from the input ports come in.
    var feeds: FeedHub?
    /// Frames of the block in hand (reused: no allocation per block once warmed up).
    private var pending: [DemodulatedFrame] = []

    init(sampleRate: SampleRate, table: AircraftTable = AircraftTable(), epoch: Double = Date().timeIntervalSince1970) {
        demodulator = Demodulator(sampleRate: sampleRate)
        self.table = table
        self.epoch = epoch
    }

    /// Table time (Unix seconds) of a sample index.
    func time(ofSample index: UInt64) -> Double {
        epoch + Double(index) / Double(demodulator.sampleRate.hertz)
    }

    /// Reads `source` to its end, or until `shouldStop` says so. `frame` sees every frame;
    /// `periodic` runs each second of sample time and at the end with the period's counts.
    /// Returns `.failure` when the source failed part-way (what was read still went through).
    mutating func run(source: SampleSource, pace: Bool = false, shouldStop: () -> Bool = { false },
                      frame: (DemodulatedFrame) -> Void,
                      periodic: (inout ReceiverLoop, ReceptionStatistics, Double) async -> Void) async -> Result<Void, SampleSourceError> {
        let started = ContinuousClock.now
        var outcome: Result<Void, SampleSourceError> = .success(())
        while !shouldStop() {
            let block: SampleBlock?
            do { block = try source.nextBlock() } catch {
                outcome = .failure(error)
                break
            }
            guard let block else { break }
            if pace {
                let due = Duration.seconds(Double(block.firstSample) / Double(demodulator.sampleRate.hertz))
                let elapsed = ContinuousClock.now - started
                if due > elapsed { try? await Task.sleep(for: due - elapsed) }
            }
            var frames = pending
            frames.removeAll(keepingCapacity: true)
            demodulator.process(block) { frames.append($0) }
            for f in frames { handle(f, frame) }
            pending = frames
            applyRemoteFrames()
            let now = time(ofSample: block.firstSample + UInt64(block.sampleCount))
            if now - (lastPeriodic ?? epoch) >= 1 { await tick(at: now, dropped: source.samplesDropped, periodic) }
        }
        var last: [DemodulatedFrame] = []
        demodulator.finish { last.append($0) }
        for f in last { handle(f, frame) }
        await tick(at: time(ofSample: demodulator.statistics.samplesProcessed), dropped: source.samplesDropped, periodic)
        return outcome
    }

    private mutating func handle(_ demodulated: DemodulatedFrame, _ frame: (DemodulatedFrame) -> Void) {
        frame(demodulated)
        let message = ModeSMessage(demodulated.parity)
        let time = epoch + Double(demodulated.received.timestamp) / ReceivedFrame.ticksPerSecond
        table.apply(message, received: demodulated.received, at: time)
        publish(demodulated.received, corrected: demodulated.parity.frame, message, at: time)
    }

    /// Sends a frame the table has just taken to the network outputs: its corrected bits with
    /// the timestamp and signal it came with, and its SBS line with the aircraft's position
    /// when this frame gave the table a fresh one.
    private func publish(_ received: ReceivedFrame, corrected: Frame, _ message: ModeSMessage, at time: Double) {
        guard let feeds else { return }
        let position = table.position(givenBy: message, at: time).map { (lat: $0.latitude, lon: $0.longitude) }
        var out = received
        out.frame = corrected
        feeds.publish(out, message: message, position: position, at: time)
    }

    /// Applies frames that arrived on the network inputs (their own clocks are not ours: the
    /// arrival time is the table time), and passes each transmission on to the outputs, as
    /// readsb and dump1090-fa do, so FlyTracker can stand as a hub in front of feeders and
    /// mlat-client. A copy of a transmission another receiver delivered first only records
    /// that its receiver heard the aircraft too (and is not sent again).
    mutating func applyRemoteFrames() {
        guard let feeds else { return }
        for r in feeds.takeRemoteFrames() {
            let message = ModeSMessage(r.parity)
            if r.merged, let hearing = r.hearing {
                table.hear(message, received: r.received, at: r.arrival, via: hearing)
            } else {
                table.apply(message, received: r.received, at: r.arrival, via: r.hearing)
                publish(r.received, corrected: r.parity.frame, message, at: r.arrival)
            }
        }
    }

    /// `--net-only`: no radio; frames from the network inputs until `shouldStop`, with
    /// `periodic` once per second of wall-clock time.
    mutating func runNetworkOnly(shouldStop: () -> Bool, periodic: (inout ReceiverLoop, ReceptionStatistics, Double) async -> Void) async {
        while !shouldStop() {
            try? await Task.sleep(for: .milliseconds(50))
            applyRemoteFrames()
            let now = Date().timeIntervalSince1970
            if now - (lastPeriodic ?? epoch) >= 1 { await tick(at: now, dropped: 0, periodic) }
        }
        applyRemoteFrames()
        await tick(at: Date().timeIntervalSince1970, dropped: 0, periodic)
    }

    private mutating func tick(at now: Double, dropped: UInt64, _ periodic: (inout ReceiverLoop, ReceptionStatistics, Double) async -> Void) async {
        var totals = demodulator.statistics
        totals.samplesDropped = dropped
        var delta = totals
        delta.subtract(period)
        period = totals
        lastPeriodic = now
        table.housekeep(at: now)
        await periodic(&self, delta, now)
    }
}
