/// The seam between FlyTracker and librtlsdr: the handful of library-level calls the
/// receiver makes (enumeration and open). `LibRTLSDRDriver` calls the C library;
/// `FakeRTLSDRDriver` (test support, `Tests/RadioTestSupport`) plays IQ files and misbehaves
/// on request, so the capture thread, ring buffer, watchdog and recovery are tested without
/// a dongle.
///
/// Every failing call throws `RTLSDRError` naming the C function and its return code.
public protocol RTLSDRDriver: Sendable {
    /// Dongles with a known RTL2832U vendor:product id. `rtlsdr_get_device_count`
    func deviceCount() -> Int
    /// librtlsdr's name for the dongle's USB id ("Generic RTL2832U OEM"). `rtlsdr_get_device_name`
    func deviceName(index: Int) -> String
    /// The dongle's USB manufacturer, product and serial strings (opens the USB device
    /// briefly, so permission problems show here too). `rtlsdr_get_device_usb_strings`
    func usbStrings(index: Int) throws(RTLSDRError) -> RTLSDRUSBStrings
    /// The index of the first dongle whose serial is `serial`. `rtlsdr_get_index_by_serial`
    func index(serial: String) throws(RTLSDRError) -> Int
    /// Opens dongle `index`. `rtlsdr_open`
    func open(index: Int) throws(RTLSDRError) -> any RTLSDRDeviceHandle
}

/// One open dongle: the device-level calls. Used from the capture thread (read, close), the
/// watchdog and `stop()` (cancel) and the gain controller (gain); the capture serialises
/// everything but `readAsync`/`cancelAsync`, which librtlsdr allows concurrently.
public protocol RTLSDRDeviceHandle: AnyObject, Sendable {
    /// Releases the device. Call only when `readAsync` is not running. `rtlsdr_close`
    func close() throws(RTLSDRError)
    /// Samples per second. `rtlsdr_set_sample_rate`
    func setSampleRate(_ hertz: UInt32) throws(RTLSDRError)
    /// Tuner frequency in Hz. `rtlsdr_set_center_freq`
    func setCenterFrequency(_ hertz: UInt32) throws(RTLSDRError)
    /// `manual` true: the gain set with `setTunerGain`; false: the tuner's own AGC.
    /// `rtlsdr_set_tuner_gain_mode`
    func setTunerGainMode(manual: Bool) throws(RTLSDRError)
    /// Tuner gain in tenths of a dB (one of `tunerGains()`). `rtlsdr_set_tuner_gain`
    func setTunerGain(tenthsDB: Int) throws(RTLSDRError)
    /// The gains the tuner supports, tenths of a dB, ascending. `rtlsdr_get_tuner_gains`
    func tunerGains() throws(RTLSDRError) -> [Int]
    /// The tuner chip. `rtlsdr_get_tuner_type`
    func tunerType() -> RTLSDRTuner
    /// Crystal frequency correction in parts per million. `rtlsdr_set_freq_correction`
    func setFrequencyCorrection(ppm: Int) throws(RTLSDRError)
    /// 4.5 V on the antenna input for an LNA (RTL-SDR Blog dongles). `rtlsdr_set_bias_tee`
    func setBiasTee(_ on: Bool) throws(RTLSDRError)
    /// Empties the dongle's FIFO; call before streaming. `rtlsdr_reset_buffer`
    func resetBuffer() throws(RTLSDRError)
    /// Streams until `cancelAsync` or a device error, calling `sink.receive` on the calling
    /// thread for every USB buffer of `bufferLength` bytes (`bufferCount` in flight).
    /// Returns normally when cancelled; a lost device may also return normally (librtlsdr
    /// cancels itself then). `rtlsdr_read_async`
    func readAsync(bufferCount: Int, bufferLength: Int, into sink: any RTLSDRSampleSink) throws(RTLSDRError)
    /// Makes a running `readAsync` return. Safe from any thread. `rtlsdr_cancel_async`
    func cancelAsync() throws(RTLSDRError)
}

/// Receives the USB buffers of `readAsync`, on the reading thread. Must not block or allocate.
public protocol RTLSDRSampleSink: AnyObject {
    /// One buffer of interleaved unsigned 8-bit I/Q; valid only during the call.
    func receive(_ bytes: UnsafeRawBufferPointer)
}

/// A dongle's USB string descriptors.
public struct RTLSDRUSBStrings: Sendable, Equatable {
    public var manufacturer: String
    public var product: String
    public var serial: String

    public init(manufacturer: String, product: String, serial: String) {
        self.manufacturer = manufacturer
        self.product = product
        self.serial = serial
    }
}

/// The tuner chip behind the RTL2832U (`enum rtlsdr_tuner`).
public enum RTLSDRTuner: Int, Sendable, CaseIterable, CustomStringConvertible {
    case unknown = 0, e4000, fc0012, fc0013, fc2580, r820t, r828d

    public var description: String {
        switch self {
        case .unknown: "unknown tuner"
        case .e4000: "Elonics E4000"
        case .fc0012: "Fitipower FC0012"
        case .fc0013: "Fitipower FC0013"
        case .fc2580: "FCI FC2580"
        case .r820t: "Rafael Micro R820T"
        case .r828d: "Rafael Micro R828D"
        }
    }
}
