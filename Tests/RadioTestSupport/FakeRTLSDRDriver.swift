import Foundation
import Radio

/// A stand-in for librtlsdr that plays IQ bytes (e.g. an uc8 recording) through the same
/// `readAsync` → sink path as a dongle, and misbehaves on request: stalls, fails calls with
/// chosen codes, breaks a running stream, unplugs and replugs dongles. Used by the tests and
/// for trying `flytracker` wiring without hardware.
///
/// Delivery is gated: `readAsync` hands out one USB buffer per permit (`allow(buffers:)`),
/// or runs free when created with `freeRunning`. All state sits behind one lock; every change
/// wakes waiters, so tests wait for conditions instead of sleeping.
public final class FakeRTLSDRDriver: RTLSDRDriver, @unchecked Sendable {
    /// One simulated dongle.
    public struct Dongle: Sendable, Equatable {
        public var name: String
        public var manufacturer: String
        public var product: String
        public var serial: String
        public var tuner: RTLSDRTuner
        public var gains: [Int]
        /// The bytes it "receives", played in a loop from where the last stream stopped.
        public var samples: [UInt8]

        public init(serial: String, samples: [UInt8], tuner: RTLSDRTuner = .r820t, gains: [Int] = FakeRTLSDRDriver.r820tGains,
                    name: String = "Generic RTL2832U OEM", manufacturer: String = "Realtek", product: String = "RTL2838UHIDIR") {
            self.serial = serial
            self.samples = samples.isEmpty ? [127, 127] : samples
            self.tuner = tuner
            self.gains = gains
            self.name = name
            self.manufacturer = manufacturer
            self.product = product
        }
    }

    /// A device-level call the fake received (successful or not).
    public enum Call: Sendable, Equatable {
        case open(index: Int), close(serial: String)
        case setSampleRate(UInt32), setCenterFrequency(UInt32), setTunerGainMode(manual: Bool), setTunerGain(Int)
        case setFrequencyCorrection(Int), setBiasTee(Bool), resetBuffer
        case readAsync(bufferCount: Int, bufferLength: Int), cancelAsync
    }

    /// Counters for tests to wait on.
    public struct Snapshot: Sendable {
        /// USB buffers delivered to sinks.
        public var delivered: Int
        public var opens: Int
        public var closes: Int
        /// Open attempts that failed (injected failures, unplugged dongles).
        public var failedOpens: Int
        /// `readAsync` calls currently running.
        public var streaming: Int
        public var readAsyncCalls: Int
        public var permits: Int
    }

    /// The R820T's gain table (tenths of a dB), as librtlsdr lists it.
    public static let r820tGains = [0, 9, 14, 27, 37, 77, 87, 125, 144, 157, 166, 197, 207, 229, 254, 280, 297, 328, 338, 364, 372, 386, 402, 421, 434, 439, 445, 480, 496]

    let lock = NSCondition()
    var plugged: [Dongle]
    var unplugged: [Dongle] = []
    var positions: [String: Int] = [:]
    var failures: [String: [Int32]] = [:]
    var permits: Int
    var stalled = false
    var streamError: Int32?
    var devices: [ObjectIdentifier: FakeRTLSDRDevice] = [:]
    var counters = Snapshot(delivered: 0, opens: 0, closes: 0, failedOpens: 0, streaming: 0, readAsyncCalls: 0, permits: 0)
    var log: [Call] = []

    /// Dongles in index order. `freeRunning`: deliver buffers as fast as the sink takes them.
    public init(dongles: [Dongle], freeRunning: Bool = false) {
        plugged = dongles
        permits = freeRunning ? Int.max : 0
    }

