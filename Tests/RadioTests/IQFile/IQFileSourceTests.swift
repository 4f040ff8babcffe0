import Demod
import Foundation
import Radio
import Testing

/// Recorded files as the receiver reads them, including the bad ones. A class: each test's
/// instance removes the files it wrote when it goes (`deinit`).
final class IQFileSourceTests {
    static let modes1 = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/iq/modes1.bin")

    /// The files this test wrote.
    private var written: [URL] = []

    deinit {
        for url in written { try? FileManager.default.removeItem(at: url) }
    }

    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-iq-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        written.append(url)
        return url.path
    }

    /// Reads a whole source; returns the frames found and the samples delivered.
    func demodulate(_ source: IQFileSource) throws -> (frames: Int, samples: UInt64) {
        var d = Demodulator(sampleRate: source.sampleRate)
        var frames = 0
        var samples: UInt64 = 0
        while let block = try source.nextBlock() {
            #expect(block.firstSample == samples, "blocks are contiguous")
            samples += UInt64(block.sampleCount)
            d.process(block) { _ in frames += 1 }
        }
        d.finish { _ in frames += 1 }
        return (frames, samples)
    }

    @Test func aRecordingIsReadWholeInContiguousBlocks() throws {
        let source = try IQFileSource(path: Self.modes1.path, format: .uc8, sampleRate: .rate2_0, blockSamples: 10_000)
        let result = try demodulate(source)
        #expect(result.samples == 356_868)
        #expect(result.frames == 359)
        #expect(source.truncatedBytes == 0)
    }

    @Test func anOddByteCountIsReadToTheLastWholeSampleAndReported() throws {
        var bytes = [UInt8](try Data(contentsOf: Self.modes1).prefix(100_001))
        bytes[bytes.count - 1] = 200
        let source = try IQFileSource(path: try temporaryFile(bytes), format: .uc8, sampleRate: .rate2_0)
        let result = try demodulate(source)
        #expect(result.samples == 50_000)
        #expect(source.truncatedBytes == 1)
    }

    @Test func anEmptyFileGivesNoBlocks() throws {
        let source = try IQFileSource(path: try temporaryFile([]), format: .uc8, sampleRate: .rate2_4)
        #expect(try source.nextBlock() == nil)
    }

    @Test func aFileShorterThanOneSampleIsAClearError() throws {
        let source = try IQFileSource(path: try temporaryFile([1, 2, 3]), format: .cf32, sampleRate: .rate2_4)
        #expect(throws: SampleSourceError.self) { try source.nextBlock() }
        do { _ = try source.nextBlock() } catch { #expect("\(error)".contains("ends in the middle of a sample")) }
    }

    @Test func missingFilesAndDirectoriesAreClearErrors() {
        #expect(throws: SampleSourceError.io(path: "/nonexistent/iq.bin", reason: "No such file or directory")) {
            try IQFileSource(path: "/nonexistent/iq.bin", format: .uc8, sampleRate: .rate2_4)
        }
        #expect(throws: SampleSourceError.io(path: "/tmp", reason: "is a directory")) {
            try IQFileSource(path: "/tmp", format: .uc8, sampleRate: .rate2_4)
        }
    }

    @Test func floatsWithNaNAndInfinityAndAWrongFormatNeverCrash() throws {
        // cf32 full of NaN, infinities and huge values.
        var floats: [Float] = []
        for i in 0..<200_000 { floats.append([Float.nan, .infinity, -.infinity, 1e30, -1e-30, 0.5][i % 6]) }
        let bytes = floats.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        let nan = try IQFileSource(path: try temporaryFile(bytes), format: .cf32, sampleRate: .rate2_4)
        #expect(try demodulate(nan).frames == 0)
        // The uc8 recording read as sc16 and as cf32: nonsense in, nothing out, no crash.
        for format in [SampleFormat.sc16, .sc16q11, .cf32] {
            let wrong = try IQFileSource(path: Self.modes1.path, format: format, sampleRate: .rate2_0)
            #expect(try demodulate(wrong).frames == 0)
        }
    }
}
