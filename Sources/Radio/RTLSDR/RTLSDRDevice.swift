import CRTLSDR

/// The real librtlsdr, through the CRTLSDR system library. Stateless: every call goes to C.
public struct LibRTLSDRDriver: RTLSDRDriver {
    public init() {}

    /// `rtlsdr_get_device_count`
    public func deviceCount() -> Int { Int(rtlsdr_get_device_count()) }

    /// Empty when there is no dongle at `index`. `rtlsdr_get_device_name`
    public func deviceName(index: Int) -> String {
        guard let index = UInt32(exactly: index), let name = rtlsdr_get_device_name(index) else { return "" }
        return String(cString: name)
    }

    /// `rtlsdr_get_device_usb_strings`
    public func usbStrings(index: Int) throws(RTLSDRError) -> RTLSDRUSBStrings {
        guard let index = UInt32(exactly: index) else { throw RTLSDRError(function: "rtlsdr_get_device_usb_strings", code: -2) }
        // librtlsdr writes up to 256 bytes into each.
        var manufacturer = [CChar](repeating: 0, count: 257)
        var product = [CChar](repeating: 0, count: 257)
        var serial = [CChar](repeating: 0, count: 257)
        let r = rtlsdr_get_device_usb_strings(index, &manufacturer, &product, &serial)
        if r < 0 { throw RTLSDRError(function: "rtlsdr_get_device_usb_strings", code: r) }
        return RTLSDRUSBStrings(
            manufacturer: Self.string(manufacturer), product: Self.string(product), serial: Self.string(serial))
    }

    /// −1: no serial given, −2: no dongles at all, −3: none with that serial.
    /// `rtlsdr_get_index_by_serial`
    public func index(serial: String) throws(RTLSDRError) -> Int {
        let r = rtlsdr_get_index_by_serial(serial)
        if r < 0 { throw RTLSDRError(function: "rtlsdr_get_index_by_serial", code: r) }
        return Int(r)
    }

    /// −1: no dongle at `index`; −3 (`LIBUSB_ERROR_ACCESS`): permissions; −6
    /// (`LIBUSB_ERROR_BUSY`): the kernel driver or another program has it. librtlsdr builds
    /// that detach the kernel driver return 0 without a device when detaching fails; that is
    /// reported as −6 too. `rtlsdr_open`
    public func open(index: Int) throws(RTLSDRError) -> any RTLSDRDeviceHandle {
        guard let index = UInt32(exactly: index) else { throw RTLSDRError(function: "rtlsdr_open", code: -1) }
        var handle: OpaquePointer?
        let r = rtlsdr_open(&handle, index)
        if r < 0 { throw RTLSDRError(function: "rtlsdr_open", code: r) }
        guard let handle else { throw RTLSDRError(function: "rtlsdr_open", code: -6) }
        return RTLSDRDevice(handle: handle)
    }

