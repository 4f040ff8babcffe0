import ArgumentParser
import Radio

/// `flytracker devices`: the RTL-SDR dongles librtlsdr can see.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List RTL-SDR dongles (index, name, serial, tuner, gains).",
        discussion: """
            Each dongle is opened briefly to read its tuner and gains; one that cannot be opened \
            (permissions, or in use by another program or the DVB-T kernel driver) is listed with \
            the reason and the fix. Use the index or serial with 'flytracker run --device'. \
            Exit status 1 when no dongle is found.
            """
    )

    @Flag(help: "Do not open the dongles: names and serials only (works while another program uses them).")
    var noProbe = false

    func run() throws {
        let report = DevicesCommand.report(driver: LibRTLSDRDriver(), probe: !noProbe)
        var output = OutputBuffer()
        for line in report.lines { output.printLine(line) }
        output.flush()
        if let error = report.error {
            StandardStreams.error(error)
            throw ExitCode(1)
        }
    }

    /// What the command prints (`lines` on standard output) and, when no dongle is found, the
    /// one-line error for standard error.
    static func report(driver: any RTLSDRDriver, probe: Bool = true) -> (lines: [String], error: String?) {
        let devices = RTLSDRDevices.list(driver: driver, probe: probe)
        guard !devices.isEmpty else { return ([], RTLSDRCaptureError.noDongle.description) }
        var lines = ["Found \(devices.count) RTL-SDR dongle\(devices.count == 1 ? "" : "s"):"]
        for device in devices { lines += device.listing }
        return (lines, nil)
    }
}
