import ArgumentParser
import ModeS

/// `flytracker bench`: throughput of this machine's build, single core.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decoder throughput on this machine (use a release build).",
        discussion: "Decodes a mixed corpus of real frames (all formats, some with bit errors) on one core and prints frames per second. The demodulator part arrives with the demodulator."
    )

    @Option(help: "Frames in the corpus.")
    var frames: Int = 1_000_000

    @Option(help: "Passes over the corpus; the best pass is reported.")
    var passes: Int = 5

    func validate() throws {
        guard frames > 0, passes > 0 else { throw ValidationError("--frames and --passes must be positive") }
    }

    func run() throws {
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
    }

    private func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return String(rounded)
    }
}
