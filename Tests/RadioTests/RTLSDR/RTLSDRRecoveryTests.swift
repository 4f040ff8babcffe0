import Demod
import Foundation
import Testing
@testable import Radio
import RadioTestSupport

/// Watchdog and recovery over the fake dongle: stalls, unplugs, USB errors, giving up.
@Suite("RTLSDRCapture recovery")
struct RTLSDRRecoveryTests {
    let blockSamples: UInt64 = 8192

    @Test("a stall: after stallTimeout without samples the watchdog restarts the dongle and capture continues")
    func recoversFromStall() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        let clock = ManualClock()
        let capture = RTLSDRCapture(driver: fake, options: RTLSDRFixture.options(), clock: clock.clock, log: logs.sink)
        try capture.start()
        defer { capture.stop() }
        fake.allow(buffers: 3)
        for k in 0..<3 { #expect(try capture.nextBlock()?.firstSample == UInt64(k) * blockSamples) }

        #expect(!capture.checkWatchdog())
        clock.advance(.seconds(4))
        #expect(!capture.checkWatchdog())       // 4 s < 5 s
        clock.advance(.seconds(2))
        #expect(capture.checkWatchdog())        // 6 s without samples
        #expect(logs.count(containing: "no samples from dongle serial 00000001 for 6.0 s; restarting it") == 1)
        #expect(logs.wait(for: "is back"))
        #expect(capture.recoveries == 1)
        #expect(fake.snapshot.opens == 2 && fake.snapshot.closes == 1)

        fake.allow(buffers: 1)
        let next = try #require(try capture.nextBlock())
        // The dongle's data continues where it stopped; the sample index jumps over the 6 s
        // outage (6 s × 2.4 MS/s) so timestamps keep following real time.
        #expect(next.firstSample == 3 * blockSamples + 14_400_000)
        #expect(next.bytes == RTLSDRFixture.expectedBytes(firstSample: 3 * blockSamples, count: 16384))
        #expect(capture.samplesDropped == 0)
        // The reopened dongle was set up again before streaming.
        let reopened = Array(fake.calls.drop(while: { $0 != .close(serial: "00000001") }))
        #expect(reopened.prefix(7) == [
            .close(serial: "00000001"), .open(index: 0), .setTunerGainMode(manual: true), .setTunerGain(496),
            .setCenterFrequency(1_090_000_000), .setSampleRate(2_400_000), .resetBuffer,
        ])
    }

    @Test("the watchdog thread notices a stall on its own")
    func watchdogThread() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        var options = RTLSDRFixture.options()
        options.watchdogInterval = .milliseconds(10)
        options.stallTimeout = .milliseconds(100)
        let capture = RTLSDRCapture(driver: fake, options: options, log: logs.sink)
        try capture.start()
        defer { capture.stop() }
        fake.allow(buffers: 2)
        for _ in 0..<2 { _ = try capture.nextBlock() }
        #expect(logs.wait(for: "no samples from dongle"))
        #expect(logs.wait(for: "is back"))
        fake.allow(buffers: 1)
        #expect(try capture.nextBlock() != nil)
        #expect(capture.recoveries >= 1)
    }

    @Test("an unplug: reopen attempts fail with back-off until the same dongle (by serial) is back at another index")
    func recoversFromUnplug() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("A"), RTLSDRFixture.dongle("B")])
        let logs = LogCollector()
        let capture = RTLSDRCapture(driver: fake, selector: .argument("A"), options: RTLSDRFixture.options(), log: logs.sink)
        try capture.start()
        defer { capture.stop() }
        fake.allow(buffers: 2)
        for _ in 0..<2 { _ = try capture.nextBlock() }

        fake.unplug(serial: "A")
        #expect(logs.wait(for: "dongle serial A stopped streaming: rtlsdr_read_async: LIBUSB_ERROR_NO_DEVICE (-4)"))
        #expect(logs.wait(for: "reopening dongle serial A failed: it is not plugged in", count: 3))
        #expect(capture.isRecovering)
        #expect(fake.snapshot.opens == 1)      // B (now index 0) was never opened instead

        fake.replug(serial: "A", at: 1)
        #expect(logs.wait(for: "dongle serial A is back"))
        #expect(!capture.isRecovering)
        #expect(capture.recoveries == 1)
        #expect(capture.deviceInfo?.index == 1)
        #expect(fake.calls.last(where: { if case .open = $0 { true } else { false } }) == .open(index: 1))

        fake.allow(buffers: 1)
        let next = try #require(try capture.nextBlock())
        #expect(next.bytes == RTLSDRFixture.expectedBytes(firstSample: 2 * blockSamples, count: 16384))
        #expect(next.firstSample >= 2 * blockSamples)
    }

    @Test("a USB error ending the stream: logged with its libusb name, the dongle is reopened")
    func recoversFromUSBError() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        let capture = RTLSDRCapture(driver: fake, options: RTLSDRFixture.options(), log: logs.sink)
        try capture.start()
        defer { capture.stop() }
        fake.allow(buffers: 1)
        _ = try capture.nextBlock()
        fake.breakStream(code: -1)
        #expect(logs.wait(for: "stopped streaming: rtlsdr_read_async: LIBUSB_ERROR_IO (-1); reopening it"))
        #expect(logs.wait(for: "is back"))
        fake.allow(buffers: 1)
        #expect(try capture.nextBlock() != nil)
    }

    @Test("a reopen that fails while setting up the dongle is retried")
    func retriesFailedSetup() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        let capture = RTLSDRCapture(driver: fake, options: RTLSDRFixture.options(), log: logs.sink)
        try capture.start()
        defer { capture.stop() }
        fake.fail("rtlsdr_set_center_freq", code: -9, times: 2)
        fake.breakStream(code: -1)
        #expect(logs.wait(for: "is back"))
        #expect(logs.count(containing: "rtlsdr_set_center_freq: LIBUSB_ERROR_PIPE (-9)") == 2)
        #expect(fake.snapshot.opens == 4 && fake.snapshot.closes == 3)
        #expect(capture.recoveries == 1)
    }

    @Test("with maxReopenAttempts the capture gives up: buffered blocks, then an error")
    func givesUp() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        var options = RTLSDRFixture.options()
        options.maxReopenAttempts = 3
        let capture = RTLSDRCapture(driver: fake, options: options, log: logs.sink)
        try capture.start()
        defer { capture.stop() }
        fake.allow(buffers: 1)
        #expect(fake.waitUntil { $0.delivered == 1 })
        fake.unplug(serial: "00000001")
        #expect(try capture.nextBlock()?.firstSample == 0)
        #expect(throws: SampleSourceError.message("RTL-SDR dongle serial 00000001 did not come back after 3 attempts to reopen it")) {
            try capture.nextBlock()
        }
        #expect(capture.isFinished)
        #expect(logs.count(containing: "reopening dongle serial 00000001 failed") == 3)
    }

    @Test("stop during the back-off wait returns at once")
    func stopDuringBackoff() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        var options = RTLSDRFixture.options()
        options.backoff = RTLSDRBackoff(first: .seconds(30), maximum: .seconds(60))
        let capture = RTLSDRCapture(driver: fake, options: options, log: logs.sink)
        try capture.start()
        #expect(fake.waitUntil { $0.streaming == 1 })
        fake.unplug(serial: "00000001")
        #expect(logs.wait(for: "stopped streaming"))
        #expect(capture.isRecovering)
        let started = ContinuousClock.now
        capture.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(capture.threadsJoined)
        #expect(try capture.nextBlock() == nil)
    }

    @Test("back-off doubles from first up to maximum")
    func backoffSchedule() {
        let b = RTLSDRBackoff(first: .milliseconds(500), maximum: .seconds(30))
        #expect((0..<9).map { b.delay(attempt: $0) } == [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16),
            .seconds(30), .seconds(30), .seconds(30),
        ])
        #expect(b.delay(attempt: 10_000) == .seconds(30))
    }
}
