import ModeS
import RealModule

/// The Mode S demodulator: raw sample blocks in, frames with valid parity out.
///
/// Stages per block: magnitude conversion (`MagnitudeConverter`) and the noise floor
/// (`NoiseFloor`); a pre-test that drops quiet stretches thirty-two positions at a time; where it
/// passes, half-bit energies for every sample and phase (`HalfBitPlanes`, places from
/// `SliceKernels`) and a vector preamble detector over every position and phase (shape, level
/// against the noise floor, pulse/quiet ratio: `PreambleDetector`); for detected positions,
/// ranking of phases and bit slicing of the best two; parity check, correction and address
/// acceptance through the core (`AddressFilter.accept`), then the equalisers and, for
/// candidates every magnitude decision failed or whose preamble is too weak for them
/// (`Tuning.weakPreambles`), a coherent sequence search on the raw I/Q samples
/// (`CoherentSlicer`, its repairs over error events, and one more search where a failed
/// decision's own pulses place the reply: `CoherentSlicer.retime`); the best-scoring valid
/// candidate of neighbouring positions wins.
///
/// Streaming: samples may arrive in blocks of any size; the tail that a frame could still
/// need is carried into the next block, so a frame that straddles two blocks is found exactly
/// once and the output does not depend on the block size. Call `finish` at the end of input.
public struct Demodulator: Sendable {
    public let sampleRate: SampleRate
    let kernels: SliceKernels
    /// Half-bit energies of the positions being examined.
    var planes: HalfBitPlanes
    /// `kernels`' preamble and bit places as flat offsets into `planes` (immutable, shared).
    let offsets: SliceKernels.Offsets
    /// Recently seen addresses: decides address/parity replies and 2-bit corrections.
    public var addressFilter = AddressFilter()
    /// Counters for stats.json.
    public var statistics = ReceptionStatistics()
    /// Positions that passed the cheap screen (for tuning and the benchmark).
    public internal(set) var screenPasses: UInt64 = 0