    private static func string(_ chars: [CChar]) -> String {
        let bytes = chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One open dongle (`rtlsdr_dev_t *`). Every negative return becomes an `RTLSDRError`
/// naming the C function. Obtained from `LibRTLSDRDriver.open(index:)`.
public final class RTLSDRDevice: RTLSDRDeviceHandle, @unchecked Sendable {
    // librtlsdr's handle: the capture keeps close() apart from every other call.
    private let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    @inline(__always)
    private func check(_ r: Int32, _ function: String) throws(RTLSDRError) {
        if r < 0 { throw RTLSDRError(function: function, code: r) }
    }

    /// `rtlsdr_close`
    public func close() throws(RTLSDRError) { try check(rtlsdr_close(handle), "rtlsdr_close") }

    /// `rtlsdr_set_sample_rate`
    public func setSampleRate(_ hertz: UInt32) throws(RTLSDRError) {
        try check(rtlsdr_set_sample_rate(handle, hertz), "rtlsdr_set_sample_rate")
    }

    /// `rtlsdr_set_center_freq`
    public func setCenterFrequency(_ hertz: UInt32) throws(RTLSDRError) {
        try check(rtlsdr_set_center_freq(handle, hertz), "rtlsdr_set_center_freq")
    }

    /// `rtlsdr_set_tuner_gain_mode`
    public func setTunerGainMode(manual: Bool) throws(RTLSDRError) {
        try check(rtlsdr_set_tuner_gain_mode(handle, manual ? 1 : 0), "rtlsdr_set_tuner_gain_mode")
    }

    /// `rtlsdr_set_tuner_gain`
    public func setTunerGain(tenthsDB: Int) throws(RTLSDRError) {
        guard let gain = Int32(exactly: tenthsDB) else { throw RTLSDRError(function: "rtlsdr_set_tuner_gain", code: -2) }
        try check(rtlsdr_set_tuner_gain(handle, gain), "rtlsdr_set_tuner_gain")
    }

    /// 0 (no gains: unknown tuner) is reported as an error with code 0.
    /// `rtlsdr_get_tuner_gains`
    public func tunerGains() throws(RTLSDRError) -> [Int] {
        let count = rtlsdr_get_tuner_gains(handle, nil)
        if count <= 0 { throw RTLSDRError(function: "rtlsdr_get_tuner_gains", code: count) }
        var gains = [Int32](repeating: 0, count: Int(count))
        let r = rtlsdr_get_tuner_gains(handle, &gains)
        if r <= 0 { throw RTLSDRError(function: "rtlsdr_get_tuner_gains", code: r) }
        return gains.prefix(Int(min(r, count))).map(Int.init).sorted()
    }

    /// `rtlsdr_get_tuner_type`
    public func tunerType() -> RTLSDRTuner {
        RTLSDRTuner(rawValue: Int(rtlsdr_get_tuner_type(handle).rawValue)) ?? .unknown
    }

    /// librtlsdr returns −2 when `ppm` equals the current correction (0 after opening).
    /// `rtlsdr_set_freq_correction`
    public func setFrequencyCorrection(ppm: Int) throws(RTLSDRError) {
        guard let value = Int32(exactly: ppm) else { throw RTLSDRError(function: "rtlsdr_set_freq_correction", code: -2) }
        try check(rtlsdr_set_freq_correction(handle, value), "rtlsdr_set_freq_correction")
    }

    /// `rtlsdr_set_bias_tee`
    public func setBiasTee(_ on: Bool) throws(RTLSDRError) {
        try check(rtlsdr_set_bias_tee(handle, on ? 1 : 0), "rtlsdr_set_bias_tee")
    }

    /// `rtlsdr_reset_buffer`
    public func resetBuffer() throws(RTLSDRError) { try check(rtlsdr_reset_buffer(handle), "rtlsdr_reset_buffer") }

    /// The C callback hands each buffer to `sink` without allocating: the sink travels as the
    /// context pointer. `rtlsdr_read_async`
    public func readAsync(bufferCount: Int, bufferLength: Int, into sink: any RTLSDRSampleSink) throws(RTLSDRError) {
        guard let count = UInt32(exactly: bufferCount), let length = UInt32(exactly: bufferLength) else {
            throw RTLSDRError(function: "rtlsdr_read_async", code: -2)
        }
        let box = Unmanaged.passRetained(SinkBox(sink))
        defer { box.release() }
        let r = rtlsdr_read_async(handle, { buffer, length, context in
            guard let buffer, let context else { return }
            let box = Unmanaged<SinkBox>.fromOpaque(context).takeUnretainedValue()
            box.sink.receive(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
        }, box.toOpaque(), count, length)
        try check(r, "rtlsdr_read_async")
    }

    /// `rtlsdr_cancel_async`
    public func cancelAsync() throws(RTLSDRError) { try check(rtlsdr_cancel_async(handle), "rtlsdr_cancel_async") }
}

/// Carries the sink through librtlsdr's `void *ctx`.
private final class SinkBox {
    let sink: any RTLSDRSampleSink
    init(_ sink: any RTLSDRSampleSink) { self.sink = sink }
}
