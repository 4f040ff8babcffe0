import Foundation
import Testing
@testable import Demod
import ModeS

struct DemodulatorTests {
    @Test func modes1AtNativeTwoMegahertzFindsAtLeastWhatReadsbFinds() throws {
        let (frames, d) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16)
        // Regression pin: 348 frames (readsb finds 345 on a 2.4 MS/s resample, dump1090 284 at 2.0).
        #expect(frames.count == 348)
        #expect(d.statistics.acceptedTotal == 348)
        for f in frames {
            #expect(ParityCheck.check(f.received.frame, known: Set([0x4D2023])) != nil)
            #expect(f.parity.address == 0x4D2023, "only the one aircraft of the recording transmits")
        }
        // Timestamps increase and match the sample index (6 ticks per sample at 2.0 MS/s,
        // end of bit 56 = 64 µs = 768 ticks after the preamble start).
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(a.received.timestamp < b.received.timestamp) }
        for f in frames {
            let expected = f.sampleIndex * 6 + 768
            #expect(f.received.timestamp >= expected && f.received.timestamp < expected + 6)
        }
    }

    @Test func fastTuningStillBeatsDump1090() throws {
        let (frames, _) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16, tuning: .fast)
        #expect(frames.count == 326)
    }

    @Test(arguments: [3, 100, 1000, 4096, 65_536, 1 << 20])
    func outputDoesNotDependOnTheBlockSize(blockSamples: Int) throws {
        let bytes = Array(try DemodFixtures.modes1Bytes().prefix(2 * 120_000))
        let reference = DemodFixtures.demodulate(bytes, blockSamples: 1 << 20).frames
        let cut = DemodFixtures.demodulate(bytes, blockSamples: blockSamples).frames
        #expect(reference.count > 50)
        #expect(cut == reference)
    }

    @Test func aFrameSplitAtEveryOffsetIsFoundExactlyOnce() throws {
        // Take the first frame of the recording and cut a short excerpt around it at every
        // sample offset from the preamble to the last bit.
        let all = try DemodFixtures.modes1Bytes()
        let first = try #require(DemodFixtures.demodulate(all, blockSamples: 1 << 20).frames.first)
        let start = Int(first.sampleIndex) - 400
        let excerpt = Array(all[(2 * start)..<(2 * (start + 1200))])
        let whole = DemodFixtures.demodulate(excerpt, blockSamples: 1200).frames
        #expect(whole.count >= 1)
        for split in 390..<(400 + 240) {
            var d = Demodulator(sampleRate: .rate2_0)
            var frames: [DemodulatedFrame] = []
            d.process(SampleBlock(bytes: Array(excerpt[0..<(2 * split)]), format: .uc8, firstSample: 0)) { frames.append($0) }
            d.process(SampleBlock(bytes: Array(excerpt[(2 * split)...]), format: .uc8, firstSample: UInt64(split))) { frames.append($0) }
            d.finish { frames.append($0) }
            #expect(frames == whole, "split at \(split)")
        }
    }

    @Test func simdGateAgreesWithItsScalarTwin() {
        var random = SplitMix64(seed: 99)
        var mags = (0..<4096).map { _ in UInt16(random.next() % 32768) }
        // Plant some preamble-like patterns so both outcomes occur.
        for base in stride(from: 0, to: 4000, by: 97) {
            for j in [0, 2, 7, 9] { mags[base + j] = 30000 }
            for j in [4, 5, 6, 12, 14, 15] { mags[base + j] = 100 }
        }
        for twoFour in [false, true] {
            for shift: UInt16 in [0, 1, 3, 15] {
                var d = Demodulator(sampleRate: twoFour ? .rate2_4 : .rate2_0)
                d.tuning.gateShift = shift
                var passes = 0
                mags.withUnsafeBufferPointer { m in
                    for s in stride(from: 0, to: 4000, by: 8) {
                        let (simd, scalar) = d.gateMask(m.baseAddress! + s, twoFour: twoFour)
                        #expect(simd == scalar)
                        passes += simd.nonzeroBitCount
                    }
                }
                #expect(passes > 0)
            }
        }
    }

    @Test func silenceAndFullScaleNoiseProduceNoFrames() {
        var random = SplitMix64(seed: 5)
        let noise = (0..<400_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let (frames, d) = DemodFixtures.demodulate(noise, blockSamples: 1 << 16)
        #expect(frames.isEmpty)
        #expect(d.statistics.samplesProcessed == 200_000)
        let silence = [UInt8](repeating: 127, count: 200_000)
        #expect(DemodFixtures.demodulate(silence, blockSamples: 4096).frames.isEmpty)
    }

    @Test func droppedSamplesRestartTheStreamWithoutLosingTimestamps() throws {
        let bytes = try DemodFixtures.modes1Bytes()
        let reference = DemodFixtures.demodulate(bytes, blockSamples: 1 << 20).frames
        // Deliver the first half, skip 10 000 samples, deliver the rest at its true index.
        let half = bytes.count / 4 * 2 / 2
        var d = Demodulator(sampleRate: .rate2_0)
        var frames: [DemodulatedFrame] = []
        d.process(SampleBlock(bytes: Array(bytes[0..<(2 * half)]), format: .uc8, firstSample: 0)) { frames.append($0) }
        let resume = half + 10_000
        d.process(SampleBlock(bytes: Array(bytes[(2 * resume)...]), format: .uc8, firstSample: UInt64(resume))) { frames.append($0) }
        d.finish { frames.append($0) }
        // Every frame found after the gap is one the continuous run found too, same timestamp.
        let referenceStamps = Set(reference.map(\.received.timestamp))
        for f in frames { #expect(referenceStamps.contains(f.received.timestamp)) }
        #expect(frames.count > reference.count / 2)
    }
}

/// The 2.4 MS/s path on the real recording resampled (Samples/modes1-2m4.bin), against the
/// frames dump1090-mutability found in the same samples (Samples/modes1-frames.avr).
struct ResampledRecordingTests {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples")

    @Test func findsEveryFrameDump1090FindsAndMore() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.samples.appendingPathComponent("modes1-2m4.bin")))
        let (frames, _) = DemodFixtures.demodulate(bytes, rate: .rate2_4, blockSamples: 1 << 16)
        #expect(frames.count == 366)
        let ours = Set(frames.map { $0.received.frame.hex })
        let text = try String(contentsOf: Self.samples.appendingPathComponent("modes1-frames.avr"), encoding: .utf8)
        let theirs = text.split(separator: "\n").map { line in
            String(line.dropFirst(13).dropLast()).uppercased()
        }
        #expect(theirs.count == 319)
        for hex in theirs { #expect(ours.contains(hex), "dump1090 found \(hex)") }
    }
}
