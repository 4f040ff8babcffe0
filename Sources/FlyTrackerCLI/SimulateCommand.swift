import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Demod
import ModeS
import Radio

/// `flytracker simulate`: a synthetic IQ recording and its JSON Lines truth file.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a synthetic IQ recording of a simulated sky, plus a JSON Lines truth file.",
        discussion: """
            Aircraft fly around the receiver and send what real ones send (DF17 positions, \
            velocity, identification and operational status, DF11 squitters, DF4/5/20/21 replies \
            to a radar) at realistic rates, with levels spread by distance, random carrier phase \
            and frequency offset, overlapping transmissions and thermal noise at --snr dB below \
            the weakest signal (-30 dBFS). The same --seed gives the same file. The truth file has \
            one object per frame sent: hex, df, address, kind, sample (preamble start), tick, \
            timestamp (12 MHz, end of bit 56), level (dBFS) and the aircraft's true position.
            """
    )

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("IQ file to write ('-' = standard output).", valueName: "FILE"))
    var output: String

    @Option(help: ArgumentHelp("Truth file to write (JSON Lines, one object per frame).", valueName: "FILE"))
    var truth: String?

    @Option(help: "Sample format: uc8, sc16, sc16q11 or cf32.")
    var format = "uc8"

    @Option(name: .customLong("sample-rate"), help: "Sample rate: 2.0M or 2.4M.")
    var sampleRate = "2.4M"

    @Option(help: "Seconds of samples to write.")
    var duration = 2.0

    @Option(help: "Number of aircraft.")
    var aircraft = 20

    @Option(help: ArgumentHelp("Signal-to-noise ratio of the weakest signal, dB.", valueName: "DB"))
    var snr = 20.0

    @Flag(name: .customLong("no-noise"), help: "No thermal noise (quantisation only).")
    var noNoise = false

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "Receiver latitude, degrees (south negative: --lat -33.9).")
    var lat = SkyConfiguration.defaultReceiver.latitude

    @Option(help: "Receiver longitude, degrees (west negative: --lon -73.8).")
    var lon = SkyConfiguration.defaultReceiver.longitude

    @Option(help: ArgumentHelp("Receiving channel: ideal (box filter, frames on 12 MHz ticks, perfect IQ) or realistic (RTL2832U band limit, random sub-sample timing, IQ imbalance, DC offset), or realistic-FILTER for another receive filter (nyquist-sinc, butterworth4, wideband).", valueName: "ideal|realistic[-FILTER]"))
    var channel = "ideal"

    @Option(name: .customLong("test-frames"), help: ArgumentHelp("Write a sensitivity test signal instead of a sky: this many random DF17 frames, one per 400 µs, at --snr dB (mean message power over noise power; noise at -30 dBFS), with FRUIT at --fruit-rate (the signals of 'bench --sensitivity').", valueName: "N"))
    var testFrames: Int?

    @Option(name: .customLong("fruit-rate"), help: "With --test-frames: FRUIT (other aircraft's replies) per second.")
    var fruitRate = 200.0

    @Option(help: ArgumentHelp("Also fly arrivals to this airport (built-in code), N of them (default 1); repeatable.", valueName: "CODE[:N]"))
    var arrivals: [String] = []

    @Option(help: ArgumentHelp("Also fly departures from this airport, N of them; repeatable.", valueName: "CODE[:N]"))
    var departures: [String] = []

    @Option(help: ArgumentHelp("Runway heading of --arrivals and --departures, degrees true.", valueName: "DEG"))
    var runway = 240.0

    @Flag(help: "Print nothing when done.")
    var quiet = false

    func validate() throws {
        guard SampleFormat(rawValue: format.lowercased()) != nil else {
            throw ValidationError("unknown sample format '\(format)': use uc8, sc16, sc16q11 or cf32")
        }
        guard SampleRate(argument: sampleRate) != nil else {
            throw ValidationError("unsupported sample rate '\(sampleRate)': use 2.0M or 2.4M")
        }
        guard duration.isFinite, duration > 0, duration <= 86_400 else {
            throw ValidationError("--duration must be between 0 and 86400 seconds")
        }
        guard (0...10_000).contains(aircraft) else { throw ValidationError("--aircraft must be between 0 and 10000") }
        guard snr.isFinite else { throw ValidationError("--snr must be a number of dB") }
        guard ReceiverChannel(named: channel) != nil else { throw ValidationError("unknown channel '\(channel)': use ideal, realistic or realistic-FILTER (FILTER: \(ReceiveFilter.allCases.map(\.rawValue).joined(separator: ", ")))") }
        if let testFrames, !(1...100_000).contains(testFrames) { throw ValidationError("--test-frames must be between 1 and 100000") }
        guard fruitRate.isFinite, (0...100_000).contains(fruitRate) else { throw ValidationError("--fruit-rate must be between 0 and 100000") }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw ValidationError("--lat must be within ±90 and --lon within ±180 degrees")
        }
        _ = try RouteOptions.routes(arrivals: arrivals, departures: departures, runway: runway)
    }

    func run() throws {
        let rate = SampleRate(argument: sampleRate)!, sampleFormat = SampleFormat(rawValue: format.lowercased())!
        let receiving = ReceiverChannel(named: channel)!
        if let testFrames {
            // `--test-frames`: a `SensitivityScenario` signal and its truth.
            let scenario = SensitivityScenario(seed: seed, count: testFrames, snr: snr, sampleRate: rate, format: sampleFormat,
                                               channel: receiving, fruitRate: fruitRate)
            let summary = try write { () throws(SimulationWriteError) in
                try SimulationWriter.write(scenario: scenario, iqPath: output, truthPath: truth)
            }
            report(summary, "\(testFrames) test frames at \(snr) dB and \(summary.frames - testFrames) FRUIT")
            return
        }
        var configuration = SkyConfiguration(
            seed: seed, aircraftCount: aircraft, receiver: Coordinate(latitude: lat, longitude: lon),
            sampleRate: rate, format: sampleFormat, snr: noNoise ? nil : snr, channel: receiving)
        configuration.routes = try RouteOptions.routes(arrivals: arrivals, departures: departures, runway: runway)
        let summary = try write { () throws(SimulationWriteError) in
            try SimulationWriter.write(configuration: configuration, duration: duration, iqPath: output, truthPath: truth)
        }
        let byDF = summary.framesByDF.keys.sorted().map { "DF\($0) \(summary.framesByDF[$0]!)" }.joined(separator: ", ")
        report(summary, "\(summary.frames) frames (\(byDF))")
    }

    /// Runs a writer; a failure is one line on standard error and exit code 1.
    private func write(_ body: () throws(SimulationWriteError) -> SimulationSummary) throws -> SimulationSummary {
        do {
            return try body()
        } catch {
            StandardStreams.error(error.description)
            throw ExitCode(1)
        }
    }

    /// The one-line summary (unless `--quiet`): what was written where, then `frames`.
    private func report(_ summary: SimulationSummary, _ frames: String) {
        guard !quiet else { return }
        var text = "wrote \(summary.samples) samples (\(summary.seconds) s, \(format.lowercased()) at \(SampleRate(argument: sampleRate)!)"
        text += (channel.lowercased() == "ideal" ? "" : ", \(channel.lowercased()) channel") + ") to \(output)"
        text += "; \(frames)"
        if let truth { text += ", truth in \(truth)" }
        if summary.clippedValues > 0 { text += "; \(summary.clippedValues) values clipped at full scale" }
        // Standard output carries the samples when the output is '-'.
        var out = OutputBuffer(fd: output == "-" ? STDERR_FILENO : STDOUT_FILENO)
        out.printLine(text)
    }
}
