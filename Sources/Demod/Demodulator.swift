import ModeS
import RealModule

/// The Mode S demodulator: raw sample blocks in, frames with valid parity out.
///
/// Stages per block: magnitude conversion (`MagnitudeConverter`); a cheap phase-independent
/// preamble screen with running sums (pulse region against quiet region); for screened
/// positions, phase-aware preamble correlation and bit slicing for every candidate phase
/// (`SliceKernels`); parity check, correction and address acceptance through the core
/// (`AddressFilter.accept`); the best-scoring valid candidate of neighbouring positions wins.
///
/// Streaming: samples may arrive in blocks of any size; the tail that a frame could still
/// need is carried into the next block, so a frame that straddles two blocks is found exactly
/// once and the output does not depend on the block size. Call `finish` at the end of input.
public struct Demodulator: Sendable {
    public let sampleRate: SampleRate
    let kernels: SliceKernels
    /// Recently seen addresses: decides address/parity replies and 2-bit corrections.
    public var addressFilter = AddressFilter()
    /// Counters for stats.json.
    public var statistics = DemodStatistics()
    /// Positions that passed the cheap screen (for tuning and the benchmark).
    public private(set) var screenPasses: UInt64 = 0

    /// Detection thresholds; the defaults are tuned on real recordings.
    public var tuning = Tuning()

    /// Detection thresholds, all as ratios ×16 (integer arithmetic on the hot path).
    public struct Tuning: Sendable, Equatable {
        /// Gate: each preamble pulse's sample pair must exceed a quiet sample times
        /// 1 + 2^−gateShift (0: twice, 1: 1.5 times, 15: once); nil: no gate.
        public var gateShift: UInt16? = nil
        /// Screen: mean pulse-region magnitude over mean quiet-region magnitude.
        public var screenRatio16: Int64 = 40
        /// Screen: mean pulse-region magnitude over the noise floor.
        public var noiseRatio16: Int64 = 48
        /// Preamble: mean pulse energy over mean quiet energy, at the candidate phase.
        public var preambleRatio16: Int64 = 32
        /// Preamble shape: how many of the six "pulse above its quiet neighbour" tests may fail.
        public var shapeSlack = 2
        /// Phases sliced per candidate position, best preamble correlation first.
        public var phasesSliced = 2
        /// Slicing stops when more of the first 24 bits than this are weak (halves nearly equal).
        public var weakBitLimit = 16
        /// False: count screened positions but correlate and slice none (the benchmark's
        /// "preamble search" stage).
        public var evaluates = true
        /// The default: as sensitive as the detector gets (every screened position has its
        /// preamble correlated at every phase). Finds the most frames; costs the most in a busy sky.
        public init() {}

        /// Cheaper: a SIMD gate rejects most positions before any correlation, and the
        /// preamble must have the full shape. About a fifth of the work on a busy recording, for
        /// a few percent fewer frames (the weakest and most overlapped).
        public static var fast: Tuning {
            var t = Tuning()
            t.gateShift = 0
            t.shapeSlack = 0
            return t
        }
    }

    var noise = NoiseFloor()
    /// Magnitudes not yet fully examined; `carryStart` is the absolute index of `mags[0]`.
    private var mags: [UInt16] = []
    private var carryStart: UInt64 = 0
    /// The next absolute sample index to examine as a preamble start.
    private var nextPosition: UInt64 = 0

    public init(sampleRate: SampleRate) {
        self.sampleRate = sampleRate
        kernels = SliceKernels(rate: sampleRate)
    }