    /// Detection thresholds (`Demodulator+Tuning.swift`); the defaults are tuned on real
    /// and simulated recordings.
    public var tuning = Tuning()
    /// The noise floor, per window of absolute sample positions.
    var noise = NoiseFloor()
    /// Magnitudes not yet fully examined are `mags[0 ..< magCount]`; `carryStart` is the
    /// absolute index of `mags[0]`. The array keeps its size (a chunk and two carries), so new
    /// samples are converted straight into it without being zeroed first.
    var mags: [UInt16]
    var magCount = 0
    var carryStart: UInt64 = 0
    /// The next absolute sample index to examine as a preamble start.
    var nextPosition: UInt64 = 0
    /// The raw samples behind `mags` (in `rawFormat`), for the coherent pass (`CoherentSlicer`),
    /// which needs the carrier phase that magnitudes drop: `raw` holds those of
    /// `mags[0 ..< magCount]`, except while `demodulate` runs, when the block's own samples
    /// are read where they are (`blockRaw`) and `raw` holds only those carried from before it;
    /// read through `rawSamples`.
    var raw: [UInt8] = []
    var rawFormat: SampleFormat = .uc8
    /// While `demodulate` runs: the block's bytes and the `mags` index of its first sample
    /// (negative once the carry has moved past it). nil otherwise.
    var blockRaw: BlockBytes?
    /// `@unchecked Sendable`: the pointer is only set, and read, inside the `demodulate` call
    /// whose block it points into.
    struct BlockBytes: @unchecked Sendable {
        let bytes: UnsafeRawPointer
        var first: Int
    }
    /// The coherent sequence detector for this rate, fitting with the learned pulse.
    var coherentSlicer: CoherentSlicer
    /// Learns the pulse response from strong clean replies (`Tuning.learnsPulseShape`).
    var pulseLearner: PulseLearner
    /// The pulse response the coherent pass fits with: the RTL2832U model's until the
    /// learner finds one that explains the replies better.
    public internal(set) var pulseResponse: PulseResponse
    /// The noise-floor window replies are being learned from, how many were used in it and
    /// how many offered.
    var learningWindow: UInt64 = .max
    var learnedInWindow = 0
    var offeredInWindow = 0
    /// The input's first blocks while they are gathered to be read twice (`readStart`); nil
    /// once the start has been read (or is not to be read twice).
    var startBlocks: [SampleBlock]? = []
    /// Replies before this absolute sample are not learned from: the start's first reading
    /// learned from them already (`readStart`).
    var learnsFrom: UInt64 = 0
    /// The noise power (magnitude units squared) the start's first reading measured in the
    /// input's first window, which has no floor of its own: only the firm decisions' repair
    /// weighs against it there (`hold`); the detector's gates keep their first-window rules.
    var firstWindowNoise: (window: UInt64, power: Double)?
    /// Replies offered to the learner (fits made), for its tests and tuning.
    public internal(set) var pulseOffers: UInt64 = 0
    /// Candidate phases that failed parity and went to the equalisers (`equalizer16`,
    /// `directedPasses`), for tests and tuning.
    public internal(set) var equalizedCandidates: UInt64 = 0
    /// Coherent searches run (`CoherentSlicer.decide`), for tuning and the benchmark.
    public internal(set) var coherentSearches: UInt64 = 0
    /// Candidates whose soft repair as an extended squitter from an unknown address was tried
    /// (`repairUnknownSquitter`), per path: each is one chance for noise to pass
    /// (`ErasureRepair.falseAcceptBound`), counted for the noise benchmark.
    public internal(set) var squitterRepairs: (magnitude: UInt64, coherent: UInt64) = (0, 0)
    /// Of the coherent path's, those of firm decisions, repaired over more events
    /// (`Tuning.strongErasureBits`): counted apart, as their bound per decision is larger.
    public internal(set) var strongSquitterRepairs: UInt64 = 0
    /// And those of steady decisions (`Hold.steady`), repaired over `Tuning.steadyErasureBits`.
    public internal(set) var steadySquitterRepairs: UInt64 = 0
    /// Failed coherent decisions checked as an extended squitter whose first bits were
    /// misjudged (`checkMisjudgedFormat`), counted per format tried: each one exact parity
    /// check, one chance in 2²⁴ for noise.
    public internal(set) var formatGuesses: UInt64 = 0
    /// The noise-floor window the coherent budget is being counted in, and the searches in it.
    var coherentWindow: UInt64 = .max
    var coherentSearchesInWindow = 0
    /// The searches under decoded replies in it (`searchUnder`, `overlapBudget`).
    var overlapSearchesInWindow = 0
    /// The magnitude slicers' level gate in the current noise window (`pulseThreshold`,
    /// `pulseSumThreshold` of `levelGate`) when the detector applies a weaker one
    /// (`detectionGate`); nil when they are the same.
    var strictLevel: (pulse: Int16, summed: Int16)?
    /// How far the later preamble pulses may fall under their quiet neighbours in the current
    /// noise window (`Tuning.shapeTolerance16`), in plane units; 0: no such test.
    var shapeTolerance: Int32 = 0
    /// The last start (absolute, in fortieths of a sample) the coherent pass searched.
    var lastCoherentStart: Int64 = -1
    /// The starts (absolute, in fortieths) of the last few coherent searches that failed,
    /// oldest first: a reply decoded inside one may be what hid it (`Demodulator.decoded`).
    var failedSearches: [Int64] = []
    /// A decoded reply to look under once the detector loop has passed its tail
    /// (`searchPending`).
    var pendingOverlap: PendingOverlap?
    /// Searches under decoded replies (`searchUnder`), for tuning and the benchmark.
    public internal(set) var overlapSearches: UInt64 = 0
    /// Decoded replies fitted and subtracted to search under them (`searchUnder`).
    public internal(set) var repliesSubtracted: UInt64 = 0
    /// Samples kept before the next position to examine (`scan`): what `isQuiet` reads before
    /// the earliest start the coherent pass may refine to (a sample and a half before the
    /// position) and the pulse's reach before it, and the samples under a decoded reply
    /// (`Demodulator+Overlap`): a failed search it started inside, or itself until the loop
    /// has passed its tail. The learned pulse keeps the model's reach.
    let lookBack: Int
    /// Samples a position needs after it before it is examined: two replies' spans (a reply
    /// decoded there, and one it hides starting before its end: `Demodulator+Overlap`).
    var lookAhead: Int { 2 * kernels.span }

