import Demod
import Dispatch
import Foundation
import Synchronization

/// Where the capture's log lines go (the lead passes stderr or the service log).
public typealias RTLSDRLog = @Sendable (String) -> Void

/// A monotonic clock in nanoseconds; tests pass a hand-driven one.
public struct RTLSDRClock: Sendable {
    public var now: @Sendable () -> UInt64

    public init(now: @escaping @Sendable () -> UInt64) { self.now = now }

    /// `CLOCK_MONOTONIC` (via `DispatchTime`).
    public static let monotonic = RTLSDRClock { DispatchTime.now().uptimeNanoseconds }
}

/// Live capture from an RTL-SDR dongle as a `SampleSource` of uc8 blocks.
///
/// `start()` opens and sets up the dongle (errors there are the user's to fix: permissions,
/// busy device, no dongle) and starts two threads: the capture thread runs
/// `rtlsdr_read_async` and copies every USB buffer into a preallocated `SampleRing` (never
/// blocking, never allocating; whole blocks are dropped and counted when the consumer falls
/// behind); the watchdog thread restarts the dongle when no samples arrive for
/// `options.stallTimeout`. When streaming ends without `stop()` (stall, unplug, USB error)
/// the capture thread closes the dongle and reopens the same one (by serial) with back-off,
/// logging each step, and capture continues; `firstSample` then jumps forward by the outage.
///
/// One consumer calls `nextBlock()`; `stop()` may come from any thread (a signal handler's
/// task): it cancels streaming, joins both threads and releases the USB device; the consumer
/// then gets the blocks still buffered and nil.
public final class RTLSDRCapture: SampleSource, @unchecked Sendable {
    public let format: SampleFormat = .uc8
    public let sampleRate: SampleRate
    public let options: RTLSDROptions

    let driver: any RTLSDRDriver
    let selector: RTLSDRDeviceSelector
    let log: RTLSDRLog
    let clock: RTLSDRClock
    let ring: SampleRing
    let sink: CaptureSink

    // Everything below is guarded by `control` (and its condition wakes waiters on changes).
    let control = NSCondition()
    var phase: Phase = .created
    /// The open dongle; nil while recovering. Closed only by the capture thread, after
    /// taking it out of here under the lock, so no one cancels a closed handle.
    var handle: (any RTLSDRDeviceHandle)?
    /// `readAsync` is running (or about to start).
    var streaming = false
    var readStartedAt: UInt64 = 0
    var cancelReason: CancelReason?
    var stopRequested = false
    var threadsJoined = false
    var captureThread: JoinableThread?
    var watchdogThread: JoinableThread?
    /// The dongle in use (tuner and gains filled in).
    var dongle: RTLSDRDeviceInfo?
    /// Reopen by this serial; nil: by `dongle.index` (no serial, or several dongles share it).
    var reopenSerial: String?
    /// Manual gain in tenths of a dB; nil: the tuner's AGC.
    var gainTenths: Int?
    var supported: [Int] = []
    var recoveryCount = 0
    var recoveringSince: UInt64?

    enum Phase { case created, running, recovering, finished }
    enum CancelReason { case stall(silentFor: UInt64, at: UInt64), stop }

    /// A capture of the dongle `selector` names, not started yet.
    public init(driver: any RTLSDRDriver = LibRTLSDRDriver(), selector: RTLSDRDeviceSelector = .first,
                options: RTLSDROptions = RTLSDROptions(), clock: RTLSDRClock = .monotonic,
                log: @escaping RTLSDRLog) {
        self.driver = driver
        self.selector = selector
        self.options = options
        self.sampleRate = options.sampleRate
        self.clock = clock
        self.log = log
        ring = SampleRing(blocks: options.ringBlocks, blockBytes: options.bufferLength, format: .uc8)
        sink = CaptureSink(ring: ring, clock: clock)
    }

    /// Opens `device` (`--device INDEX|SERIAL`; nil: the first dongle) with `options`, and
    /// starts capturing. What `flytracker run` calls.
    public static func open(device: String?, options: RTLSDROptions = RTLSDROptions(),
                            driver: any RTLSDRDriver = LibRTLSDRDriver(), clock: RTLSDRClock = .monotonic,
                            log: @escaping RTLSDRLog) throws(RTLSDRCaptureError) -> RTLSDRCapture {
        let capture = RTLSDRCapture(driver: driver, selector: RTLSDRDeviceSelector(device), options: options, clock: clock, log: log)
        try capture.start()
        return capture
    }

    // MARK: SampleSource

