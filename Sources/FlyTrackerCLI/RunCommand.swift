import ArgumentParser
import Demod
import Feeds
import Foundation
import ModeS
import Radio

/// `flytracker run`: the receiver.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the receiver: demodulate a recording (or stdin), decode and print or track what it hears.",
        discussion: """
            Source: --ifile PATH ('-' = standard input). Frames with valid parity are demodulated \
            at 2.0 or 2.4 MS/s from uc8, sc16, sc16q11 or cf32 samples. --raw prints them as AVR \
            lines; --stats-file writes stats.json at exit.
            """
    )

    @Option(name: .customLong("ifile"), help: ArgumentHelp("Read samples from a file ('-' = standard input).", valueName: "PATH"))
    var inputFile: String?

    @Option(name: .customLong("iformat"), help: "Sample format: uc8, sc16, sc16q11 or cf32.")
    var inputFormat: SampleFormatOption = SampleFormatOption(format: .uc8)

    @Option(name: .customLong("sample-rate"), help: "Sample rate: 2.0M or 2.4M.")
    var sampleRate: SampleRateOption = SampleRateOption(rate: .rate2_4)

    @Flag(help: "Replay files in real time instead of as fast as possible.")
    var throttle = false

    @Flag(help: "Print every frame as an AVR line (*HEX;).")
    var raw = false

    @Flag(help: "With --raw: include the 12 MHz timestamp (@TIMESTAMPHEX;).")
    var timestamps = false

    @Flag(help: "Cheaper demodulation: a SIMD gate rejects most positions first (a few percent fewer frames in a busy sky).")
    var fast = false

    @Option(help: ArgumentHelp("Write stats.json here when the run ends.", valueName: "PATH"))
    var statsFile: String?

    @Flag(help: "Print nothing but the frames asked for.")
    var quiet = false

    func validate() throws {
        guard inputFile != nil else {
            throw ValidationError("no sample source: give --ifile PATH (RTL-SDR capture and --simulate come with their issues)")
        }
    }

    func run() throws {
        let source: IQFileSource
        do {
            source = try IQFileSource(path: inputFile!, format: inputFormat.format, sampleRate: sampleRate.rate, throttle: throttle)
        } catch {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
        var output = OutputBuffer()
        var loop = ReceiverLoop(sampleRate: sampleRate.rate)
        if fast { loop.demodulator.tuning = .fast }
        let outcome = loop.run(source: source) { frame in
            if raw { output.printLine(AVRLine.format(frame.received, timestamps: timestamps)) }
        }
        output.flush()
        if source.truncatedBytes > 0 {
            StandardStreams.error("\(source.path) ends in the middle of a sample (\(source.truncatedBytes) bytes ignored)")
        }
        if let statsFile {
            let stats = loop.demodulator.statistics
            let text = "{\"total\":{\"local\":{\"samples_processed\":\(stats.samplesProcessed),\"modes\":\(stats.preambles),\"bad\":\(stats.bad),\"unknown_icao\":\(stats.unknownAddress),\"accepted\":[\(stats.accepted.0),\(stats.accepted.1),\(stats.accepted.2)]}}}\n"
            do { try text.write(toFile: statsFile, atomically: true, encoding: .utf8) } catch {
                StandardStreams.error("cannot write \(statsFile): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        if case .failure(let error) = outcome {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
        if !quiet && !raw {
            let stats = loop.demodulator.statistics
            StandardStreams.error("\(stats.samplesProcessed) samples, \(stats.acceptedTotal) frames", to: STDERR_FILENO)
        }
    }
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
