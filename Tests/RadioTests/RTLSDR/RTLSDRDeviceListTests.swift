import Foundation
import Testing
@testable import Radio
import RadioTestSupport

@Suite("RTL-SDR devices, options and errors")
struct RTLSDRDeviceListTests {
    @Test("listing opens each dongle for its tuner and gains; one that cannot be opened says why")
    func listing() {
        let fake = FakeRTLSDRDriver(dongles: [
            .init(serial: "00000001", samples: [], tuner: .r820t),
            .init(serial: "ADSB-2", samples: [], tuner: .e4000, gains: [-10, 15, 40], name: "ezcap USB 2.0 DVB-T/DAB/FM dongle", manufacturer: "ezcap", product: "EzTV668"),
        ])
        fake.fail("rtlsdr_open", code: -6, times: 1)
        let list = RTLSDRDevices.list(driver: fake)
        #expect(list.count == 2)
        #expect(list[0].tuner == nil)
        #expect(list[0].problem == RTLSDRError(function: "rtlsdr_open", code: -6))
        #expect(list[1].tuner == .e4000)
        #expect(list[1].gains == [-10, 15, 40])
        #expect(list[1].listing == [
            "1: ezcap USB 2.0 DVB-T/DAB/FM dongle",
            "   manufacturer: ezcap",
            "   product:      EzTV668",
            "   serial:       ADSB-2",
            "   tuner:        Elonics E4000",
            "   gains (dB):   -1.0 1.5 4.0",
        ])
        #expect(list[0].listing.last?.hasPrefix("   cannot open:  rtlsdr_open: LIBUSB_ERROR_BUSY (-6)") == true)
        #expect(fake.snapshot.closes == 1)   // the probe released the dongle it opened
    }

    @Test("a dongle whose USB strings are unreadable (permissions) is listed with the udev fix")
    func unreadableStrings() {
        let fake = FakeRTLSDRDriver(dongles: [.init(serial: "x", samples: [])])
        fake.fail("rtlsdr_get_device_usb_strings", code: -3)
        let info = RTLSDRDevices.list(driver: fake)[0]
        #expect(info.usb == nil)
        #expect(info.summary == "0: Generic RTL2832U OEM")
        #expect(info.problem?.isPermissionDenied == true)
        #expect(info.problem?.description.contains("60-flytracker-rtlsdr.rules") == true)
    }

    @Test("resolving --device: serial match wins over index; first by default")
    func resolve() throws {
        let list = [
            RTLSDRDeviceInfo(index: 0, name: "n", usb: .init(manufacturer: "m", product: "p", serial: "1")),
            RTLSDRDeviceInfo(index: 1, name: "n", usb: .init(manufacturer: "m", product: "p", serial: "abc")),
        ]
        #expect(try RTLSDRDevices.resolve(.first, in: list).index == 0)
        #expect(try RTLSDRDevices.resolve(.argument("1"), in: list).index == 0)     // serial "1"
        #expect(try RTLSDRDevices.resolve(.argument("abc"), in: list).index == 1)
        #expect(try RTLSDRDevices.resolve(.index(1), in: list).index == 1)
        #expect(try RTLSDRDevices.resolve(.serial("abc"), in: list).index == 1)
        #expect(throws: RTLSDRCaptureError.noDongle) { try RTLSDRDevices.resolve(.first, in: []) }
        #expect(throws: RTLSDRCaptureError.self) { try RTLSDRDevices.resolve(.argument("2"), in: list) }
        #expect(RTLSDRDeviceSelector(nil) == .first)
        #expect(RTLSDRDeviceSelector("") == .first)
        #expect(RTLSDRDeviceSelector("0") == .argument("0"))
    }

    @Test("--gain parses max, auto, agc and dB values", arguments: [
        ("max", RTLSDRGain.max), ("auto", .auto), ("AGC", .tunerAGC), ("42", .decibels(42)),
        ("42.1dB", .decibels(42.1)), ("0", .decibels(0)),
    ])
    func gainArgument(text: String, gain: RTLSDRGain) {
        #expect(RTLSDRGain(argument: text) == gain)
    }

    @Test("--gain rejects what is not a gain", arguments: ["", "loud", "1e9", "nan", "-50"])
    func badGainArgument(text: String) {
        #expect(RTLSDRGain(argument: text) == nil)
    }

    @Test("snapping to the nearest supported gain (ties go down)")
    func nearest() {
        let gains = FakeRTLSDRDriver.r820tGains
        #expect(RTLSDRGain.nearest(420, in: gains) == 421)
        #expect(RTLSDRGain.nearest(1000, in: gains) == 496)
        #expect(RTLSDRGain.nearest(-5, in: gains) == 0)
        #expect(RTLSDRGain.nearest(20, in: [10, 30]) == 10)
        #expect(RTLSDRGain.nearest(20, in: []) == nil)
    }

    @Test("error texts name the C function and libusb code; only open-type calls mean permissions or busy")
    func errorTexts() {
        #expect(RTLSDRError(function: "rtlsdr_read_async", code: -4).description
                    == "rtlsdr_read_async: LIBUSB_ERROR_NO_DEVICE (-4); the dongle was unplugged or lost power; check the cable and the power supply (a powered USB hub helps on a Raspberry Pi)")
        #expect(RTLSDRError(function: "rtlsdr_set_tuner_gain", code: -9).description == "rtlsdr_set_tuner_gain: LIBUSB_ERROR_PIPE (-9)")
        #expect(RTLSDRError(function: "rtlsdr_open", code: -1).description == "rtlsdr_open: no RTL-SDR dongle at that index (or libusb could not start) (-1)")
        let bySerial = RTLSDRError(function: "rtlsdr_get_index_by_serial", code: -3)
        #expect(!bySerial.isPermissionDenied)
        #expect(bySerial.codeDescription == "no plugged-in dongle has that serial (-3)")
        #expect(RTLSDRError(function: "rtlsdr_open", code: -3).isPermissionDenied)
        #expect(RTLSDRError(function: "rtlsdr_open", code: -6).isBusy)
        #expect(RTLSDRError(function: "rtlsdr_set_sample_rate", code: -6).fix == nil)
    }

    @Test("the real librtlsdr on a machine without a dongle: no device, and opening says so")
    func realDriverWithoutDongle() throws {
        let driver = LibRTLSDRDriver()
        guard driver.deviceCount() == 0 else { return }   // a dongle is plugged in: the hardware tests cover it
        #expect(RTLSDRDevices.list(driver: driver).isEmpty)
        #expect(throws: RTLSDRCaptureError.noDongle) {
            _ = try RTLSDRCapture.open(device: nil, driver: driver, log: { _ in })
        }
        #expect(throws: RTLSDRError(function: "rtlsdr_get_index_by_serial", code: -2)) {
            _ = try driver.index(serial: "00000001")
        }
        #expect(throws: RTLSDRError(function: "rtlsdr_open", code: -1)) { _ = try driver.open(index: 0) }
    }
}