    /// The next block, waiting for it; nil after `stop()` once the buffered blocks are read.
    /// Throws only when the dongle did not come back within `options.maxReopenAttempts`.
    /// The returned block's bytes are shared with the ring until the next call (keeping a
    /// block longer is safe; it costs one copy on this thread).
    public func nextBlock() throws(SampleSourceError) -> SampleBlock? { try ring.take() }

    /// Samples dropped because the consumer fell behind (`samples_dropped`).
    public var samplesDropped: UInt64 { ring.samplesDropped }

    // MARK: state

    /// The dongle in use: index, names, serial, tuner, gains. nil before `start()`.
    public var deviceInfo: RTLSDRDeviceInfo? { locked { dongle } }

    /// Gains the tuner supports, tenths of a dB, ascending.
    public var supportedGains: [Int] { locked { supported } }

    /// The manual tuner gain in dB (`gain_db` in stats.json); nil with the tuner's AGC.
    public var gainDB: Double? { locked { gainTenths.map { Double($0) / 10 } } }

    /// How many times the dongle was lost and reopened.
    public var recoveries: Int { locked { recoveryCount } }

    /// True while the dongle is away and being reopened.
    public var isRecovering: Bool { locked { phase == .recovering } }

    /// True once the capture thread has ended (after `stop()` or giving up).
    public var isFinished: Bool { locked { phase == .finished } }

    /// Blocks dropped because the consumer fell behind.
    public var blocksDropped: Int { ring.blocksDropped }

    // MARK: control

    /// Opens and sets up the dongle, then starts the capture and watchdog threads.
    public func start() throws(RTLSDRCaptureError) {
        var messages: [String] = []
        control.lock()
        do {
            try startLocked(&messages)
            control.unlock()
        } catch {
            control.unlock()
            for line in messages { log(line) }
            throw error
        }
        // Logged outside the lock: a log sink may look at the capture.
        for line in messages { log(line) }
    }

    private func startLocked(_ messages: inout [String]) throws(RTLSDRCaptureError) {
        guard phase == .created, !stopRequested else { throw .notStartable }
        let devices = RTLSDRDevices.list(driver: driver, probe: false)
        let chosen = try RTLSDRDevices.resolve(selector, in: devices)
        gainTenths = nil
        let opened: any RTLSDRDeviceHandle
        do {
            opened = try driver.open(index: chosen.index)
        } catch {
            throw .device(chosen.summary, error)
        }
        var info = chosen
        do {
            info.tuner = opened.tunerType()
            try configure(opened, initial: true)
            info.gains = supported
        } catch {
            try? opened.close()
            throw .device(chosen.summary, error)
        }
        dongle = info
        reopenSerial = nil
        if let serial = info.serial, !serial.isEmpty {
            let sharing = devices.filter { $0.serial == serial }.count
            if sharing <= 1 {
                reopenSerial = serial
            } else {
                messages.append("RTL-SDR: \(sharing) dongles share serial \(serial); after a failure dongle \(info.index) is reopened by index, which may pick another one (give each a unique serial with 'rtl_eeprom -d INDEX -s NEWSERIAL')")
            }
        }
        handle = opened
        phase = .running
        messages.append("RTL-SDR: using dongle \(info.summary); \(sampleRate.description.dropLast()) MS/s at \(Self.megahertz(options.centerFrequency)) MHz, gain \(gainText)")
        do {
            captureThread = try JoinableThread(name: "rtlsdr-capture") { [self] in captureLoop() }
        } catch {
            handle = nil
            phase = .finished
            try? opened.close()
            ring.finish()
            throw error
        }
        if let interval = options.watchdogInterval {
            watchdogThread = try? JoinableThread(name: "rtlsdr-watchdog") { [self] in watchdogLoop(every: interval) }
            if watchdogThread == nil { messages.append("RTL-SDR: cannot start the watchdog thread; stalls will not be noticed") }
        }
    }

    /// Stops capturing: cancels streaming, joins the threads, closes the dongle. Idempotent;
    /// concurrent callers all return after the threads are joined.
    public func stop() {
        control.lock()
        if phase == .created {
            stopRequested = true
            phase = .finished
            threadsJoined = true
            control.unlock()
            ring.finish()
            return
        }
        if stopRequested {
            while !threadsJoined { control.wait() }
            control.unlock()
            return
        }
        stopRequested = true
        control.broadcast()
        cancelStreaming(reason: .stop)
        // A cancel that came just before readAsync started is lost: repeat until the
        // capture thread is out.
        while phase != .finished {
            if !control.wait(until: Date(timeIntervalSinceNow: 0.05)) { cancelStreaming(reason: .stop) }
        }
        let threads = [captureThread, watchdogThread]
        control.unlock()
        for thread in threads { thread?.join() }
        control.lock()
        captureThread = nil
        watchdogThread = nil
        threadsJoined = true
        control.broadcast()
        control.unlock()
    }

