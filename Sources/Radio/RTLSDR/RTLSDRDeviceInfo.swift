/// One dongle as `flytracker devices` lists it.
public struct RTLSDRDeviceInfo: Sendable, Equatable {
    /// librtlsdr's index (the order libusb enumerates the bus in).
    public var index: Int
    /// librtlsdr's name for the USB id ("Generic RTL2832U OEM").
    public var name: String
    /// USB strings; nil when they could not be read (see `problem`).
    public var usb: RTLSDRUSBStrings?
    /// Tuner and its gains (tenths of a dB), when the dongle could be opened.
    public var tuner: RTLSDRTuner?
    public var gains: [Int]
    /// Why the dongle could not be read or opened (permissions, busy…), if it could not.
    public var problem: RTLSDRError?

    public init(index: Int, name: String, usb: RTLSDRUSBStrings?, tuner: RTLSDRTuner? = nil, gains: [Int] = [], problem: RTLSDRError? = nil) {
        self.index = index
        self.name = name
        self.usb = usb
        self.tuner = tuner
        self.gains = gains
        self.problem = problem
    }

    public var serial: String? { usb?.serial }

    /// Gains in dB.
    public var gainsDB: [Double] { gains.map { Double($0) / 10 } }

    /// `0: Realtek RTL2838UHIDIR, serial 00000001, Rafael Micro R820T`.
    public var summary: String {
        var text = "\(index): "
        if let usb {
            let label = [usb.manufacturer, usb.product].filter { !$0.isEmpty }.joined(separator: " ")
            text += label.isEmpty ? name : label
            text += ", serial \(usb.serial.isEmpty ? "(none)" : usb.serial)"
        } else {
            text += name
        }
        if let tuner { text += ", \(tuner)" }
        return text
    }

    /// The lines `flytracker devices` prints for this dongle.
    public var listing: [String] {
        var lines = ["\(index): \(name)"]
        if let usb {
            lines.append("   manufacturer: \(usb.manufacturer)")
            lines.append("   product:      \(usb.product)")
            lines.append("   serial:       \(usb.serial.isEmpty ? "(none)" : usb.serial)")
        }
        if let tuner { lines.append("   tuner:        \(tuner)") }
        if !gains.isEmpty {
            lines.append("   gains (dB):   " + gainsDB.map { RTLSDRDeviceInfo.format(dB: $0) }.joined(separator: " "))
        }
        if let problem { lines.append("   cannot open:  \(problem)") }
        return lines
    }

    static func format(dB: Double) -> String {
        let tenths = Int((dB * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}

/// Enumeration and choosing a dongle.
public enum RTLSDRDevices {
    /// Every dongle librtlsdr sees. With `probe`, each is opened briefly to read its tuner and
    /// gains (a dongle in use elsewhere then shows its `problem` instead).
    public static func list(driver: any RTLSDRDriver, probe: Bool = true) -> [RTLSDRDeviceInfo] {
        (0..<driver.deviceCount()).map { index in
            var info = RTLSDRDeviceInfo(index: index, name: driver.deviceName(index: index), usb: nil)
            do throws(RTLSDRError) {
                info.usb = try driver.usbStrings(index: index)
            } catch {
                info.problem = error
                return info
            }
            guard probe else { return info }
            do throws(RTLSDRError) {
                let device = try driver.open(index: index)
                info.tuner = device.tunerType()
                info.gains = (try? device.tunerGains()) ?? []
                try? device.close()
            } catch {
                info.problem = error
            }
            return info
        }
    }

    /// The dongle `selector` names among `devices`: an exact serial match first, then an
    /// index. Throws with what was looked for and what is there.
    public static func resolve(_ selector: RTLSDRDeviceSelector, in devices: [RTLSDRDeviceInfo]) throws(RTLSDRCaptureError) -> RTLSDRDeviceInfo {
        guard !devices.isEmpty else { throw .noDongle }
        switch selector {
        case .first:
            return devices[0]
        case .index(let i):
            if let found = devices.first(where: { $0.index == i }) { return found }
        case .serial(let s):
            if let found = devices.first(where: { $0.serial == s }) { return found }
        case .argument(let text):
            if let found = devices.first(where: { $0.serial == text }) { return found }
            if let i = Int(text), let found = devices.first(where: { $0.index == i }) { return found }
        }
        throw .noMatch(selector: selector.description, available: devices.map(\.summary))
    }
}

/// Why a capture could not start (or could not go on).
public enum RTLSDRCaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// librtlsdr sees no dongle at all.
    case noDongle
    /// Dongles exist, but none matches what was asked for.
    case noMatch(selector: String, available: [String])
    /// Opening or setting up the dongle failed.
    case device(String, RTLSDRError)
    /// The capture was started twice, or after stop().
    case notStartable
    /// The capture thread could not be created (errno).
    case thread(Int32)

    public var description: String {
        switch self {
        case .noDongle:
            return """
                no RTL-SDR dongle found: librtlsdr looked for USB devices with the RTL2832U \
                vendor:product ids it knows (0bda:2838, 0bda:2832 and the others listed in \
                udev/60-flytracker-rtlsdr.rules) and saw none; check that the dongle is plugged in \
                ('lsusb' should list it, e.g. 'ID 0bda:2838 Realtek Semiconductor Corp. RTL2838 DVB-T'); \
                without a dongle, run on the simulator (--simulate) or a recording (--ifile FILE)
                """
        case .noMatch(let selector, let available):
            return "no RTL-SDR dongle matches \(selector) (found: \(available.joined(separator: "; ")))"
        case .device(let which, let error):
            return "cannot open RTL-SDR dongle \(which): \(error)"
        case .notStartable:
            return "the RTL-SDR capture was already started or stopped"
        case .thread(let code):
            return "cannot start the RTL-SDR capture thread (error \(code))"
        }
    }
}
