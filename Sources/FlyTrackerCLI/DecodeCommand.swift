import ArgumentParser
import Feeds
import ModeS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flytracker decode [FILE]`: frames as text in, one JSON object per frame out.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode Mode S frames (bare hex, AVR '*…;' or '@…;', one per line) to JSON Lines.",
        discussion: """
            Reads FILE, or standard input when FILE is absent or '-'. Each frame gives one JSON \
            object on standard output with the keys of DESIGN.md. Positions come from the same \
            engine as 'run' (pairing windows, global, local and surface CPR, range and speed \
            checks), with the frames' own times ('@' timestamps); frames without one pair with \
            no time passed and get no speed check. Even/odd CPR pairs of one aircraft give \
            lat/lon; --ref enables local decoding of single positions within --max-range. A line \
            that is not a frame is reported on standard error as 'flytracker: line N: why' and \
            decoding goes on.
            """
    )

    @Argument(help: "File of frames, one per line ('-' or absent: standard input).")
    var file: String?

    @Option(help: ArgumentHelp("Reference position for local CPR decoding.", valueName: "LAT,LON"))
    var ref: ReferenceOption?

    @Option(name: .customLong("max-range"),
            help: ArgumentHelp("Farthest plausible position from --ref, NM (1–1000; run uses 300). Up to 180 a lone airborne message decodes against --ref.", valueName: "NM"))
    var maxRange: Double = DecodeSession.defaultMaxRange

    func validate() throws {
        guard maxRange.isFinite, (1...1000).contains(maxRange) else { throw ValidationError("--max-range must be 1…1000 NM") }
    }

    func run() throws {
        let fd: Int32
        if let file, file != "-" {
            fd = open(file, O_RDONLY)
            if fd < 0 {
                StandardStreams.error("cannot open \(file): \(StandardStreams.describe(errno: errno))")
                throw ExitCode(1)
            }
        } else {
            fd = STDIN_FILENO
        }
        defer { if fd != STDIN_FILENO { close(fd) } }

        let ok = DecodeRunner(reference: ref?.coordinate, maxRange: maxRange).run(
            input: fd, output: STDOUT_FILENO, errors: STDERR_FILENO, inputName: file ?? "standard input")
        if !ok { throw ExitCode(1) }
    }
}

/// `--ref LAT,LON`.
struct ReferenceOption: ExpressibleByArgument {
    let coordinate: Coordinate

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingPrefix(" ")), let lon = Double(parts[1].trimmingPrefix(" ")),
              (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        coordinate = Coordinate(latitude: lat, longitude: lon)
    }
}
