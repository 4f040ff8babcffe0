/// A librtlsdr call that returned a negative value: the C function's name and its return
/// code. Most codes are libusb's (`LIBUSB_ERROR_ACCESS` = −3, …); a few functions use small
/// codes of their own (documented on the call that returns them).
public struct RTLSDRError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The C function, e.g. `"rtlsdr_open"`.
    public var function: String
    /// What it returned (negative).
    public var code: Int32

    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
    }

    /// libusb's name for the code, when the code is one of libusb's.
    public var libusbName: String? {
        switch code {
        case -1: "LIBUSB_ERROR_IO"
        case -2: "LIBUSB_ERROR_INVALID_PARAM"
        case -3: "LIBUSB_ERROR_ACCESS"
        case -4: "LIBUSB_ERROR_NO_DEVICE"
        case -5: "LIBUSB_ERROR_NOT_FOUND"
        case -6: "LIBUSB_ERROR_BUSY"
        case -7: "LIBUSB_ERROR_TIMEOUT"
        case -8: "LIBUSB_ERROR_OVERFLOW"
        case -9: "LIBUSB_ERROR_PIPE"
        case -10: "LIBUSB_ERROR_INTERRUPTED"
        case -11: "LIBUSB_ERROR_NO_MEM"
        case -12: "LIBUSB_ERROR_NOT_SUPPORTED"
        case -99: "LIBUSB_ERROR_OTHER"
        default: nil
        }
    }

    /// The device node is not writable by this user (udev rules missing).
    public var isPermissionDenied: Bool { code == -3 && opensDevice }
    /// Something else holds the device: the DVB-T kernel driver or another program.
    public var isBusy: Bool { code == -6 && opensDevice }
    /// The dongle went away (unplugged, lost power, USB reset).
    public var isDeviceGone: Bool { code == -4 }

    /// Functions whose small negative codes are librtlsdr's own, not libusb's.
    private var ownCodeMeaning: String? {
        switch (function, code) {
        case ("rtlsdr_open", -1): "no RTL-SDR dongle at that index (or libusb could not start)"
        case ("rtlsdr_get_index_by_serial", -1): "no serial given"
        case ("rtlsdr_get_index_by_serial", -2): "no RTL-SDR dongle is plugged in"
        case ("rtlsdr_get_index_by_serial", -3): "no plugged-in dongle has that serial"
        case ("rtlsdr_cancel_async", -2): "the dongle was not streaming"
        case ("rtlsdr_read_async", -2): "the dongle was already streaming"
        case ("rtlsdr_get_tuner_gains", 0): "the tuner reports no gains (unknown tuner)"
        default: nil
        }
    }

    /// Calls that open the USB device, where −3 and −6 mean permissions and a busy device.
    private var opensDevice: Bool {
        function == "rtlsdr_open" || function == "rtlsdr_get_device_usb_strings"
    }

    /// The short name of what went wrong: "LIBUSB_ERROR_ACCESS (-3)" or librtlsdr's meaning.
    public var codeDescription: String {
        if let meaning = ownCodeMeaning { return "\(meaning) (\(code))" }
        if let name = libusbName { return "\(name) (\(code))" }
        return "error \(code)"
    }

    /// What to do about it, when there is a known fix; one line, with the commands.
    public var fix: String? {
        if isPermissionDenied { return RTLSDRError.permissionFix }
        if isBusy { return RTLSDRError.busyFix }
        if isDeviceGone { return "the dongle was unplugged or lost power; check the cable and the power supply (a powered USB hub helps on a Raspberry Pi)" }
        return nil
    }

    /// `rtlsdr_open: LIBUSB_ERROR_ACCESS (-3): permission denied …; fix`.
    public var description: String {
        var text = "\(function): \(codeDescription)"
        if isPermissionDenied { text += ": permission denied opening the USB device" }
        if isBusy { text += ": the USB device is busy" }
        if let fix { text += "; \(fix)" }
        return text
    }

    /// One line: install the udev rules, join plugdev, replug (udev/README.md has the details).
    public static let permissionFix = """
        install FlyTracker's udev rules and join the plugdev group: \
        sudo cp udev/60-flytracker-rtlsdr.rules /etc/udev/rules.d/ && \
        sudo udevadm control --reload-rules && sudo udevadm trigger && \
        sudo usermod -aG plugdev "$USER", then log out and in again and replug the dongle \
        (see udev/README.md; running as root is not the fix)
        """

    /// One line: blacklist the DVB-T driver, unload it, replug.
    public static let busyFix = """
        the Linux DVB-T driver (dvb_usb_rtl28xxu) or another program (rtl_tcp, dump1090, readsb, \
        another flytracker) holds the dongle; blacklist the driver: \
        sudo cp udev/flytracker-blacklist-rtl.conf /etc/modprobe.d/ \
        (or: echo 'blacklist dvb_usb_rtl28xxu' | sudo tee /etc/modprobe.d/flytracker-blacklist-rtl.conf) && \
        sudo rmmod rtl2832_sdr dvb_usb_rtl28xxu rtl2832 e4000, then replug the dongle \
        (see udev/README.md; 'lsmod | grep rtl2832' must print nothing)
        """
}
