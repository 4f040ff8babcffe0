#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Demod
import ModeS

/// Why a simulation could not be written.
public enum SimulationWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Opening or writing `path` failed; `reason` is the system's message.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}

/// What a written simulation holds.
public struct SimulationSummary: Sendable, Equatable {
    public var samples: UInt64
    public var frames: Int
    /// Frames per downlink format.
    public var framesByDF: [Int: Int]
    /// I or Q values clipped at full scale.
    public var clippedValues: Int
    public var seconds: Double
}

/// `flytracker simulate`: renders a sky to an IQ file and its truth to a JSON Lines file.
public enum SimulationWriter {
    /// Writes `duration` seconds of the sky of `configuration` to `iqPath` ("-": standard
    /// output) in the configured format and rate, and one `TruthRecord.jsonLine` per frame to
    /// `truthPath` (nil: no truth file). Files are created or truncated.
    public static func write(
        configuration: SkyConfiguration, duration: Double, iqPath: String, truthPath: String?, blockSize: Int = 1 << 17
    ) throws(SimulationWriteError) -> SimulationSummary {
        let iq = try OutputFile(path: iqPath)
        defer { iq.close() }
        let truthFile = try truthPath.map { path throws(SimulationWriteError) in try OutputFile(path: path) }
        defer { truthFile?.close() }

        let source = SimulatorSource(configuration: configuration, duration: duration, blockSize: blockSize,
                                     collectsTruth: truthFile != nil)
        var summary = SimulationSummary(samples: 0, frames: 0, framesByDF: [:], clippedValues: 0, seconds: 0)
        while let block = try? source.nextBlock() {
            try iq.write(block.bytes)
            summary.samples += UInt64(block.sampleCount)
            let records = source.takeTruth()
            if let truthFile, !records.isEmpty {
                var text = ""
                for record in records {
                    text += record.jsonLine
                    text += "\n"
                }
                try truthFile.write(Array(text.utf8))
            }
        }
        summary.frames = source.framesSent
        summary.clippedValues = source.clippedValues
        summary.seconds = Double(summary.samples) / Double(configuration.sampleRate.hertz)
        summary.framesByDF = source.framesByDF
        return summary
    }
}

extension SimulationWriter {
    /// Writes a sensitivity test signal (`SensitivityScenario`: random DF17 test frames at one
    /// SNR, FRUIT, the scenario's channel) to `iqPath` ("-": standard output) and one
    /// `SensitivityScenario.Sent.jsonLine` per frame to `truthPath` (nil: none).
    public static func write(scenario: SensitivityScenario, iqPath: String, truthPath: String?) throws(SimulationWriteError) -> SimulationSummary {
        let signal = scenario.render()
        let iq = try OutputFile(path: iqPath)
        defer { iq.close() }
        try iq.write(signal.bytes)
        if let truthPath {
            let truth = try OutputFile(path: truthPath)
            defer { truth.close() }
            try truth.write(Array(signal.sent.map { $0.jsonLine + "\n" }.joined().utf8))
        }
        var byDF: [Int: Int] = [:]
        for s in signal.sent { byDF[s.transmission.frame.downlinkFormat, default: 0] += 1 }
        return SimulationSummary(samples: UInt64(signal.sampleCount), frames: signal.sent.count, framesByDF: byDF,
                                 clippedValues: signal.clippedValues,
                                 seconds: Double(signal.sampleCount) / Double(scenario.sampleRate.hertz))
    }
}

extension SimulatorSource {
    /// Frames sent so far per downlink format.
    public var framesByDF: [Int: Int] { dfCounts }
}

/// A file opened for writing with its path kept for messages; "-" is standard output.
private final class OutputFile {
    let path: String
    let fd: Int32
    let owned: Bool

    init(path: String) throws(SimulationWriteError) {
        self.path = path
        if path == "-" {
            fd = STDOUT_FILENO
            owned = false
        } else {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            owned = true
            if fd < 0 { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    func write(_ bytes: [UInt8]) throws(SimulationWriteError) {
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                let n = Darwin.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return n < 0 ? errno : ENOSPC }
                offset += n
            }
            return nil
        }
        if let failure { throw .cannotWrite(path: path, reason: String(cString: strerror(failure))) }
    }

    func close() {
        if owned {
            #if canImport(Glibc)
            _ = Glibc.close(fd)
            #else
            _ = Darwin.close(fd)
            #endif
        }
    }
}
