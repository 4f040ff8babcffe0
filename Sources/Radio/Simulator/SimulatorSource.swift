import Demod
import ModeS

/// The synthetic sky as a sample source: blocks of I/Q samples rendered on demand, for
/// `flytracker run --simulate` (the caller paces it in real time if it wants) and for
/// `flytracker simulate`.
///
/// Each block is rendered as floats (every transmission that overlaps it, in start order,
/// through the configured `ReceiverChannel`, then thermal noise and the front end's flaws),
/// then quantised to the configured format. Frames that would not end
/// within `duration` are not sent. The samples and the truth records are the same for every
/// block size (noise is drawn per sample in order, the sky advances in fixed steps), so the
/// stream depends only on the configuration.
///
/// Not thread-safe: one consumer reads it.
public final class SimulatorSource: SampleSource {
    public let configuration: SkyConfiguration
    public var format: SampleFormat { configuration.format }
    public var sampleRate: SampleRate { configuration.sampleRate }
    /// The simulator never drops samples.
    public var samplesDropped: UInt64 { 0 }
    /// Samples per block (the last block of a finite stream may be shorter).
    public let blockSize: Int
    /// Total samples of a finite stream; nil: endless.
    public let totalSamples: UInt64?
    /// Whether truth records are kept for `takeTruth()` (turn off for endless runs nobody
    /// reads the truth of, so memory stays flat).
    public var collectsTruth: Bool

    /// The sky as far as it has been generated.
    public private(set) var sky: Sky
    /// Sample index of the next block.
    public private(set) var nextSample: UInt64 = 0
    /// I or Q values clipped at full scale so far.
    public private(set) var clippedValues = 0
    /// Frames rendered so far (whole stream).
    public private(set) var framesSent = 0
    /// Frames rendered so far per downlink format.
    var dfCounts: [Int: Int] = [:]

    private let renderer: ChannelRenderer
    private var noise: ThermalNoise?
    /// Generated, not started yet; sorted by start.
    private var pending: [SkyFrame] = []
    /// Started, still on the air.
    private var active: [SkyFrame] = []
    private var truth: [TruthRecord] = []
    private var floats: [Float] = []

    /// - Parameters:
    ///   - duration: seconds of samples to produce; nil for an endless stream.
    ///   - blockSize: samples per block (at least 1).
    public init(configuration: SkyConfiguration, duration: Double? = nil, blockSize: Int = 1 << 17, collectsTruth: Bool = true) {
        self.configuration = configuration
        self.blockSize = max(blockSize, 1)
        totalSamples = duration.map { UInt64(max($0, 0) * Double(configuration.sampleRate.hertz)) }
        self.collectsTruth = collectsTruth
        sky = Sky(configuration: configuration)
        renderer = ChannelRenderer(channel: configuration.channel, sampleRate: configuration.sampleRate)
        noise = configuration.noisePowerDBFS.map { ThermalNoise(powerDBFS: $0, seed: configuration.seed ^ 0x0015_E000_0000_0001) }
    }

    public func nextBlock() throws(SampleSourceError) -> SampleBlock? {
        let first = nextSample
        guard let iq = nextFloatBlock() else { return nil }
        var bytes: [UInt8] = []
        clippedValues += iq.withUnsafeBufferPointer { SampleQuantizer.quantize($0, to: format, appendingTo: &bytes) }
        return SampleBlock(bytes: bytes, format: format, firstSample: first)
    }

    /// The next block as float I/Q (full scale ±1) before quantisation; nil at the end.
    public func nextFloatBlock() -> [Float]? {
        let first = nextSample
        var count = UInt64(blockSize)
        if let totalSamples { count = min(count, totalSamples - min(first, totalSamples)) }
        guard count > 0 else { return nil }
        let end = first + count
        let perSample = sampleRate.ticksPerSample
        let endTick = end * perSample

        // Every step that starts before the block ends: no later step can send into this block.
        let endTime = Double(end + renderer.leadSamples) / Double(sampleRate.hertz)
        var added = false
        while sky.time < endTime {
            for sent in sky.advance() {
                if let totalSamples, sent.transmission.startTick + sent.transmission.durationTicks > totalSamples * perSample {
                    continue
                }
                pending.append(sent)
                added = true
            }
        }
        if added {
            pending.sort { ($0.transmission.startTick, $0.sequence) < ($1.transmission.startTick, $1.sequence) }
        }
        // Frames starting in this block (or whose filter tail reaches into it) go on the air.
        let airTick = endTick + renderer.leadSamples * perSample
        var started = 0
        while started < pending.count, pending[started].transmission.startTick < airTick {
            let sent = pending[started]
            active.append(sent)
            if collectsTruth { truth.append(TruthRecord(sent, sampleRate: sampleRate)) }
            dfCounts[sent.kind.downlinkFormat, default: 0] += 1
            started += 1
        }
        pending.removeFirst(started)
        framesSent += started

        floats.removeAll(keepingCapacity: true)
        floats.append(contentsOf: repeatElement(0, count: Int(count) * 2))
        floats.withUnsafeMutableBufferPointer { buffer in
            for sent in active { renderer.add(sent.transmission, into: buffer, firstSample: first) }
            noise?.add(to: buffer)
            configuration.channel.applyFrontEnd(to: buffer)
        }
        active.removeAll { renderer.sampleRange(of: $0.transmission).upperBound <= end }
        nextSample = end
        return floats
    }

    /// The truth records of the frames sent in the blocks delivered so far, not yet taken,
    /// in start order.
    public func takeTruth() -> [TruthRecord] {
        defer { truth.removeAll() }
        return truth
    }
}
