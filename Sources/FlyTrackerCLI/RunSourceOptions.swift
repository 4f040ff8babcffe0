import ArgumentParser
import Demod
import Foundation
import ModeS
import Radio
import Tracking

/// Where `run` reads samples from.
struct SourceOptions: ParsableArguments {
    @Option(name: .customLong("ifile"), help: ArgumentHelp("Read samples from a file ('-' = standard input) instead of a dongle.", valueName: "PATH"))
    var inputFile: String?

    @Option(name: .customLong("iformat"), help: "Sample format of --ifile: uc8, sc16, sc16q11 or cf32.")
    var inputFormat: SampleFormatOption = SampleFormatOption(format: .uc8)

    @Option(name: .customLong("sample-rate"), help: "Sample rate: 2.0M or 2.4M.")
    var sampleRate: SampleRateOption = SampleRateOption(rate: .rate2_4)

    @Flag(help: "Replay files in real time instead of as fast as possible.")
    var throttle = false
}

/// RTL-SDR settings (the default source).
struct DongleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Dongle to use: its index or serial (see `flytracker devices`); default the first.", valueName: "INDEX|SERIAL"))
    var device: String?

    @Option(help: "Tuner gain: max, auto (adjusted while running), agc (the tuner's own) or a value in dB.")
    var gain: GainOption = GainOption(value: .max)

    @Option(help: "Frequency correction, parts per million.")
    var ppm: Int = 0

    @Flag(help: "Power an LNA through the antenna input (bias-tee), on dongles that have one.")
    var biasTee = false
}

/// The built-in synthetic sky as a live source.
struct SimulatorOptions: ParsableArguments {
    @Flag(help: "Use the built-in simulator as the source (a synthetic sky around --lat/--lon, in real time).")
    var simulate = false

    @Option(name: .customLong("sim-aircraft"), help: "Simulated aircraft.")
    var aircraft = 30

    @Option(name: .customLong("sim-seed"), help: "Simulator seed (the same seed gives the same sky).")
    var seed: UInt64 = 1

    @Option(name: .customLong("sim-snr"), help: "Simulator signal-to-noise ratio of the weakest aircraft, dB.")
    var snr: Double = 20

    @Option(name: .customLong("sim-duration"), help: "Stop after this many seconds of simulated sky (default: run until stopped).")
    var duration: Double?

    @Flag(name: .customLong("sim-fast"), help: "Run the simulator as fast as possible instead of in real time.")
    var unpaced = false

    @Option(name: .customLong("sim-channel"), help: ArgumentHelp("Simulator receiving channel: ideal, or realistic (RTL2832U band limit, random sub-sample timing, IQ imbalance, DC offset), or realistic-FILTER for another receive filter (nyquist-sinc, butterworth4, wideband).", valueName: "ideal|realistic[-FILTER]"))
    var channel = "ideal"

    @Option(name: .customLong("sim-arrivals"), help: ArgumentHelp("Simulated arrivals to this airport (built-in code), N of them; repeatable.", valueName: "CODE[:N]"))
    var arrivals: [String] = []

    @Option(name: .customLong("sim-departures"), help: ArgumentHelp("Simulated departures from this airport, N of them; repeatable.", valueName: "CODE[:N]"))
    var departures: [String] = []

    @Option(name: .customLong("sim-runway"), help: ArgumentHelp("Runway heading of the simulated arrivals and departures, degrees true.", valueName: "DEG"))
    var runway = 240.0

    func validate() throws {
        guard ReceiverChannel(named: channel) != nil else { throw ValidationError("unknown --sim-channel '\(channel)': use ideal, realistic or realistic-FILTER (FILTER: \(ReceiveFilter.allCases.map(\.rawValue).joined(separator: ", ")))") }
        _ = try RouteOptions.routes(arrivals: arrivals, departures: departures, runway: runway)
    }
}