    /// Demodulates one block. `emit` receives each frame in order.
    public mutating func process(_ block: SampleBlock, emit: (DemodulatedFrame) -> Void) {
        let count = block.sampleCount
        guard count > 0 else { return }
        // A gap (dropped samples) breaks continuity: start afresh at the block.
        if block.firstSample != carryStart + UInt64(mags.count) {
            mags.removeAll(keepingCapacity: true)
            carryStart = block.firstSample
            nextPosition = max(nextPosition, block.firstSample)
        }
        // Work in chunks so the carried buffer stays small whatever the block size.
        let chunk = NoiseFloor.windowSize
        var done = 0
        block.bytes.withUnsafeBytes { raw in
            while done < count {
                let n = min(chunk, count - done)
                let old = mags.count
                mags.append(contentsOf: repeatElement(0, count: n))
                let first = carryStart + UInt64(old)
                mags.withUnsafeMutableBufferPointer { m in
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[(done * block.format.bytesPerSample)...])
                    MagnitudeConverter.convert(bytes, format: block.format, count: n, into: m.baseAddress! + old)
                    noise.add(UnsafeBufferPointer(rebasing: m[old...]), first: first)
                }
                statistics.samplesProcessed += UInt64(n)
                done += n
                scan(limit: mags.count - kernels.span, emit: emit)
            }
        }
    }

    /// Examines what is left at the end of the input (padding with silence).
    public mutating func finish(emit: (DemodulatedFrame) -> Void) {
        let end = mags.count
        mags.append(contentsOf: repeatElement(0, count: kernels.span + 1))
        scan(limit: end, emit: emit)
        mags.removeAll()
    }

    /// Examines start positions up to `limit` (relative to `mags`), then drops what no later
    /// frame can need.
    private mutating func scan(limit: Int, emit: (DemodulatedFrame) -> Void) {
        guard limit > 0 else { return }
        var s = Int(nextPosition - carryStart)
        if s < limit {
            var found: [DemodulatedFrame] = []
            let end = mags.withUnsafeBufferPointer { m in
                screen(m.baseAddress!, from: s, to: limit, found: &found)
            }
            s = end
            for f in found { emit(f) }
        }
        nextPosition = carryStart + UInt64(s)
        let keep = min(s, mags.count)
        if keep > 0 {
            mags.removeFirst(keep)
            carryStart += UInt64(keep)
        }
    }

    /// The screen loop over [from, to); returns the next position to examine.
    ///
    /// Stage 1, eight positions at a time (`SIMD8`): the gate. Stage 2, per position that
    /// passed: pulse region against quiet region and the noise floor. Stage 3: `evaluateBest`.
    private mutating func screen(_ m: UnsafePointer<UInt16>, from: Int, to: Int, found: inout [DemodulatedFrame]) -> Int {
        var s = from
        let twoFour = sampleRate == .rate2_4
        let gateShift = tuning.gateShift
        // The floor changes only at window boundaries: look it up once per window.
        var floorLimit = 0
        var floor: Int64 = 0
        while s < to {
            if s >= floorLimit {
                let absolute = carryStart + UInt64(s)
                floor = Int64(noise.level(at: absolute))
                let windowEnd = ((absolute >> UInt64(NoiseFloor.windowShift)) + 1) << UInt64(NoiseFloor.windowShift)
                floorLimit = s + Int(windowEnd - absolute)
            }
            var mask: UInt32
            let lanes = min(8, to - s)
            if let shift = gateShift {
                if lanes == 8 {
                    mask = twoFour ? gate24(m + s, shift) : gate20(m + s, shift)
                } else {
                    mask = 0
                    for lane in 0..<lanes where gate(m + s + lane, twoFour, shift) { mask |= 1 << UInt32(lane) }
                }
            } else {
                // No gate: stage 2 on running sums, one position at a time, up to the next
                // window boundary or the first position that passes.
                let end = min(to, floorLimit)
                let next = regionsScan(m, from: s, to: end, twoFour, floor)
                if next >= end { s = end; continue }
                s = next
                mask = 1
            }
            var jumped = false
            while mask != 0 {
                let position = s + mask.trailingZeroBitCount
                mask &= mask &- 1
                guard gateShift == nil || regions(m + position, twoFour, floor) else { continue }
                screenPasses &+= 1
                guard tuning.evaluates else { continue }
                if let frame = evaluateBest(m, at: position) {
                    found.append(frame)
                    s = position + frameSamples(frame.received.frame.bitCount)
                    jumped = true
                    break
                }
            }
            if !jumped { s += gateShift == nil ? 1 : lanes }
        }
        return s
    }

    /// Stage 2: mean pulse-region magnitude over the mean quiet-region magnitude and over the
    /// noise floor. 2.0 MS/s: pulses in samples 0–3 and 7–10, quiet 4–6 and 11–14. 2.4 MS/s:
    /// pulses 0–4 and 8–12, quiet 6–7 and 15–18 (the samples that hold only pulses or only
    /// quiet at every phase).
    @inline(__always)
    private func regions(_ m: UnsafePointer<UInt16>, _ twoFour: Bool, _ floor: Int64) -> Bool {
        var p: Int64 = 0, q: Int64 = 0
        let nP: Int64, nQ: Int64
        if twoFour {
            for j in 0...4 { p += Int64(m[j]) }
            for j in 8...12 { p += Int64(m[j]) }
            for j in 6...7 { q += Int64(m[j]) }
            for j in 15...18 { q += Int64(m[j]) }
            (nP, nQ) = (10, 6)
        } else {
            for j in 0...3 { p += Int64(m[j]) }
            for j in 7...10 { p += Int64(m[j]) }
            for j in 4...6 { q += Int64(m[j]) }
            for j in 11...14 { q += Int64(m[j]) }
            (nP, nQ) = (8, 7)
        }
        return p * nQ * 16 > tuning.screenRatio16 * q * nP && p * 16 > floor * nP * tuning.noiseRatio16
    }

    /// Stage 2 over [from, to) without a gate: the pulse and quiet region sums slide by one
    /// sample per position (four adds each). Returns the first position that passes, or `to`.
    private func regionsScan(_ m: UnsafePointer<UInt16>, from: Int, to: Int, _ twoFour: Bool, _ floor: Int64) -> Int {
        guard from < to else { return to }
        var p: Int64 = 0, q: Int64 = 0
        let nP: Int64, nQ: Int64
        let base = m + from
        if twoFour {
            for j in 0...4 { p += Int64(base[j]) }
            for j in 8...12 { p += Int64(base[j]) }
            for j in 6...7 { q += Int64(base[j]) }
            for j in 15...18 { q += Int64(base[j]) }
            (nP, nQ) = (10, 6)
        } else {
            for j in 0...3 { p += Int64(base[j]) }
            for j in 7...10 { p += Int64(base[j]) }
            for j in 4...6 { q += Int64(base[j]) }
            for j in 11...14 { q += Int64(base[j]) }
            (nP, nQ) = (8, 7)
        }
        let ratio = tuning.screenRatio16 * nP, quietWeight = nQ * 16
        let minimumP = floor * nP * tuning.noiseRatio16 / 16
        var s = from
        while s < to {
            if p > minimumP && p * quietWeight > ratio * q { return s }
            if twoFour {
                p += Int64(m[s + 5]) - Int64(m[s]) + Int64(m[s + 13]) - Int64(m[s + 8])
                q += Int64(m[s + 8]) - Int64(m[s + 6]) + Int64(m[s + 19]) - Int64(m[s + 15])
            } else {
                p += Int64(m[s + 4]) - Int64(m[s]) + Int64(m[s + 11]) - Int64(m[s + 7])
                q += Int64(m[s + 7]) - Int64(m[s + 4]) + Int64(m[s + 15]) - Int64(m[s + 11])
            }
            s += 1
        }
        return to
    }

    /// The gate for eight consecutive positions at 2.0 MS/s, as a bit mask (bit i = position
    /// i): one 128-bit `SIMD8<UInt16>` per row of offsets (SSE on x86, NEON on the Pi).
    /// Magnitudes are 15-bit, so sums of two never overflow a lane.
    @inline(__always)
    private func gate20(_ m: UnsafePointer<UInt16>, _ shift: UInt16) -> UInt32 {
        let raw = UnsafeRawPointer(m)
        @inline(__always) func v(_ i: Int) -> SIMD8<UInt16> { raw.loadUnaligned(fromByteOffset: 2 * i, as: SIMD8<UInt16>.self) }
        @inline(__always) func quiet(_ i: Int) -> SIMD8<UInt16> { let q = v(i); return q &+ (q &>> shift) }
        let c0 = v(0) &+ v(1) .> quiet(4)
        let c1 = v(2) &+ v(3) .> quiet(5)
        let c2 = v(7) &+ v(8) .> quiet(6)
        let c3 = v(9) &+ v(10) .> quiet(12)
        return bitmask(c0 .& c1 .& c2 .& c3)
    }

    /// The gate for eight consecutive positions at 2.4 MS/s.
    @inline(__always)
    private func gate24(_ m: UnsafePointer<UInt16>, _ shift: UInt16) -> UInt32 {
        let raw = UnsafeRawPointer(m)
        @inline(__always) func v(_ i: Int) -> SIMD8<UInt16> { raw.loadUnaligned(fromByteOffset: 2 * i, as: SIMD8<UInt16>.self) }
        @inline(__always) func quiet(_ i: Int) -> SIMD8<UInt16> { let q = v(i); return q &+ (q &>> shift) }
        let c0 = v(0) &+ v(1) .> quiet(6)
        let c1 = v(2) &+ v(3) .> quiet(7)
        let c2 = v(8) &+ v(9) .> quiet(14)
        let c3 = v(11) &+ v(12) .> quiet(15)
        return bitmask(c0 .& c1 .& c2 .& c3)
    }

    /// The scalar twin of `gate20`/`gate24` for one position: each preamble pulse (the two
    /// samples that hold it whatever the phase) above a quiet sample beside it times
    /// 1 + 2^−shift. 2.0 MS/s: pulses in samples 0–1, 2–3, 7–8, 9–10; quiet 4, 5, 6, 12.
    /// 2.4 MS/s: pulses 0–1, 2–3, 8–9, 11–12; quiet 6, 7, 14, 15.
    @inline(__always)
    func gate(_ m: UnsafePointer<UInt16>, _ twoFour: Bool, _ shift: UInt16) -> Bool {
        @inline(__always) func pair(_ i: Int) -> UInt16 { m[i] &+ m[i + 1] }
        @inline(__always) func quiet(_ i: Int) -> UInt16 { m[i] &+ (m[i] &>> shift) }
        if twoFour {
            return pair(0) > quiet(6) && pair(2) > quiet(7) && pair(8) > quiet(14) && pair(11) > quiet(15)
        }
        return pair(0) > quiet(4) && pair(2) > quiet(5) && pair(7) > quiet(6) && pair(9) > quiet(12)
    }

    /// Eight gate results (vector form) for tests: the SIMD and scalar gates must agree.
    func gateMask(_ m: UnsafePointer<UInt16>, twoFour: Bool) -> (simd: UInt32, scalar: UInt32) {
        var scalar: UInt32 = 0
        let shift = tuning.gateShift ?? 0
        for lane in 0..<8 where gate(m + lane, twoFour, shift) { scalar |= 1 << UInt32(lane) }
        return (twoFour ? gate24(m, shift) : gate20(m, shift), scalar)
    }

    @inline(__always)
    private func bitmask(_ mask: SIMDMask<SIMD8<Int16>>) -> UInt32 {
        let weights = SIMD8<UInt16>(1, 2, 4, 8, 16, 32, 64, 128)
        return UInt32(SIMD8<UInt16>(repeating: 0).replacing(with: weights, where: mask).wrappedSum())
    }

    /// Samples from a frame's start to its end.
    private func frameSamples(_ bits: Int) -> Int {
        ((16 + 2 * bits) * kernels.halfBitSteps) / kernels.resolution
    }

    /// The best valid frame starting at `s` or `s + 1`, or nil.
    private mutating func evaluateBest(_ m: UnsafePointer<UInt16>, at s: Int) -> DemodulatedFrame? {
        guard var best = evaluate(m, at: s) else { return nil }
        if let second = evaluate(m, at: s + 1), second.score > best.score { best = second }
        count(best)
        return best
    }

    /// Adds an emitted frame to the statistics.
    private mutating func count(_ frame: DemodulatedFrame) {
        switch frame.parity.correctedBits {
        case 0: statistics.accepted.0 += 1
        case 1: statistics.accepted.1 += 1
        default: statistics.accepted.2 += 1
        }
        let signal = frame.received.signal ?? -100
        let power = Double.pow(10, signal / 10)
        statistics.signalPowerSum += power
        statistics.peakSignalPower = max(statistics.peakSignalPower, power)
        if signal > -3 { statistics.strongSignals += 1 }
    }

    /// Tries every phase at start sample `s`; returns the best-scoring frame that passes parity.
    private mutating func evaluate(_ m: UnsafePointer<UInt16>, at s: Int) -> DemodulatedFrame? {
        kernels.preamble.withUnsafeBufferPointer { preamble in
            kernels.bits.withUnsafeBufferPointer { bits in
                evaluate(m, at: s, preamble: preamble.baseAddress!, bits: bits.baseAddress!)
            }
        }
    }

    private mutating func evaluate(_ m: UnsafePointer<UInt16>, at s: Int, preamble: UnsafePointer<SliceKernels.Window>, bits: UnsafePointer<SliceKernels.Window>) -> DemodulatedFrame? {
        let base = m + s
        // Rank the phases by preamble correlation; slice only the best few.
        var ranked: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)  // packed: score << 3 | index
        var pulses: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
        var count = 0
        for index in 0..<kernels.phases.count {
            let w = preamble + index * SliceKernels.preambleWindows
            // Shape: pulses above the quiet half bits beside them (all but `shapeSlack` of
            // six), tested as the windows are computed so a hopeless phase costs little.
            let slack = tuning.shapeSlack
            var fails = 0
            let p0 = w[0].apply(base), q1 = w[4].apply(base)
            if p0 <= q1 { fails += 1; if fails > slack { continue } }
            let p2 = w[1].apply(base)
            if p2 <= q1 { fails += 1; if fails > slack { continue } }
            let q3 = w[5].apply(base)
            if p2 <= q3 { fails += 1; if fails > slack { continue } }
            let p7 = w[2].apply(base), q6 = w[8].apply(base)
            if p7 <= q6 { fails += 1; if fails > slack { continue } }
            let q8 = w[9].apply(base)
            if p7 <= q8 { fails += 1; if fails > slack { continue } }
            let p9 = w[3].apply(base)
            if p9 <= q8 { fails += 1; if fails > slack { continue } }
            let pulse = p0 &+ p2 &+ p7 &+ p9
            var quiet = q1 &+ q3 &+ q6 &+ q8
            for j in 6...7 { quiet &+= w[j].apply(base) }
            for j in 10...13 { quiet &+= w[j].apply(base) }
            // Mean pulse energy (4 half bits) > ratio × mean quiet energy (10 half bits).
            guard Int64(pulse) * 10 * 16 > tuning.preambleRatio16 * Int64(quiet) * 4 else { continue }
            let score = (pulse &* 5 &- quiet &* 2) >> 3
            withUnsafeMutableBytes(of: &ranked) { $0.storeBytes(of: score << 3 | Int32(index), toByteOffset: count * 4, as: Int32.self) }
            withUnsafeMutableBytes(of: &pulses) { $0.storeBytes(of: pulse, toByteOffset: index * 4, as: Int32.self) }
            count += 1
        }
        guard count > 0 else { return nil }
        statistics.preambles += 1
        // Best first (insertion sort of at most five).
        withUnsafeMutableBytes(of: &ranked) { raw in
            let r = raw.bindMemory(to: Int32.self)
            for i in 1..<max(1, count) {
                var j = i
                while j > 0 && r[j] > r[j - 1] { r.swapAt(j, j - 1); j -= 1 }
            }
        }
        var best: DemodulatedFrame?
        let absolute = carryStart + UInt64(s)
        let time = Double(absolute) / Double(sampleRate.hertz)
        for rank in 0..<min(count, tuning.phasesSliced) {
            let packed = withUnsafeBytes(of: &ranked) { $0.load(fromByteOffset: rank * 4, as: Int32.self) }
            let index = Int(packed & 7)
            let pulseLevel = withUnsafeBytes(of: &pulses) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
            guard let candidate = slice(base, bits: bits + index * 112, pulse: pulseLevel) else { continue }
            guard let result = addressFilter.accept(candidate.frame, at: time) ?? repairWeakBits(candidate, at: time) else {
                if ParityCheck.isAddressParity(candidate.frame.downlinkFormat) {
                    statistics.unknownAddress += 1
                } else {
                    statistics.bad += 1
                }
                continue
            }
            if let current = best, current.score >= candidate.score { continue }
            let phase = kernels.phases[index]
            let pulse = withUnsafeBytes(of: &pulses) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
            let steps = UInt64(s) &* UInt64(kernels.resolution) &+ UInt64(phase)
            let endOfBit56 = (carryStart &* UInt64(kernels.resolution) &+ steps &+ UInt64(128 * kernels.halfBitSteps))
            let ticks = endOfBit56 &* sampleRate.ticksPerSample / UInt64(kernels.resolution)
            let level = Double(pulse) / Double(4 * kernels.halfBitSteps) / Double(MagnitudeConverter.fullScale)
            let power = level * level
            best = DemodulatedFrame(
                received: ReceivedFrame(frame: result.frame, timestamp: ticks, signal: 10 * Double.log10(max(power, 1e-12))),
                parity: result, sampleIndex: absolute, score: candidate.score)
            // A clean decode at the best-correlated phase is as good as it gets.
            if result.correctedBits == 0 && rank == 0 { break }
        }
        return best
    }

    /// Slices the bits after a preamble; nil for a format with no defined length, or when
    /// too many of the first bits are too weak to be a reply (`pulse` is the preamble's
    /// summed pulse energy: a data pulse of the same reply carries about a quarter of it).
    private func slice(_ base: UnsafePointer<UInt16>, bits windows: UnsafePointer<SliceKernels.Window>, pulse: Int32) -> Candidate? {
        var high: UInt64 = 0
        var score = 0
        // A bit is weak when its two halves differ by less than a third of a pulse.
        let weakLimit = pulse / 12
        var weak = 0
        // The first five bits say how long the frame is.
        for k in 0..<5 {
            let v = windows[k].apply(base)
            high = high << 1 | (v > 0 ? 1 : 0)
            score &+= Int(v.magnitude)
            if v.magnitude < weakLimit.magnitude { weak += 1 }
        }
        let df = Int(high)
        let bitCount: Int
        // DF24 (Comm-D, a quarter of all bit patterns) is left out: it is rare on the air and
        // would let through a flood of noise candidates.
        switch df {
        case 0, 4, 5, 11: bitCount = 56
        case 16, 17, 18, 19, 20, 21: bitCount = 112
        default: return nil
        }
        var low: UInt64 = 0
        var weakest = WeakestBits()
        for k in 5..<min(bitCount, 64) {
            let v = windows[k].apply(base)
            high = high << 1 | (v > 0 ? 1 : 0)
            let magnitude = v.magnitude
            score &+= Int(magnitude)
            weakest.offer(bit: k + 1, margin: magnitude)
            if k < 24 && magnitude < weakLimit.magnitude {
                weak += 1
                if weak > tuning.weakBitLimit { return nil }
            }
        }
        if bitCount == 112 {
            for k in 64..<112 {
                let v = windows[k].apply(base)
                low = low << 1 | (v > 0 ? 1 : 0)
                score &+= Int(v.magnitude)
                weakest.offer(bit: k + 1, margin: v.magnitude)
            }
            low <<= 16
        } else {
            high <<= 8
        }
        let raw = UInt128(high) << 64 | UInt128(low)
        guard let frame = Frame(raw: raw, bitCount: bitCount) else { return nil }
        return Candidate(frame: frame, score: score, weakest: weakest)
    }

    /// A sliced frame before its parity check.
    struct Candidate {
        var frame: Frame
        /// Summed bit margins.
        var score: Int
        var weakest: WeakestBits
    }

    /// The three bits (1-based frame bit numbers, after the DF) with the smallest margins.
    struct WeakestBits {
        var bits: (Int, Int, Int) = (0, 0, 0)
        var margins: (UInt32, UInt32, UInt32) = (.max, .max, .max)

        @inline(__always)
        mutating func offer(bit: Int, margin: UInt32) {
            guard margin < margins.2 else { return }
            if margin < margins.0 {
                bits = (bit, bits.0, bits.1); margins = (margin, margins.0, margins.1)
            } else if margin < margins.1 {
                bits = (bits.0, bit, bits.1); margins = (margins.0, margin, margins.1)
            } else {
                bits.2 = bit; margins.2 = margin
            }
        }
    }

    /// After a failed parity check: inverts every non-empty subset of the three weakest bits
    /// and accepts the result only for an address already known (multi-bit repairs must not
    /// invent aircraft). Returns the repaired result with the total bits changed.
    private func repairWeakBits(_ candidate: Candidate, at time: Double) -> ParityResult? {
        let w = candidate.weakest
        let bits = [w.bits.0, w.bits.1, w.bits.2].filter { $0 > 0 }
        guard !bits.isEmpty else { return nil }
        let known = addressFilter.at(time)
        for subset in 1..<(1 << bits.count) {
            var frame = candidate.frame
            var flipped = 0
            for (i, bit) in bits.enumerated() where subset & (1 << i) != 0 {
                frame = frame.flipping(bit: bit)
                flipped += 1
            }
            guard let result = ParityCheck.check(frame, known: known), known.contains(result.address) else { continue }
            return ParityResult(frame: result.frame, outcome: .corrected(bits: flipped + result.correctedBits),
                                address: result.address, interrogatorID: result.interrogatorID)
        }
        return nil
    }
}
