import Foundation
import Synchronization
@testable import Radio
import RadioTestSupport

/// Helpers for the RTL-SDR tests: the recording, a hand-driven clock, a log that can be
/// waited on, and a capture over the fake with test-friendly options.
enum RTLSDRFixture {
    /// `../shared/iq/modes1.bin` from the package root (uc8, 713 736 bytes).
    static let recordingPath: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("../shared/iq/modes1.bin").standardized.path
    }()

    static let recording: [UInt8] = {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: recordingPath)))) ?? []
    }()

    /// The bytes a block starting at `firstSample` must hold when the fake plays the
    /// recording from its start and nothing was skipped.
    static func expectedBytes(firstSample: UInt64, count: Int, in source: [UInt8] = recording) -> [UInt8] {
        var offset = Int((firstSample * 2) % UInt64(source.count))
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for _ in 0..<count {
            bytes.append(source[offset])
            offset += 1
            if offset == source.count { offset = 0 }
        }
        return bytes
    }

    /// Small blocks, a small ring, no watchdog thread, 1 ms back-off.
    static func options(ring: Int = 4, bufferLength: Int = 16384) -> RTLSDROptions {
        var o = RTLSDROptions()
        o.bufferLength = bufferLength
        o.ringBlocks = ring
        o.watchdogInterval = nil
        o.stallTimeout = .seconds(5)
        o.backoff = RTLSDRBackoff(first: .milliseconds(1), maximum: .milliseconds(4))
        return o
    }

    static func dongle(_ serial: String, samples: [UInt8] = recording) -> FakeRTLSDRDriver.Dongle {
        FakeRTLSDRDriver.Dongle(serial: serial, samples: samples)
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let value = Mutex<UInt64>(1_000_000_000)
    var clock: RTLSDRClock { RTLSDRClock { [self] in value.withLock { $0 } } }
    func advance(_ d: Duration) { value.withLock { $0 += d.nanoseconds } }
}

/// Collects log lines; tests wait for a line to appear.
final class LogCollector: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [String] = []

    var sink: RTLSDRLog { { [self] line in lock.lock(); lines.append(line); lock.broadcast(); lock.unlock() } }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    func count(containing text: String) -> Int { all.filter { $0.contains(text) }.count }

    /// Waits until at least `n` lines contain `text` (5 s at most).
    @discardableResult
    func wait(for text: String, count n: Int = 1, timeout: Double = 5) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while lines.filter({ $0.contains(text) }).count < n {
            if !lock.wait(until: deadline) { return false }
        }
        return true
    }
}
