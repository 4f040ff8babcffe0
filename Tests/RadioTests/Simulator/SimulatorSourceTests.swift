import Foundation
import Testing
import Demod
import ModeS
@testable import Radio

/// The simulator as a sample source: the truth file describes exactly what was rendered,
/// the stream is the same for every block size and for a seed, noise has the configured level.
struct SimulatorSourceTests {
    static func drain(_ source: SimulatorSource) -> (bytes: [UInt8], truth: [TruthRecord], blocks: [SampleBlock]) {
        var bytes: [UInt8] = []
        var blocks: [SampleBlock] = []
        while let block = try? source.nextBlock() {
            bytes += block.bytes
            blocks.append(block)
        }
        return (bytes, source.takeTruth(), blocks)
    }

    @Test(arguments: SampleRate.allCases)
    func truthDescribesExactlyWhatWasRendered(rate: SampleRate) throws {
        // Noiseless cf32: the stream must equal the truth's transmissions rendered again.
        let configuration = SkyConfiguration(seed: 11, aircraftCount: 60, sampleRate: rate, format: .cf32, snr: nil)
        let source = SimulatorSource(configuration: configuration, duration: 0.1, blockSize: 50_000)
        let (bytes, truth, _) = Self.drain(source)
        let total = Int(0.1 * Double(rate.hertz))
        #expect(bytes.count == total * 8)
        let stream = SampleQuantizer.dequantize(bytes, format: .cf32)
        let modulator = Modulator(sampleRate: rate)
        let again = modulator.render(truth.map(\.transmission), sampleCount: total)
        var worst: Float = 0
        for i in stream.indices { worst = max(worst, abs(stream[i] - again[i])) }
        #expect(worst < 1e-4)   // the truth's 2-decimal levels and 4-decimal phases
        #expect(truth.count > 20)   // 60 aircraft × about 6.5 frames/s × 0.1 s
        #expect(truth.count == source.framesSent)

        let perSample = Int(rate.ticksPerSample)
        var sliced = 0
        for (index, record) in truth.enumerated() {
            #expect(record.timestamp == record.startTick + 768)
            #expect(abs(record.sampleOffset * Double(perSample) - Double(record.startTick)) < 1e-6)
            #expect(record.downlinkFormat == record.kind.downlinkFormat)
            #expect(ParityCheck.check(record.frame)?.address == record.address)
            #expect(index == 0 || truth[index - 1].startTick <= record.startTick)
            // Every frame lies wholly inside the stream.
            #expect(Int(record.startTick) + (8 + record.frame.bitCount) * 12 <= total * perSample)
            // A frame alone on the air slices back from the stream at its truth position.
            let range = modulator.sampleRange(of: record.transmission)
            let alone = truth.allSatisfy { other in
                other == record || modulator.sampleRange(of: other.transmission).clamped(to: range).isEmpty
            }
            if alone, !(rate == .rate2_0 && record.startTick % 6 == 3) {
                #expect(Self.slice(stream, startTick: Int(record.startTick), bitCount: record.frame.bitCount,
                                   perSample: perSample) == record.frame)
                sliced += 1
            }
        }
        #expect(sliced > truth.count / 2)
    }

    /// Half-bit energies compared (magnitudes weighted by overlap), as in ModulatorTests.
    static func slice(_ iq: [Float], startTick: Int, bitCount: Int, perSample: Int) -> Frame? {
        func energy(_ a: Int, _ b: Int) -> Double {
            var sum = 0.0
            for n in (a / perSample)...((b - 1) / perSample) where 2 * n + 1 < iq.count {
                let lo = max(a, n * perSample), hi = min(b, (n + 1) * perSample)
                sum += Double((iq[2 * n] * iq[2 * n] + iq[2 * n + 1] * iq[2 * n + 1]).squareRoot()) * Double(max(hi - lo, 0))
            }
            return sum
        }
        var raw: UInt128 = 0
        for i in 0..<bitCount {
            let s = startTick + 96 + 12 * i
            raw = raw << 1 | (energy(s, s + 6) > energy(s + 6, s + 12) ? 1 : 0)
        }
        return Frame(raw: raw << UInt128(128 - bitCount), bitCount: bitCount)
    }

    @Test(arguments: [ReceiverChannel.ideal, .realistic])
    func theStreamIsTheSameForEveryBlockSize(channel: ReceiverChannel) {
        let configuration = SkyConfiguration(seed: 12, aircraftCount: 150, sampleRate: .rate2_4, format: .uc8, snr: 15, channel: channel)
        let reference = Self.drain(SimulatorSource(configuration: configuration, duration: 0.02, blockSize: 1 << 17))
        #expect(reference.bytes.count == 48_000 * 2)
        #expect(reference.truth.count > 10)
        for size in [1, 999, 4096, 10_007] {
            let other = Self.drain(SimulatorSource(configuration: configuration, duration: 0.02, blockSize: size))
            #expect(other.bytes == reference.bytes, "block size \(size)")
            #expect(other.truth == reference.truth, "block size \(size)")
            // Blocks are contiguous and numbered from 0.
            var next: UInt64 = 0
            for block in other.blocks {
                #expect(block.firstSample == next && block.sampleCount <= size)
                next += UInt64(block.sampleCount)
            }
        }
    }

    /// The realistic channel: the noiseless cf32 stream is the truth's transmissions (with their
    /// sub-tick starts) through the band limit, then the front end's imbalance and offset.
    @Test(arguments: SampleRate.allCases)
    func realisticTruthDescribesExactlyWhatWasRendered(rate: SampleRate) throws {
        let configuration = SkyConfiguration(seed: 11, aircraftCount: 60, sampleRate: rate, format: .cf32, snr: nil, channel: .realistic)
        let source = SimulatorSource(configuration: configuration, duration: 0.05, blockSize: 30_000)
        let (bytes, truth, _) = Self.drain(source)
        let total = Int(0.05 * Double(rate.hertz))
        let stream = SampleQuantizer.dequantize(bytes, format: .cf32)
        let band = BandLimitedModulator(sampleRate: rate)
        var again = [Float](repeating: 0, count: 2 * total)
        again.withUnsafeMutableBufferPointer { buffer in
            for record in truth { band.add(record.transmission, into: buffer, firstSample: 0) }
            ReceiverChannel.realistic.applyFrontEnd(to: buffer)
        }
        #expect(truth.contains { $0.subTick > 0 })
        var worst: Float = 0
        for i in stream.indices { worst = max(worst, abs(stream[i] - again[i])) }
        // Records in memory carry the sub-tick start exactly (a truth file's `sample` has 4
        // decimals of a sample).
        #expect(worst < 1e-5)
    }

    @Test(arguments: SampleFormat.allCases)
    func theSameSeedGivesTheSameSamples(format: SampleFormat) {
        let configuration = SkyConfiguration(seed: 13, aircraftCount: 30, sampleRate: .rate2_0, format: format)
        let a = Self.drain(SimulatorSource(configuration: configuration, duration: 0.01))
        let b = Self.drain(SimulatorSource(configuration: configuration, duration: 0.01))
        var other = configuration
        other.seed = 14
        let c = Self.drain(SimulatorSource(configuration: other, duration: 0.01))
        #expect(a.bytes == b.bytes && a.truth == b.truth)
        #expect(a.bytes != c.bytes)
        #expect(a.bytes.count == 20_000 * format.bytesPerSample)
        #expect(a.blocks.allSatisfy { $0.format == format })
    }

    @Test func noiseHasTheConfiguredLevel() {
        // No aircraft: the stream is noise at levels.lowerBound − snr = −30 − 10 dBFS.
        let configuration = SkyConfiguration(seed: 15, aircraftCount: 0, format: .sc16, snr: 10)
        let (bytes, truth, _) = Self.drain(SimulatorSource(configuration: configuration, duration: 0.05))
        #expect(truth.isEmpty)
        let iq = SampleQuantizer.dequantize(bytes, format: .sc16)
        var power = 0.0
        for v in iq { power += Double(v) * Double(v) }
        power /= Double(iq.count / 2)
        #expect(abs(10 * log10(power) + 40) < 0.1)
    }

    @Test func anEndlessSourceKeepsGoingAndCanDropItsTruth() throws {
        let source = SimulatorSource(configuration: SkyConfiguration(seed: 16, aircraftCount: 5), duration: nil,
                                     blockSize: 100_000, collectsTruth: false)
        #expect(source.totalSamples == nil)
        for expected in 0..<5 {
            let block = try #require(try source.nextBlock())
            #expect(block.firstSample == UInt64(expected) * 100_000 && block.sampleCount == 100_000)
        }
        #expect(source.takeTruth().isEmpty)
        #expect(source.framesSent > 0)
        #expect(source.samplesDropped == 0)
    }

    @Test func truthLinesReadBack() throws {
        let configuration = SkyConfiguration(seed: 17, aircraftCount: 40, sampleRate: .rate2_0)
        let source = SimulatorSource(configuration: configuration, duration: 0.3)
        let (_, truth, _) = Self.drain(source)
        #expect(Set(truth.map(\.kind)).count >= 6)
        for record in truth {
            let line = record.jsonLine
            #expect(!line.contains("\n"))
            let back = try #require(TruthRecord(jsonLine: line, sampleRate: .rate2_0))
            #expect(back.frame == record.frame && back.kind == record.kind && back.register == record.register)
            #expect(back.address == record.address && back.startTick == record.startTick)
            #expect(abs(back.levelDBFS - record.levelDBFS) <= 0.005)
            #expect(abs(back.position.latitude - record.position.latitude) <= 1e-6)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((object["hex"] as? String) == record.frame.hex)
            #expect((object["df"] as? Int) == record.downlinkFormat)
            #expect((object["timestamp"] as? Int) == Int(record.startTick) + 768)
            #expect((object["address"] as? String)?.count == 6)
        }
        #expect(TruthRecord(jsonLine: "{}", sampleRate: .rate2_0) == nil)
        #expect(TruthRecord(jsonLine: "not json", sampleRate: .rate2_0) == nil)
    }
}
