import Demod
import Foundation
import Testing
@testable import Radio

/// Tests with a real dongle: run with `FLYTRACKER_HARDWARE=1 swift test --filter RTLSDRHardware`.
/// Optional: `FLYTRACKER_DEVICE=INDEX|SERIAL` picks the dongle.
@Suite("RTLSDRHardware", .enabled(if: ProcessInfo.processInfo.environment["FLYTRACKER_HARDWARE"] == "1"))
struct RTLSDRHardwareTests {
    let device = ProcessInfo.processInfo.environment["FLYTRACKER_DEVICE"]

    @Test("the dongle is listed with a tuner and its gains")
    func listed() throws {
        let list = RTLSDRDevices.list(driver: LibRTLSDRDriver())
        let info = try RTLSDRDevices.resolve(RTLSDRDeviceSelector(device), in: list)
        #expect(info.problem == nil, "\(info.problem.map(String.init(describing:)) ?? "")")
        #expect(info.tuner != nil && info.tuner != .unknown)
        #expect(!info.gains.isEmpty)
    }

    @Test("one second of capture at 2.4 MS/s: contiguous blocks, about 2.4 M samples, clean stop")
    func captures() throws {
        var options = RTLSDROptions()
        options.ringBlocks = 32
        let capture = try RTLSDRCapture.open(device: device, options: options, log: { print($0) })
        var samples: UInt64 = 0
        var expected: UInt64?
        while samples < 2_400_000 {
            let block = try #require(try capture.nextBlock())
            if let expected { #expect(block.firstSample >= expected) }
            expected = block.firstSample + UInt64(block.sampleCount)
            samples += UInt64(block.sampleCount)
        }
        capture.stop()
        #expect(capture.isFinished)
        #expect(capture.samplesDropped == 0)
        // Reopening right away works: the USB device was released.
        let again = try RTLSDRCapture.open(device: device, options: options, log: { print($0) })
        #expect(try again.nextBlock() != nil)
        again.stop()
    }

    @Test("gain changes while streaming are accepted")
    func gainWhileStreaming() throws {
        var options = RTLSDROptions()
        options.gain = .auto
        let capture = try RTLSDRCapture.open(device: device, options: options, log: { print($0) })
        defer { capture.stop() }
        _ = try capture.nextBlock()
        let gains = capture.supportedGains
        let middle = gains[gains.count / 2]
        #expect(try capture.setGain(tenthsDB: middle) == middle)
        _ = try capture.nextBlock()
        #expect(capture.gainDB == Double(middle) / 10)
    }
}