    /// A fake with one dongle playing `file` (e.g. `../shared/iq/modes1.bin`).
    public convenience init(playing file: String, serial: String = "00000001", freeRunning: Bool = false) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        self.init(dongles: [Dongle(serial: serial, samples: [UInt8](data))], freeRunning: freeRunning)
    }

    // MARK: test controls

    /// Lets `count` more USB buffers through.
    public func allow(buffers count: Int) { change { if $0.permits != Int.max { $0.permits += count } } }
    /// Stops delivering (the stream stays open, as a hung dongle's does) / delivers again.
    public func stall() { change { $0.stalled = true } }
    public func resume() { change { $0.stalled = false } }
    /// The next `times` calls of C function `function` fail with `code`.
    public func fail(_ function: String, code: Int32, times: Int = 1) {
        change { $0.failures[function, default: []] += Array(repeating: code, count: times) }
    }
    /// A running (or the next) stream ends with `code`, like a burst of USB transfer errors.
    public func breakStream(code: Int32 = -1) { change { $0.streamError = code } }
    /// The dongle disappears: its open handle is lost, its stream ends, enumeration skips it.
    public func unplug(serial: String) {
        change { fake in
            guard let i = fake.plugged.firstIndex(where: { $0.serial == serial }) else { return }
            fake.unplugged.append(fake.plugged.remove(at: i))
            for device in fake.devices.values where device.dongle.serial == serial { device.lost = true }
        }
    }
    /// The dongle is back, at `index` (default: last).
    public func replug(serial: String, at index: Int? = nil) {
        change { fake in
            guard let i = fake.unplugged.firstIndex(where: { $0.serial == serial }) else { return }
            let dongle = fake.unplugged.remove(at: i)
            fake.plugged.insert(dongle, at: min(index ?? fake.plugged.count, fake.plugged.count))
        }
    }

    /// Calls received so far, in order.
    public var calls: [Call] { locked { $0.log } }
    public var snapshot: Snapshot { locked { fake in var s = fake.counters; s.permits = fake.permits; return s } }

    /// Waits until `condition` holds (checked on every change), at most `timeout` seconds.
    @discardableResult
    public func waitUntil(timeout: Double = 5, _ condition: (Snapshot) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            var s = counters
            s.permits = permits
            if condition(s) { return true }
            if !lock.wait(until: deadline) { return false }
        }
    }

    // MARK: RTLSDRDriver

    public func deviceCount() -> Int { locked { $0.plugged.count } }

    public func deviceName(index: Int) -> String {
        locked { fake in fake.plugged.indices.contains(index) ? fake.plugged[index].name : "" }
    }

    public func usbStrings(index: Int) throws(RTLSDRError) -> RTLSDRUSBStrings {
        try locked { (fake) throws(RTLSDRError) in
            try fake.injected("rtlsdr_get_device_usb_strings")
            guard fake.plugged.indices.contains(index) else { throw RTLSDRError(function: "rtlsdr_get_device_usb_strings", code: -2) }
            let d = fake.plugged[index]
            return RTLSDRUSBStrings(manufacturer: d.manufacturer, product: d.product, serial: d.serial)
        }
    }

    public func index(serial: String) throws(RTLSDRError) -> Int {
        try locked { (fake) throws(RTLSDRError) in
            try fake.injected("rtlsdr_get_index_by_serial")
            guard !fake.plugged.isEmpty else { throw RTLSDRError(function: "rtlsdr_get_index_by_serial", code: -2) }
            guard let i = fake.plugged.firstIndex(where: { $0.serial == serial }) else {
                throw RTLSDRError(function: "rtlsdr_get_index_by_serial", code: -3)
            }
            return i
        }
    }

    public func open(index: Int) throws(RTLSDRError) -> any RTLSDRDeviceHandle {
        try locked { (fake) throws(RTLSDRError) -> any RTLSDRDeviceHandle in
            fake.log.append(.open(index: index))
            do throws(RTLSDRError) {
                try fake.injected("rtlsdr_open")
                guard fake.plugged.indices.contains(index) else { throw RTLSDRError(function: "rtlsdr_open", code: -1) }
            } catch {
                fake.counters.failedOpens += 1
                fake.lock.broadcast()
                throw error
            }
            let dongle = fake.plugged[index]
            let device = FakeRTLSDRDevice(driver: fake, dongle: dongle)
            fake.devices[ObjectIdentifier(device)] = device
            fake.counters.opens += 1
            fake.lock.broadcast()
            return device
        }
    }

    // MARK: internals (lock held unless noted)

    func locked<T, E: Error>(_ body: (FakeRTLSDRDriver) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }

    func change(_ body: (FakeRTLSDRDriver) -> Void) {
        lock.lock()
        body(self)
        lock.broadcast()
        lock.unlock()
    }

    /// Throws the next injected failure for `function`, if any.
    func injected(_ function: String) throws(RTLSDRError) {
        guard var queue = failures[function], !queue.isEmpty else { return }
        let code = queue.removeFirst()
        failures[function] = queue
        throw RTLSDRError(function: function, code: code)
    }

    /// Copies the next `buffer.count` bytes of `dongle`'s recording into `buffer`.
    func fill(_ buffer: inout [UInt8], from dongle: Dongle) {
        var position = positions[dongle.serial, default: 0]
        let source = dongle.samples
        for i in buffer.indices {
            buffer[i] = source[position]
            position += 1
            if position == source.count { position = 0 }
        }
        positions[dongle.serial] = position
    }
}

/// An open fake dongle.
final class FakeRTLSDRDevice: RTLSDRDeviceHandle, @unchecked Sendable {
    unowned let driver: FakeRTLSDRDriver
    let dongle: Dongle
    typealias Dongle = FakeRTLSDRDriver.Dongle
    // Guarded by driver.lock.
    var streaming = false
    var cancelled = false
    var closed = false
    var lost = false