    public init(sampleRate: SampleRate) {
        self.sampleRate = sampleRate
        kernels = SliceKernels(rate: sampleRate)
        planes = HalfBitPlanes(kernels: kernels)
        offsets = SliceKernels.Offsets(kernels, stride: planes.stride)
        mags = [UInt16](repeating: 0, count: NoiseFloor.windowSize + 4 * (kernels.span + 1) + 16)
        coherentSlicer = CoherentSlicer(sampleRate: sampleRate)
        // A failed search a reply decoded later may be searched again (`searchUnder`): it
        // started at most a reply's length before; a reply looked under (`searchPending`)
        // starts at most a reply's length, its tail and a block of positions before the loop's.
        lookBack = 2 * kernels.span + PreambleDetector.lanes + Demodulator.quietSamples + coherentSlicer.reach + 3
        let model = PulseResponse(filter: .rtl2832u, sampleRate: sampleRate)
        pulseResponse = model
        pulseLearner = PulseLearner(prior: model)
    }

    /// Makes room for `n` more magnitudes after the first `magCount` (the carry is normally
    /// under a reply's length; the array grows only if it is not).
    private mutating func reserve(_ n: Int) {
        if magCount + n > mags.count { mags.append(contentsOf: repeatElement(0, count: magCount + n - mags.count)) }
        let bytes = (magCount + n) * rawFormat.bytesPerSample
        if bytes > raw.count { raw.append(contentsOf: repeatElement(0, count: bytes - raw.count)) }
    }

    /// Demodulates one block. `emit` receives each frame in order. The input's first
    /// `startSamples` are gathered and read twice (`readStart`): their frames come once
    /// they are all in (or at `finish`).
    public mutating func process(_ block: SampleBlock, emit: (DemodulatedFrame) -> Void) {
        if startBlocks != nil {
            guard tuning.readsStartTwice && tuning.coherentPasses > 0 else {
                startBlocks = nil
                return demodulate(block, emit: emit)
            }
            startBlocks!.append(block)
            if startBlocks!.reduce(0, { $0 + $1.sampleCount }) >= Demodulator.startSamples { readStart(emit: emit) }
            return
        }
        demodulate(block, emit: emit)
    }

    /// `process` once the start is read: demodulates the block.
    mutating func demodulate(_ block: SampleBlock, emit: (DemodulatedFrame) -> Void) {
        let count = block.sampleCount
        guard count > 0 else { return }
        // A gap (dropped samples) or another format breaks continuity: start afresh at the block.
        if block.firstSample != carryStart + UInt64(magCount) || block.format != rawFormat {
            rawFormat = block.format
            magCount = 0
            pendingOverlap = nil
            failedSearches = []
            carryStart = block.firstSample
            nextPosition = max(nextPosition, block.firstSample)
        }
        // Work in chunks so the carried buffer stays small whatever the block size.
        let chunk = NoiseFloor.windowSize
        let width = block.format.bytesPerSample
        var done = 0
        block.bytes.withUnsafeBytes { input in
            // The block's raw samples are read in place (`rawSamples`); only what the next
            // block needs is copied, at the end.
            blockRaw = BlockBytes(bytes: input.baseAddress!, first: magCount)
            while done < count {
                let n = min(chunk, count - done)
                let old = magCount
                reserve(n)
                let first = carryStart + UInt64(old)
                mags.withUnsafeMutableBufferPointer { m in
                    let bytes = UnsafeRawBufferPointer(rebasing: input[(done * width)...])
                    MagnitudeConverter.convert(bytes, format: block.format, count: n, into: m.baseAddress! + old)
                    noise.add(UnsafeBufferPointer(rebasing: m[old ..< old + n]), first: first)
                }
                magCount += n
                statistics.samplesProcessed += UInt64(n)
                statistics.noisePowerSum = noise.powerSum
                statistics.noiseSamples = noise.estimates
                done += n
                scan(limit: magCount - lookAhead, emit: emit)
            }
            // The carried samples' raw bytes into `raw`, after those from before the block.
            let block = blockRaw!
            blockRaw = nil
            let from = max(0, block.first)
            if magCount > from {
                raw.withUnsafeMutableBytes { r in
                    r.baseAddress!.advanced(by: from * width)
                        .copyMemory(from: block.bytes + (from - block.first) * width, byteCount: (magCount - from) * width)
                }
            }
        }
    }

