import Benchmarks
import ArgumentParser
import Foundation
import Demod
import Feeds
import ModeS
import Threads
import Tracking

/// `flytracker bench`: throughput of this machine's build, single core.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decoder and demodulator throughput on this machine (use a release build).",
        discussion: "Decodes a mixed corpus of real frames (all formats, some with bit errors) on one core and prints frames per second; demodulates generated 2.4 MS/s samples and prints millions of samples per second per stage and the real-time factor. --table adds the aircraft table. --store measures the store instead: fills a scratch database with a generated year of sightings and times the statistics queries (a busy site's year: --store --visits 1000000 --points 20). --sensitivity measures sensitivity instead: random DF17 frames on the realistic channel (band-limited as the RTL2832U, random sub-sample timing, carrier offset and phase, IQ imbalance, DC offset, noise, uc8, FRUIT), swept over SNR at 2.4 and 2.0 MS/s; prints frames decoded of those sent, false frames and CPU per sample (--keep DIR writes the signals to run other decoders on)."
    )

    @Option(help: "Frames in the corpus.")
    var frames: Int = 1_000_000

    @Option(help: "Passes over the corpus; the best pass is reported.")
    var passes: Int = 5

    @Flag(help: "Skip the demodulator part.")
    var noDemod = false

    @Option(help: "Seconds of simulated 2.4 MS/s samples for the demodulator part.")
    var demodSeconds: Double = 4

    @Flag(help: "Also measure the aircraft table: decoded messages applied per second, and memory as aircraft come and go.")
    var table = false

    @Flag(help: "Measure the store instead: fill a scratch database with generated sightings (--visits, --points, --file, --queries-only) and time the statistics queries.")
    var store = false

    @OptionGroup var storeOptions: StoreBenchOptions

    @Flag(help: "Measure the accuracy of arrival and closest-approach predictions instead (simulated arrivals, true state and decoded frames).")
    var eta = false

    @Option(name: .customLong("eta-skies"), help: "With --eta: simulated skies of six arrivals each.")
    var etaSkies = 8

    @Flag(help: "Measure sensitivity instead: decoded of sent DF17 frames per SNR on the realistic channel, at 2.4 and 2.0 MS/s.")
    var sensitivity = false

    @Option(name: .customLong("snr"), parsing: .upToNextOption,
            help: ArgumentHelp("With --sensitivity: the SNR points, dB (mean signal power over the message / noise power).", valueName: "DB"))
    var snrs: [Double] = Array(stride(from: 3.0, through: 15.0, by: 1.0))

    @Option(name: .customLong("sensitivity-frames"), help: "With --sensitivity: DF17 test frames per point.")
    var sensitivityFrames = 1000

    @Option(help: ArgumentHelp("Measure false accepts instead: this many seconds of realistic-channel noise per rate (--sample-rate) through the demodulator; prints the false frames, the aircraft they would make, and the soft repairs tried with what their bound expects.", valueName: "SECONDS"))
    var noise: Double?

    @Option(name: .customLong("sample-rate"), help: "With --sensitivity or --noise: 2.0M, 2.4M or both.")
    var sampleRate = "both"

    @Option(name: .customLong("fruit-rate"), help: "With --sensitivity: FRUIT (other aircraft's replies) per second.")
    var fruitRate = 200.0

    @Option(help: "With --sensitivity or --noise: seed of the signals.")
    var seed: UInt64 = 1

    @Flag(name: .customLong("ideal-channel"), help: "With --sensitivity: the ideal channel (box filter, frames on 12 MHz ticks, perfect IQ) instead of the realistic one.")
    var idealChannel = false

    @Option(name: .customLong("filter"),
            help: ArgumentHelp("With --sensitivity: the realistic channel's receive filter: rtl2832u (the model), nyquist-sinc, butterworth4, wideband, or all (one table each); adds a column decoded with the model's pulse instead of the learned one.", valueName: "NAME"))
    var filter: String?

    @Flag(name: .customLong("with-fast"), help: "With --sensitivity: also run --fast (a second column).")
    var withFast = false

    @Option(help: ArgumentHelp("With --sensitivity: write each signal (uc8) and its truth (JSON Lines) into this directory.", valueName: "DIR"))
    var keep: String?

    @Flag(help: "Measure an aggregator instead: N receivers × --rate messages/s over loopback TCP into one aggregator and its sighting log (--aggregate-db: SQLite file or postgres://…); prints messages/s held, CPU per message, latency and log write rate.")
    var aggregate = false

    @Option(name: .customLong("receivers"), help: ArgumentHelp("With --aggregate: receiver counts to measure, comma-separated.", valueName: "N,N"))
    var aggregateReceivers = "10,20"

    @Option(name: .customLong("rate"), help: "With --aggregate: messages per second each receiver sends.")
    var aggregateRate = 2000

    @Option(name: .customLong("seconds"), help: "With --aggregate: seconds per point.")
    var aggregateSeconds = 10.0

    @Option(name: .customLong("aggregate-db"), help: ArgumentHelp("With --aggregate: the sighting log's store (default: a scratch SQLite file).", valueName: "PATH|URL"))
    var aggregateDB: String?

    func validate() throws {
        guard frames > 0, passes > 0 else { throw ValidationError("--frames and --passes must be positive") }
        if aggregate {
            let counts = aggregateReceivers.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !counts.isEmpty, counts.allSatisfy({ $0.map { (1...64).contains($0) } ?? false }) else {
                throw ValidationError("--receivers must be receiver counts of 1 to 64, comma-separated")
            }
            guard (1...100_000).contains(aggregateRate), (1...3600).contains(aggregateSeconds) else {
                throw ValidationError("--rate must be 1…100000 and --seconds 1…3600")
            }
        }
        if !sensitivity && (keep != nil || withFast || idealChannel || filter != nil) {
            throw ValidationError("--keep, --with-fast, --filter and --ideal-channel need --sensitivity")
        }
        if let noise, !(noise > 0 && noise <= 86_400) { throw ValidationError("--noise must be 1 to 86400 seconds") }
        if sampleRate.lowercased() != "both" && SampleRate(argument: sampleRate) == nil {
            throw ValidationError("unsupported sample rate '\(sampleRate)': use 2.0M, 2.4M or both")
        }
        if noise != nil && (sensitivity || store || eta || aggregate) {
            throw ValidationError("--noise is a measurement of its own: leave out --sensitivity, --store, --eta and --aggregate")
        }
        if let filter, sensitivityChannels == nil {
            throw ValidationError("unknown filter '\(filter)': use \(ReceiveFilter.allCases.map(\.rawValue).joined(separator: ", ")) or all")
        }
        if filter != nil && idealChannel { throw ValidationError("--filter and --ideal-channel exclude each other") }
        if let problem = storeOptions.isSet && !store ? "--visits, --points, --file and --queries-only need --store" : storeOptions.problem {
            StandardStreams.error(problem)
            throw ExitCode(1)
        }
    }

    func run() async throws {
        if store { return try await storeOptions.run() }
        if aggregate {
            let bench = AggregateBenchmark(receiverCounts: aggregateReceivers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                                           rate: aggregateRate, seconds: aggregateSeconds, database: aggregateDB)
            return try await reportingErrors { try await bench.run() }
        }
        // The rest is synchronous, CPU-bound measurement (seconds to an hour of it): on a
        // thread of its own, not one of the cooperative pool's.
        let command = self
        try await ThreadExecutor.run(name: "flytracker.bench") { try command.measure() }
    }

    /// The synchronous measurements: ETA, sensitivity, noise, or decoding and demodulation.
    func measure() throws {
        if eta { return EtaBenchmark.report(EtaBenchmark(skies: etaSkies).run()) }
        if sensitivity { return try runSensitivity() }
        if let noise {
            return NoiseBenchmark(seconds: noise, rates: try benchRates(), seed: seed).run { print($0) }
        }
        let corpus = BenchCorpus.make(count: frames)
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000_000)
        var decoded = 0
        var checksum = 0
        for _ in 0..<passes {
            decoded = 0
            let elapsed = clock.measure {
                for frame in corpus {
                    guard let message = ModeSMessage.decode(frame) else { continue }
                    let fields = message.fields
                    decoded += 1
                    checksum &+= (fields.altBaro ?? 0) &+ Int(fields.address ?? 0)
                }
            }
            best = min(best, elapsed)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
        let rate = Double(frames) / seconds
        print("decode: \(frames) frames (\(decoded) passed parity) in \(format(seconds * 1000, 1)) ms, best of \(passes)")
        print("decode: \(format(rate / 1e6, 2)) million frames/s on one core (checksum \(checksum & 0xFFFF))")
        if !noDemod { runDemod() }
        if table { runTable() }
    }

    /// `--sensitivity`: see `SensitivityBenchmark`.
    private func runSensitivity() throws {
        let rates = try benchRates()
        guard sensitivityFrames > 0, sensitivityFrames <= 100_000, snrs.allSatisfy({ $0.isFinite && abs($0) < 100 }),
              fruitRate.isFinite, fruitRate >= 0, fruitRate <= 100_000 else {
            StandardStreams.error("--sensitivity-frames must be 1 to 100000, --snr finite dB values, --fruit-rate 0 to 100000")
            throw ExitCode(1)
        }
        guard let channels = sensitivityChannels else { throw ValidationError("unknown filter '\(filter ?? "")'") }
        do {
            for channel in channels {
                let bench = SensitivityBenchmark(snrs: snrs, rates: rates, frames: sensitivityFrames, seed: seed, fruitRate: fruitRate,
                                                 channel: channel, fast: withFast, fixedPulse: filter != nil, keepDirectory: keep)
                try bench.run { print($0) }
            }
        } catch {
            // Foundation's messages for these differ by platform and are long: say what failed.
            StandardStreams.error("cannot write the signals into \(keep ?? "."): not a writable directory")
            throw ExitCode(1)
        }
    }

    /// The channels of `--sensitivity`: the ideal or realistic one, or the realistic one with
    /// each filter `--filter` names (`all`: every family); nil for a name that is none.
    var sensitivityChannels: [ReceiverChannel]? {
        switch filter?.lowercased() {
        case nil: [idealChannel ? .ideal : .realistic]
        case "all": ReceiveFilter.allCases.map { .realistic($0) }
        case let name?: ReceiveFilter(named: name).map { [.realistic($0)] }
        }
    }

    /// The rates of `--sample-rate` (2.0M, 2.4M or both).
    private func benchRates() throws -> [SampleRate] {
        if sampleRate.lowercased() == "both" { return [.rate2_4, .rate2_0] }
        guard let rate = SampleRate(argument: sampleRate) else {
            StandardStreams.error("unsupported sample rate '\(sampleRate)': use 2.0M, 2.4M or both")
            throw ExitCode(1)
        }
        return [rate]
    }

    /// The demodulator part: see `DemodBenchmark`.
    private func runDemod() {
        let r = DemodBenchmark(seconds: demodSeconds, passes: passes).run()
        for stage in r.stages {
            print("demod: \(stage.name): \(format(stage.megasamplesPerSecond, 1)) MS/s, \(format(stage.realTimeFactor, 1))× real time at 2.4 MS/s")
        }
        print("demod: \(r.frames) frames (default), \(r.fastFrames) frames (--fast) from \(format(demodSeconds, 1)) s of simulated sky")
    }

    /// The aircraft table part (`--table`): see `TableBenchmark`.
    private func runTable() {
        let r = TableBenchmark.run(messages: frames, passes: passes)
        print("table: \(r.messages) messages (\(format(r.span, 0)) s of a synthetic sky) in \(format(r.seconds * 1000, 1)) ms, best of \(passes)")
        print("table: \(format(r.messagesPerSecond / 1e6, 2)) million messages/s on one core")
        print("table: \(r.distinctAddresses) aircraft and \(r.noiseAddresses) one-message noise addresses came and went; at most \(r.peakAircraft) held at once, \(r.shownAircraft) shown at the end; positions \(r.positionsAccepted) accepted, \(r.positionsRejected) rejected")
        // What the JSON writer does once a second: aircraft.json of the final snapshot.
        let now = r.snapshot.time
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000), bytes = 0
        for _ in 0..<max(passes, 1) * 10 {
            best = min(best, clock.measure { bytes = AircraftJSON.document(r.snapshot, now: now).utf8.count })
        }
        let ms = Double(best.components.attoseconds) * 1e-15 + Double(best.components.seconds) * 1000
        print("json: aircraft.json of \(r.snapshot.count) aircraft (\(bytes / 1024) KiB) in \(format(ms, 2)) ms, \(format(ms * 1000 / Double(max(r.snapshot.count, 1)), 1)) µs an aircraft, best of \(max(passes, 1) * 10)")
    }

    private func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return String(rounded)
    }
}
