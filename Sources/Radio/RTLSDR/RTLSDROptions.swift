import Demod

/// How the tuner gain is set (`--gain auto|max|agc|DB`).
public enum RTLSDRGain: Sendable, Equatable, CustomStringConvertible {
    /// The tuner's highest gain (the usual choice away from airports).
    case max
    /// This many dB, snapped to the nearest gain the tuner supports.
    case decibels(Double)
    /// The tuner's own automatic gain control (rarely good for ADS-B: it chases noise).
    case tunerAGC
    /// FlyTracker's controller (`AutoGainController`): starts high, steps down while more
    /// than ~5 % of frames are above −3 dBFS or the noise floor is too high, steps up while
    /// fewer than ~1 % are.
    case auto

    /// Parses `max`, `auto`, `agc`, or a number of dB (`42`, `42.1`, `42.1dB`).
    public init?(argument: String) {
        let text = argument.lowercased().trimmingPrefix(" ")
        switch text {
        case "max": self = .max
        case "auto": self = .auto
        case "agc": self = .tunerAGC
        default:
            var number = Substring(text)
            if number.hasSuffix("db") { number = number.dropLast(2) }
            guard let value = Double(number), value.isFinite, value >= -10, value <= 100 else { return nil }
            self = .decibels(value)
        }
    }

    public var description: String {
        switch self {
        case .max: "max"
        case .auto: "auto"
        case .tunerAGC: "agc"
        case .decibels(let db): "\(db) dB"
        }
    }

    /// The supported gain (tenths of a dB) nearest to `tenthsDB`; on a tie the lower one.
    /// nil when `gains` is empty.
    public static func nearest(_ tenthsDB: Int, in gains: [Int]) -> Int? {
        gains.min { a, b in
            let da = abs(a - tenthsDB), db = abs(b - tenthsDB)
            return da != db ? da < db : a < b
        }
    }
}

/// Which dongle to use (`--device INDEX|SERIAL`).
public enum RTLSDRDeviceSelector: Sendable, Equatable, CustomStringConvertible {
    /// The first dongle (index 0).
    case first
    /// What the user typed: an exact serial match wins, then an index.
    case argument(String)
    /// Dongle number `index` in librtlsdr's order.
    case index(Int)
    /// The dongle with this USB serial.
    case serial(String)

    /// `nil` or empty: the first dongle.
    public init(_ argument: String?) {
        if let argument, !argument.isEmpty { self = .argument(argument) } else { self = .first }
    }

    public var description: String {
        switch self {
        case .first: "the first dongle"
        case .argument(let text): "--device \(text)"
        case .index(let i): "index \(i)"
        case .serial(let s): "serial \(s)"
        }
    }
}

/// Back-off between attempts to reopen a lost dongle: `first`, doubling up to `maximum`.
public struct RTLSDRBackoff: Sendable, Equatable {
    public var first: Duration
    public var maximum: Duration

    public init(first: Duration = .milliseconds(500), maximum: Duration = .seconds(30)) {
        self.first = first
        self.maximum = maximum
    }

    /// The wait before attempt `attempt` (0-based).
    public func delay(attempt: Int) -> Duration {
        var d = first
        for _ in 0..<min(attempt, 40) {
            d = d * 2
            if d >= maximum { return maximum }
        }
        return min(d, maximum)
    }
}

/// Everything `RTLSDRCapture` needs besides the dongle: radio settings, buffering, watchdog.
public struct RTLSDROptions: Sendable, Equatable {
    /// 2.4 MS/s (default) or 2.0 MS/s.
    public var sampleRate: SampleRate = .rate2_4
    /// Tuner frequency, Hz.
    public var centerFrequency: UInt32 = 1_090_000_000
    public var gain: RTLSDRGain = .max
    /// Crystal correction in parts per million (0: none).
    public var ppm: Int = 0
    /// Power an LNA through the antenna input (RTL-SDR Blog dongles). Off: the bias-tee is
    /// not touched.
    public var biasTee: Bool = false
    /// Bytes per USB transfer and per ring block: a multiple of 16384 (librtlsdr requires a
    /// multiple of 512). 256 KiB ≈ 55 ms at 2.4 MS/s.
    public var bufferLength: Int = 16 * 16384
    /// USB transfers librtlsdr keeps in flight.
    public var usbBufferCount: Int = 15
    /// Blocks in the ring between the capture thread and the demodulator (16 × 55 ms ≈ 0.9 s).
    public var ringBlocks: Int = 16
    /// No samples for this long: the watchdog restarts the dongle.
    public var stallTimeout: Duration = .seconds(5)
    /// How often the watchdog thread looks; nil: no watchdog thread (call
    /// `RTLSDRCapture.checkWatchdog()` yourself, as the tests do).
    public var watchdogInterval: Duration? = .milliseconds(500)
    /// Waits between reopen attempts.
    public var backoff = RTLSDRBackoff()
    /// Give up after this many failed reopen attempts in a row (nil: never give up).
    public var maxReopenAttempts: Int? = nil

    public init() {}
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (ns, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : ns &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// Seconds as a Double, for messages and `Date` arithmetic.
    var seconds: Double {
        let (s, a) = components
        return Double(s) + Double(a) / 1e18
    }
}
