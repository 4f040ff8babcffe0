import Demod
import Foundation
import Testing
@testable import Radio
import RadioTestSupport

/// The capture thread and ring over the fake dongle playing modes1.bin: ordering, drops,
/// shutdown, settings, start-up errors.
@Suite("RTLSDRCapture")
struct RTLSDRCaptureTests {
    let blockSamples: UInt64 = 8192   // 16384-byte USB buffers of uc8

    private func makeCapture(_ fake: FakeRTLSDRDriver, _ logs: LogCollector, options: RTLSDROptions = RTLSDRFixture.options(),
                             selector: RTLSDRDeviceSelector = .first) -> RTLSDRCapture {
        RTLSDRCapture(driver: fake, selector: selector, options: options, log: logs.sink)
    }

    @Test("the recording is there")
    func recordingLoaded() {
        #expect(RTLSDRFixture.recording.count == 713_736)
    }

    @Test("no block is lost or reordered while the consumer keeps up (the ring filled to its last free slot)")
    func keepsUp() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let capture = makeCapture(fake, LogCollector(), options: RTLSDRFixture.options(ring: 4))
        try capture.start()
        defer { capture.stop() }
        // 4 slots, one lent to the consumer: the producer may run 3 blocks ahead.
        fake.allow(buffers: 3)
        var expectedFirst: UInt64 = 0
        for _ in 0..<120 {    // 1.97 MB: the 713 736-byte recording wraps around twice
            let block = try #require(try capture.nextBlock())
            #expect(block.firstSample == expectedFirst)
            #expect(block.bytes == RTLSDRFixture.expectedBytes(firstSample: block.firstSample, count: 16384))
            expectedFirst += UInt64(block.sampleCount)
            fake.allow(buffers: 1)
        }
        #expect(capture.samplesDropped == 0)
        #expect(capture.format == .uc8)
    }

    @Test("when the consumer falls behind whole blocks are dropped, counted exactly, and firstSample stays exact")
    func dropsCounted() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let capture = makeCapture(fake, LogCollector(), options: RTLSDRFixture.options(ring: 4))
        try capture.start()
        defer { capture.stop() }
        fake.allow(buffers: 10)
        #expect(fake.waitUntil { $0.delivered == 10 })
        let firsts = try (0..<4).map { _ in try #require(try capture.nextBlock()).firstSample }
        #expect(firsts == [0, 1, 2, 3].map { $0 * blockSamples })
        #expect(capture.samplesDropped == 6 * blockSamples)
        #expect(capture.blocksDropped == 6)
        fake.allow(buffers: 1)
        let next = try #require(try capture.nextBlock())
        #expect(next.firstSample == 10 * blockSamples)
        #expect(next.bytes == RTLSDRFixture.expectedBytes(firstSample: next.firstSample, count: 16384))
    }

    @Test("stop cancels streaming, joins the threads, closes the dongle; buffered blocks are still read, then nil")
    func cleanShutdown() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        var options = RTLSDRFixture.options(ring: 4)
        options.watchdogInterval = .milliseconds(10)   // a watchdog thread to join as well
        let capture = makeCapture(fake, LogCollector(), options: options)
        try capture.start()
        fake.allow(buffers: 3)
        #expect(fake.waitUntil { $0.delivered == 3 })
        #expect(try capture.nextBlock()?.firstSample == 0)
        capture.stop()
        #expect(capture.isFinished)
        #expect(capture.threadsJoined)
        let s = fake.snapshot
        #expect(s.streaming == 0)
        #expect(s.opens == 1 && s.closes == 1)
        #expect(fake.calls.contains(.cancelAsync))
        #expect(fake.calls.last == .close(serial: "00000001"))
        #expect(try capture.nextBlock()?.firstSample == blockSamples)
        #expect(try capture.nextBlock()?.firstSample == 2 * blockSamples)
        #expect(try capture.nextBlock() == nil)
        capture.stop()   // idempotent
        #expect(fake.snapshot.closes == 1)
    }

    @Test("stop while the dongle delivers nothing returns promptly")
    func stopWhileStalled() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let capture = makeCapture(fake, LogCollector())
        try capture.start()
        #expect(fake.waitUntil { $0.streaming == 1 })
        let started = ContinuousClock.now
        capture.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(capture.threadsJoined)
        #expect(fake.snapshot.closes == 1)
        #expect(try capture.nextBlock() == nil)
    }

    @Test("stop from two threads at once: both return after the threads are joined")
    func concurrentStop() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let capture = makeCapture(fake, LogCollector())
        try capture.start()
        #expect(fake.waitUntil { $0.streaming == 1 })
        let other = try JoinableThread(name: "test-stop") { capture.stop() }
        capture.stop()
        #expect(capture.threadsJoined)
        other.join()
        #expect(fake.snapshot.closes == 1)
    }

    @Test("stop before start finishes the source")
    func stopBeforeStart() throws {
        let capture = makeCapture(FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("1")]), LogCollector())
        capture.stop()
        #expect(try capture.nextBlock() == nil)
        #expect(throws: RTLSDRCaptureError.notStartable) { try capture.start() }
    }

    @Test("defaults: max gain, 1090 MHz, 2.4 MS/s, no correction, bias-tee untouched, buffer reset, then streaming")
    func defaultSettings() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let capture = makeCapture(fake, LogCollector())
        try capture.start()
        #expect(fake.waitUntil { $0.streaming == 1 })
        capture.stop()
        #expect(Array(fake.calls.prefix(7)) == [
            .open(index: 0), .setTunerGainMode(manual: true), .setTunerGain(496),
            .setCenterFrequency(1_090_000_000), .setSampleRate(2_400_000), .resetBuffer,
            .readAsync(bufferCount: 15, bufferLength: 16384),
        ])
        #expect(capture.sampleRate == .rate2_4)
        #expect(capture.gainDB == 49.6)
        #expect(capture.deviceInfo?.tuner == .r820t)
        #expect(capture.supportedGains == FakeRTLSDRDriver.r820tGains)
    }

    @Test("a dB gain snaps to the nearest supported one; ppm, 2.0 MS/s and bias-tee are applied")
    func explicitSettings() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        var options = RTLSDRFixture.options()
        options.gain = .decibels(42)
        options.ppm = -3
        options.sampleRate = .rate2_0
        options.biasTee = true
        let capture = makeCapture(fake, LogCollector(), options: options)
        try capture.start()
        capture.stop()
        #expect(Array(fake.calls.prefix(8)) == [
            .open(index: 0), .setTunerGainMode(manual: true), .setTunerGain(421), .setFrequencyCorrection(-3),
            .setCenterFrequency(1_090_000_000), .setSampleRate(2_000_000), .setBiasTee(true), .resetBuffer,
        ])
        #expect(capture.gainDB == 42.1)
        #expect(capture.sampleRate == .rate2_0)
    }

    @Test("agc hands the gain to the tuner; auto starts at the top gain with a controller")
    func agcAndAuto() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        var options = RTLSDRFixture.options()
        options.gain = .tunerAGC
        let agc = makeCapture(fake, LogCollector(), options: options)
        try agc.start()
        agc.stop()
        #expect(fake.calls[1] == .setTunerGainMode(manual: false))
        #expect(agc.gainDB == nil)
        #expect(agc.makeAutoGainController() == nil)

        options.gain = .auto
        let auto = makeCapture(fake, LogCollector(), options: options)
        try auto.start()
        defer { auto.stop() }
        #expect(auto.gainDB == 49.6)
        let controller = try #require(auto.makeAutoGainController())
        #expect(controller.gainTenths == 496)
    }

    @Test("setGain snaps, reaches the dongle, and is reapplied after a reopen")
    func setGainSurvivesReopen() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        let capture = makeCapture(fake, logs)
        try capture.start()
        defer { capture.stop() }
        #expect(fake.waitUntil { $0.streaming == 1 })
        #expect(try capture.setGain(tenthsDB: 300) == 297)
        #expect(capture.gainDB == 29.7)
        #expect(fake.calls.last == .setTunerGain(297))
        fake.breakStream(code: -1)
        #expect(logs.wait(for: "is back"))
        let afterReopen = fake.calls.drop(while: { $0 != .open(index: 0) }).dropFirst().drop(while: { $0 != .open(index: 0) })
        #expect(afterReopen.contains(.setTunerGain(297)))
    }

    @Test("start-up errors say what to do: permissions → udev rules")
    func permissionError() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        fake.fail("rtlsdr_open", code: -3)
        let error = try startError(makeCapture(fake, LogCollector()))
        #expect(error == .device("0: Realtek RTL2838UHIDIR, serial 00000001", RTLSDRError(function: "rtlsdr_open", code: -3)))
        let text = error.description
        #expect(text.contains("LIBUSB_ERROR_ACCESS"))
        #expect(text.contains("sudo cp udev/60-flytracker-rtlsdr.rules /etc/udev/rules.d/"))
        #expect(text.contains("udevadm control --reload-rules"))
        #expect(text.contains("usermod -aG plugdev"))
        #expect(!text.contains("\n"))
    }

    @Test("start-up errors say what to do: busy → blacklist the DVB-T driver")
    func busyError() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        fake.fail("rtlsdr_open", code: -6)
        let text = try startError(makeCapture(fake, LogCollector())).description
        #expect(text.contains("LIBUSB_ERROR_BUSY"))
        #expect(text.contains("blacklist dvb_usb_rtl28xxu"))
        #expect(text.contains("/etc/modprobe.d/"))
        #expect(text.contains("rmmod"))
    }

    @Test("start-up errors say what to do: no dongle → what was looked for")
    func noDongle() throws {
        let error = try startError(makeCapture(FakeRTLSDRDriver(dongles: []), LogCollector()))
        #expect(error == .noDongle)
        #expect(error.description.contains("no RTL-SDR dongle found"))
        #expect(error.description.contains("0bda:2838"))
    }

    @Test("--device that matches nothing lists the dongles there are")
    func noMatch() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001"), RTLSDRFixture.dongle("00000002")])
        let error = try startError(makeCapture(fake, LogCollector(), selector: .argument("7")))
        #expect(error == .noMatch(selector: "--device 7", available: [
            "0: Realtek RTL2838UHIDIR, serial 00000001", "1: Realtek RTL2838UHIDIR, serial 00000002",
        ]))
    }

    @Test("a setting the dongle refuses fails start, names the C function, and releases the dongle")
    func configurationError() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001")])
        fake.fail("rtlsdr_set_sample_rate", code: -9)
        let error = try startError(makeCapture(fake, LogCollector()))
        guard case .device(_, let cause) = error else { Issue.record("\(error)"); return }
        #expect(cause == RTLSDRError(function: "rtlsdr_set_sample_rate", code: -9))
        #expect(fake.snapshot.closes == 1)
    }

    @Test("--device picks by serial first, then by index; shared serials are reopened by index with a warning")
    func deviceSelection() throws {
        let fake = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("1"), RTLSDRFixture.dongle("0")])
        let bySerial = makeCapture(fake, LogCollector(), selector: .argument("0"))
        try bySerial.start()
        bySerial.stop()
        #expect(bySerial.deviceInfo?.index == 1)

        let twins = FakeRTLSDRDriver(dongles: [RTLSDRFixture.dongle("00000001"), RTLSDRFixture.dongle("00000001")])
        let logs = LogCollector()
        let byIndex = makeCapture(twins, logs, selector: .argument("1"))
        try byIndex.start()
        byIndex.stop()
        #expect(byIndex.deviceInfo?.index == 1)
        #expect(logs.count(containing: "2 dongles share serial 00000001") == 1)
        #expect(logs.count(containing: "rtl_eeprom") == 1)
    }

    private func startError(_ capture: RTLSDRCapture) throws -> RTLSDRCaptureError {
        do {
            try capture.start()
        } catch {
            return error
        }
        capture.stop()
        throw RTLSDRCaptureError.notStartable
    }
}