    /// Raw samples `mags[from ..< from + count]` as interleaved I/Q floats (`SampleFormat.complexSamples`):
    /// from `raw`, or while `demodulate` runs from the block itself for its own samples.
    /// (Mutating only so that the demodulator's mutating paths, where it is called from
    /// closures, do not copy the whole demodulator for it.)
    mutating func rawSamples(from: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        let width = rawFormat.bytesPerSample, format = rawFormat
        let split = min(from + count, max(from, blockRaw?.first ?? from + count))
        if split > from {
            raw.withUnsafeBytes { r in
                format.complexSamples(r.baseAddress! + from * width, count: split - from, into: out)
            }
        }
        if let block = blockRaw, from + count > split {
            format.complexSamples(block.bytes + (split - block.first) * width, count: from + count - split, into: out + 2 * (split - from))
        }
    }

    /// Examines what is left at the end of the input (padding with silence).
    public mutating func finish(emit: (DemodulatedFrame) -> Void) {
        if startBlocks != nil { readStart(emit: emit) }
        let end = magCount
        let padding = lookAhead + 1
        reserve(padding)
        mags.withUnsafeMutableBufferPointer { m in
            (m.baseAddress! + end).update(repeating: 0, count: padding)
        }
        // Silence: uc8's zero is 127.5, as near as a byte gets.
        let width = rawFormat.bytesPerSample
        let silence: UInt8 = rawFormat == .uc8 ? 128 : 0
        raw.withUnsafeMutableBytes { r in
            _ = r.baseAddress!.advanced(by: end * width).initializeMemory(as: UInt8.self, repeating: silence,
                                                                           count: padding * width)
        }
        magCount += padding
        scan(limit: end, emit: emit)
        magCount = 0
        pendingOverlap = nil
        failedSearches = []
    }

    /// Examines start positions up to `limit` (relative to `mags`), then drops what no later
    /// frame can need.
    mutating func scan(limit: Int, emit: (DemodulatedFrame) -> Void) {
        guard limit > 0 else { return }
        var s = Int(nextPosition - carryStart)
        if s < limit {
            var found: [DemodulatedFrame] = []
            let available = magCount
            let end = mags.withUnsafeBufferPointer { m in
                screen(m.baseAddress!, from: s, to: limit, available: available, found: &found)
            }
            s = end
            for f in found { emit(f) }
        }
        nextPosition = carryStart + UInt64(s)
        // `lookBack` samples before the next position stay: the coherent pass reads from
        // one before it (`coherent`), weighs the quiet before a weak start (`isQuiet`) and
        // searches under a decoded reply (`Demodulator+Overlap`), whatever the blocks.
        let keep = min(s, magCount) - lookBack
        if keep > 0 {
            let rest = magCount - keep
            mags.withUnsafeMutableBufferPointer { m in
                m.baseAddress!.update(from: m.baseAddress! + keep, count: rest)
            }
            // `raw` holds the samples before the block's (all of them outside `demodulate`).
            let width = rawFormat.bytesPerSample
            let rawEnd = blockRaw.map { min(max(0, $0.first), magCount) } ?? magCount
            if rawEnd > keep {
                raw.withUnsafeMutableBytes { r in
                    r.baseAddress!.copyMemory(from: r.baseAddress! + keep * width, byteCount: (rawEnd - keep) * width)
                }
            }
            blockRaw?.first -= keep
            magCount = rest
            carryStart += UInt64(keep)
        }
    }
}