    /// Sets a manual tuner gain (snapped to the nearest supported one) and returns it; kept
    /// across reopens. What the `--gain auto` loop calls with `AutoGainController` decisions.
    @discardableResult
    public func setGain(tenthsDB: Int) throws(RTLSDRError) -> Int {
        control.lock()
        defer { control.unlock() }
        let snapped = RTLSDRGain.nearest(tenthsDB, in: supported) ?? tenthsDB
        let wasAGC = gainTenths == nil
        gainTenths = snapped
        if let handle {
            if wasAGC { try handle.setTunerGainMode(manual: true) }
            try handle.setTunerGain(tenthsDB: snapped)
        }
        return snapped
    }

    /// A controller for `--gain auto` over this dongle's gains, starting at the current gain;
    /// nil unless started with `.auto` and the tuner lists its gains.
    public func makeAutoGainController(configuration: AutoGainController.Configuration = .init()) -> AutoGainController? {
        locked {
            guard options.gain == .auto else { return nil }
            return AutoGainController(supportedGains: supported, initialGain: gainTenths, configuration: configuration)
        }
    }

    /// Restarts the dongle if no samples came for `options.stallTimeout`; returns true when
    /// it did. The watchdog thread calls this every `options.watchdogInterval`; tests call it
    /// directly with a hand-driven clock.
    @discardableResult
    public func checkWatchdog() -> Bool {
        var message: String?
        defer { if let message { log(message) } }
        control.lock()
        defer { control.unlock() }
        guard streaming, !stopRequested, let handle else { return false }
        let now = clock.now()
        let timeout = options.stallTimeout.nanoseconds
        if case .stall(_, let at)? = cancelReason {
            // Cancelled once already and still streaming: try again after another timeout.
            guard now &- at >= timeout else { return false }
            message = "RTL-SDR: dongle \(label) does not stop streaming after a cancel; cancelling again"
            cancelReason = .stall(silentFor: now &- at, at: now)
            try? handle.cancelAsync()
            return true
        }
        guard cancelReason == nil else { return false }
        let last = max(sink.lastSampleAt.load(ordering: .relaxed), readStartedAt)
        guard now > last, now - last >= timeout else { return false }
        cancelReason = .stall(silentFor: now - last, at: now)
        message = "RTL-SDR: no samples from dongle \(label) for \(Self.seconds(now - last)) s; restarting it"
        do {
            try handle.cancelAsync()
        } catch {
            // Not streaming yet (the cancel raced readAsync's start): look again next time.
            cancelReason = nil
            message = nil
            return false
        }
        return true
    }

    // MARK: helpers

    func locked<T>(_ body: () -> T) -> T {
        control.lock()
        defer { control.unlock() }
        return body()
    }

    /// Cancels a running readAsync. Call with `control` held.
    func cancelStreaming(reason: CancelReason) {
        guard streaming, let handle else { return }
        if cancelReason == nil { cancelReason = reason }
        try? handle.cancelAsync()
    }

    /// "serial 00000001" or "0" — how log lines name the dongle. Call with `control` held.
    var label: String {
        if let reopenSerial { return "serial \(reopenSerial)" }
        return dongle.map { "\($0.index)" } ?? "?"
    }

    var gainText: String {
        guard let gainTenths else { return "tuner AGC" }
        return "\(RTLSDRDeviceInfo.format(dB: Double(gainTenths) / 10)) dB (\(options.gain))"
    }

    static func megahertz(_ hertz: UInt32) -> String {
        let khz = Int(hertz) / 1000
        let frac = String(khz % 1000)
        return "\(khz / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }

    static func seconds(_ nanoseconds: UInt64) -> String {
        let tenths = nanoseconds / 100_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// The capture's `RTLSDRSampleSink`: stamps the time and hands the buffer to the ring.
final class CaptureSink: RTLSDRSampleSink, @unchecked Sendable {
    let ring: SampleRing
    let clock: RTLSDRClock
    /// Clock time of the last USB buffer (0: none yet).
    let lastSampleAt = Atomic<UInt64>(0)

    init(ring: SampleRing, clock: RTLSDRClock) {
        self.ring = ring
        self.clock = clock
    }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        lastSampleAt.store(clock.now(), ordering: .relaxed)
        ring.produce(bytes)
    }
}
