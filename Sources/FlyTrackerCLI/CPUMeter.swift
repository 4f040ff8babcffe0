#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Feeds

/// Processor time for stats.json's `cpu` block (milliseconds per period), read where the
/// receiver loop runs: `demod` is that thread's time (demodulating, decoding, the table; for
/// a file or the simulator also reading the samples), `background` the rest of the process
/// (the network thread, the web server, the store, a dongle's capture thread). `reader` stays
/// 0: a dongle's USB reading is in `background`, a file's in `demod`.
struct CPUMeter {
    private var lastThread: Double
    private var lastProcess: Double

    init() {
        lastThread = Self.seconds(CLOCK_THREAD_CPUTIME_ID)
        lastProcess = Self.seconds(CLOCK_PROCESS_CPUTIME_ID)
    }

    static func seconds(_ clock: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(clock, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// The time used since the previous call, on the calling thread (the receiver loop's).
    mutating func period() -> CPUStatistics {
        let thread = Self.seconds(CLOCK_THREAD_CPUTIME_ID)
        let process = Self.seconds(CLOCK_PROCESS_CPUTIME_ID)
        let demod = max(0, thread - lastThread)
        let background = max(0, (process - lastProcess) - demod)
        lastThread = thread
        lastProcess = process
        return CPUStatistics(demod: demod * 1000, reader: 0, background: background * 1000)
    }
}