/// `--gain`.
struct GainOption: ExpressibleByArgument {
    let value: RTLSDRGain
    init(value: RTLSDRGain) { self.value = value }
    init?(argument: String) {
        guard let g = RTLSDRGain(argument: argument) else { return nil }
        value = g
    }
    var defaultValueDescription: String { value.description }
}

/// `--iformat`.
struct SampleFormatOption: ExpressibleByArgument {
    let format: SampleFormat
    init(format: SampleFormat) { self.format = format }
    init?(argument: String) {
        guard let f = SampleFormat(rawValue: argument.lowercased()) else { return nil }
        format = f
    }
    static var allValueStrings: [String] { SampleFormat.allCases.map(\.rawValue) }
    var defaultValueDescription: String { format.rawValue }
}

/// `--sample-rate`.
struct SampleRateOption: ExpressibleByArgument {
    let rate: SampleRate
    init(rate: SampleRate) { self.rate = rate }
    init?(argument: String) {
        guard let r = SampleRate(argument: argument) else { return nil }
        rate = r
    }
    var defaultValueDescription: String { rate.description }
}

/// The source `run` opened, and how to stop it.
struct OpenedSource {
    var source: any SampleSource
    var capture: RTLSDRCapture?
    var fileSource: IQFileSource?
    /// Deliver blocks no faster than real time (the simulator as a live source, `--throttle`).
    var paced: Bool

    /// Stops a dongle (unblocking a waiting read); nothing for other sources.
    func stop() { capture?.stop() }
}

extension RunCommand {
    /// The sky `--simulate` flies.
    func skyConfiguration(receiver: Coordinate?) -> SkyConfiguration {
        var sky = SkyConfiguration(seed: simulator.seed, aircraftCount: simulator.aircraft,
                                   receiver: receiver ?? SkyConfiguration.defaultReceiver,
                                   sampleRate: source.sampleRate.rate, format: .uc8, snr: simulator.snr,
                                   channel: ReceiverChannel(named: simulator.channel) ?? .ideal)
        sky.routes = (try? RouteOptions.routes(arrivals: simulator.arrivals, departures: simulator.departures, runway: simulator.runway)) ?? []
        return sky
    }

    /// What the simulator's fleet is (registrations, types, operators from the callsigns),
    /// as an aircraft database; nil unless `--simulate`.
    func simulatedFleet(receiver: Coordinate?) -> DictionaryAircraftDatabase? {
        guard simulator.simulate else { return nil }
        var entries: [UInt32: AircraftInfo] = [:]
        for plane in Sky(configuration: skyConfiguration(receiver: receiver)).aircraft {
            let identity = SimulatedFleet.identity(of: plane)
            entries[plane.address] = AircraftInfo(address: plane.address, registration: identity.registration, typeCode: identity.typeCode,
                                                  typeDescription: identity.typeDescription,
                                                  ownerOperator: Airlines.name(forCallsign: plane.callsign))
        }
        return DictionaryAircraftDatabase(entries)
    }

    /// Opens the source the options name: a file, the simulator or (default) a dongle.
    func openSource(receiver: Coordinate?) throws -> OpenedSource {
        if let path = source.inputFile {
            do {
                let file = try IQFileSource(path: path, format: source.inputFormat.format, sampleRate: source.sampleRate.rate)
                return OpenedSource(source: file, fileSource: file, paced: source.throttle)
            } catch {
                StandardStreams.error("\(error)")
                throw ExitCode(1)
            }
        }
        if simulator.simulate {
            let sim = SimulatorSource(configuration: skyConfiguration(receiver: receiver), duration: simulator.duration, collectsTruth: false)
            return OpenedSource(source: sim, paced: !simulator.unpaced)
        }
        var options = RTLSDROptions()
        options.sampleRate = source.sampleRate.rate
        options.gain = dongle.gain.value
        options.ppm = dongle.ppm
        options.biasTee = dongle.biasTee
        do {
            let capture = try RTLSDRCapture.open(device: dongle.device, options: options, log: { StandardStreams.error($0) })
            try capture.start()
            return OpenedSource(source: capture, capture: capture, paced: false)
        } catch {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
    }
}
