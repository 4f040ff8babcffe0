import ArgumentParser
import ModeS
import Tracking

/// `flytracker bench`: throughput of this machine's build, single core.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decoder and demodulator throughput on this machine (use a release build).",
        discussion: "Decodes a mixed corpus of real frames (all formats, some with bit errors) on one core and prints frames per second; demodulates generated 2.4 MS/s samples and prints millions of samples per second per stage and the real-time factor. --table adds the aircraft table. --store measures the store instead: fills a scratch database with a generated year of sightings and times the statistics queries (a busy site's year: --store --visits 1000000 --points 20)."
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

    func validate() throws {
        guard frames > 0, passes > 0 else { throw ValidationError("--frames and --passes must be positive") }
        if let problem = storeOptions.isSet && !store ? "--visits, --points, --file and --queries-only need --store" : storeOptions.problem {
            StandardStreams.error(problem)
            throw ExitCode(1)
        }
    }

    func run() throws {
        if store { return try storeOptions.run() }
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
    }

    private func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return String(rounded)
    }
}