    init(driver: FakeRTLSDRDriver, dongle: Dongle) {
        self.driver = driver
        self.dongle = dongle
    }

    /// Records `call`, then fails if injected or (for device calls) if the dongle is gone.
    private func perform(_ call: FakeRTLSDRDriver.Call, _ function: String) throws(RTLSDRError) {
        try driver.locked { (fake) throws(RTLSDRError) in
            fake.log.append(call)
            try fake.injected(function)
            if lost { throw RTLSDRError(function: function, code: -4) }
        }
    }

    func close() throws(RTLSDRError) {
        driver.change { fake in
            fake.log.append(.close(serial: dongle.serial))
            closed = true
            fake.devices[ObjectIdentifier(self)] = nil
            fake.counters.closes += 1
        }
    }

    func setSampleRate(_ hertz: UInt32) throws(RTLSDRError) { try perform(.setSampleRate(hertz), "rtlsdr_set_sample_rate") }
    func setCenterFrequency(_ hertz: UInt32) throws(RTLSDRError) { try perform(.setCenterFrequency(hertz), "rtlsdr_set_center_freq") }
    func setTunerGainMode(manual: Bool) throws(RTLSDRError) { try perform(.setTunerGainMode(manual: manual), "rtlsdr_set_tuner_gain_mode") }
    func setTunerGain(tenthsDB: Int) throws(RTLSDRError) { try perform(.setTunerGain(tenthsDB), "rtlsdr_set_tuner_gain") }
    func setFrequencyCorrection(ppm: Int) throws(RTLSDRError) { try perform(.setFrequencyCorrection(ppm), "rtlsdr_set_freq_correction") }
    func setBiasTee(_ on: Bool) throws(RTLSDRError) { try perform(.setBiasTee(on), "rtlsdr_set_bias_tee") }
    func resetBuffer() throws(RTLSDRError) { try perform(.resetBuffer, "rtlsdr_reset_buffer") }

    func tunerGains() throws(RTLSDRError) -> [Int] {
        try driver.locked { (fake) throws(RTLSDRError) in
            try fake.injected("rtlsdr_get_tuner_gains")
            guard !dongle.gains.isEmpty else { throw RTLSDRError(function: "rtlsdr_get_tuner_gains", code: 0) }
            return dongle.gains
        }
    }

    func tunerType() -> RTLSDRTuner { dongle.tuner }

    /// Like librtlsdr: −2 when not streaming.
    func cancelAsync() throws(RTLSDRError) {
        try driver.locked { (fake) throws(RTLSDRError) in
            fake.log.append(.cancelAsync)
            guard streaming else { throw RTLSDRError(function: "rtlsdr_cancel_async", code: -2) }
            cancelled = true
            fake.lock.broadcast()
        }
    }

    /// Delivers one buffer per permit to `sink` on this thread until cancelled, unplugged or
    /// broken (then throws that code, −4 for an unplug).
    func readAsync(bufferCount: Int, bufferLength: Int, into sink: any RTLSDRSampleSink) throws(RTLSDRError) {
        let lock = driver.lock
        lock.lock()
        driver.log.append(.readAsync(bufferCount: bufferCount, bufferLength: bufferLength))
        driver.counters.readAsyncCalls += 1
        do throws(RTLSDRError) {
            try driver.injected("rtlsdr_read_async")
            if lost { throw RTLSDRError(function: "rtlsdr_read_async", code: -4) }
            if streaming || closed { throw RTLSDRError(function: "rtlsdr_read_async", code: -2) }
        } catch {
            lock.unlock()
            throw error
        }
        streaming = true
        cancelled = false
        driver.counters.streaming += 1
        lock.broadcast()
        lock.unlock()
        var buffer = [UInt8](repeating: 0, count: max(2, bufferLength))
        var failure: RTLSDRError?
        while true {
            lock.lock()
            while !cancelled && !lost && driver.streamError == nil && (driver.stalled || driver.permits == 0) {
                lock.wait()
            }
            if cancelled {
                lock.unlock()
                break
            }
            if lost {
                failure = RTLSDRError(function: "rtlsdr_read_async", code: -4)
                lock.unlock()
                break
            }
            if let code = driver.streamError {
                driver.streamError = nil
                failure = RTLSDRError(function: "rtlsdr_read_async", code: code)
                lock.unlock()
                break
            }
            if driver.permits != Int.max { driver.permits -= 1 }
            driver.fill(&buffer, from: dongle)
            lock.unlock()
            buffer.withUnsafeBytes { sink.receive($0) }
            driver.change { $0.counters.delivered += 1 }
        }
        driver.change { fake in
            streaming = false
            fake.counters.streaming -= 1
        }
        if let failure { throw failure }
    }
}
