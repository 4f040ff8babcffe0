import ModeS

/// The detector loop: every position at every phase, thirty-two positions at a time.
extension Demodulator {
    /// The detector loop over magnitude indices [from, to) (`available` magnitudes exist);
    /// returns the next position to examine.
    ///
    /// Per block of thirty-two positions: the pre-test on the `hot` bytes; where it passes, the
    /// half-bit planes are extended and `PreambleDetector` tests every phase (shape, level,
    /// ratio). Positions with a phase that passes go to `evaluateBest` (ranking, slicing,
    /// parity); after a frame the loop jumps past it. Once past a decoded reply's tail, the
    /// look under it (`searchPending`), and past the reply it finds.
    mutating func screen(_ m: UnsafePointer<UInt16>, from: Int, to: Int, available: Int,
                         found: inout [DemodulatedFrame]) -> Int {
        var s = from
        // The floor changes only at window boundaries: look it up once per window (the
        // planes' `loud` bytes depend on it, so they are refilled then).
        var floorLimit = 0
        var loudAbove: Int16 = 0
        var detector = makeDetector()
        planes.invalidate()
        var bytes = planes.bytes
        while s < to {
            // A decoded reply's tail passed with no reply decoded there: the look under it.
            if pendingOverlap != nil, let end = searchPending(at: s, into: &found), end > s { s = end; continue }
            if s >= floorLimit {
                let absolute = carryStart + UInt64(s)
                let floor = Int64(noise.level(at: absolute))
                let gate = detectionGate
                loudAbove = pulseThreshold(floor: floor, each: gate.each)
                detector.summedAbove = pulseSumThreshold(floor: floor, summed: gate.summed)
                // A weaker detection gate than the magnitude slicers' (`weakLevelGate`): the
                // candidates that miss the slicers' go to the coherent pass only (`evaluate`).
                strictLevel = gate == levelGate ? nil
                    : (pulseThreshold(floor: floor, each: levelGate.each), pulseSumThreshold(floor: floor, summed: levelGate.summed))
                // Before the first floor (0) the tolerance is off, like the level gate.
                let tolerance = shapeTolerance16
                shapeTolerance = tolerance > 0 ? Int32(pulseThreshold(floor: floor, each: tolerance)) : 0
                if tuning.screensWeakLanes {
                    detector.tolerance = Int16(clamping: shapeTolerance)
                    detector.loudLimit = coherentLoudLimit(floor: floor)
                }
                let windowEnd = ((absolute >> UInt64(NoiseFloor.windowShift)) + 1) << UInt64(NoiseFloor.windowShift)
                floorLimit = s + Int(windowEnd - absolute)
                planes.invalidate()
            }
            if !planes.covers(s) {
                planes.fill(m, origin: s, available: available, loudAbove: loudAbove)
                guard planes.covers(s) else { break }
                bytes = planes.bytes
            }
            let end = min(to, floorLimit, planes.origin + planes.usable)
            // The detector runs on to the first block with a candidate. Quiet stretches (most
            // of a real sky) end at its pre-test, before any byte plane is computed. Lanes past
            // `end` read entries that may be stale: they only cost time there, and are masked
            // off. With a reply to look under, it stops at the first block past that reply's
            // tail, where the look is due (`searchPending`, above).
            var scanEnd = end
            if let pending = pendingOverlap {
                // Past `s` (the look above would have been taken at `s` otherwise); a whole
                // number of blocks from it, as the blocks were when the loop went one at a time.
                let due = max(s + 1, Int(truncatingIfNeeded: pending.deadline &- carryStart))
                scanEnd = min(end, s + (due - s + PreambleDetector.lanes - 1) / PreambleDetector.lanes * PreambleDetector.lanes)
            }
            let stop = detector.scan(bytes, hot: planes.hot, from: s - planes.origin, to: scanEnd - planes.origin, filled: planes.byteEnd,
                                     pulses: kernels.pulseSamples, offsets.preamble)
            s = planes.origin + stop.entry
            if stop.needsBytes {
                // The planes reach a whole reply past every usable position, so this always
                // fills what the block reads; were it not to, the block is passed over rather
                // than scanned again for ever.
                planes.ensureBytes(upTo: stop.entry + PreambleDetector.reach)
                assert(planes.byteEnd >= stop.entry + PreambleDetector.reach, "byte planes short of a usable position's reach")
                if planes.byteEnd < stop.entry + PreambleDetector.reach { s += min(PreambleDetector.lanes, scanEnd - s) }
                continue
            }
            guard s < scanEnd else { continue }
            let lanes = min(PreambleDetector.lanes, scanEnd - s)
            let masks = stop.masks
            var any = masks.any
            var jumped = false
            while any != 0 {
                let lane = any.trailingZeroBitCount
                any &= any &- 1
                screenPasses &+= 1
                guard tuning.evaluates else { continue }
                if pendingOverlap != nil, let end = searchPending(at: s + lane, into: &found), end > s + lane {
                    s = end
                    jumped = true
                    break
                }
                if let length = evaluateBest(at: s + lane, detected: detector.phases(masks, atLane: lane), weak: detector.weakPhases(masks, atLane: lane),
                                             detector: detector, into: &found) {
                    s = s + lane + length
                    jumped = true
                    break
                }
            }
            if !jumped { s += lanes }
        }
        if pendingOverlap != nil, let end = searchPending(at: s, into: &found) { s = max(s, end) }
        return s
    }

    /// The summed pulse energy (the detector's ratio units: plane energies / 16) from which
    /// the coherent pass refuses a candidate as too loud (`coherentAdmission`) for a noise
    /// floor in magnitude units; 0: none (no limit at this rate, no coherent pass, or no floor
    /// yet).
    func coherentLoudLimit(floor: Int64) -> Int16 {
        guard let limit = kernels.coherentLevelLimit, tuning.coherentPasses > 0 else { return 0 }
        // `coherentAdmission`: allowed when pulse · each < 4 · 16 · limit · loud, pulse in
        // plane units. A sum of energies / 16 is at most pulse / 16, so one at or above the
        // limit rounded up is refused there too.
        let loud = Int64(pulseThreshold(floor: floor))
        return Int16(clamping: (4 * Int64(limit) * loud + levelGate.each - 1) / levelGate.each)
    }

    /// The preamble detector for this rate and tuning (shape slack, ratio).
    func makeDetector() -> PreambleDetector {
        var detector = PreambleDetector(phases: kernels.phases.count, stride: kernels.detectionStride, slack: tuning.shapeSlack + kernels.extraShapeSlack)
        if tuning.weakPreambles && tuning.coherentPasses > 0 {
            detector.ratio = tuning.faintPreambles ? PreambleDetector.faintRatio : PreambleDetector.weakRatio
        }
        return detector
    }

    /// The energy a preamble pulse must exceed, in plane units (half-bit length in steps ×
    /// 12-bit magnitude), for a noise floor in magnitude units: the floor times `each / 16`
    /// (by default `levelGate.each`).
    func pulseThreshold(floor: Int64, each: Int64? = nil) -> Int16 {
        let scaled = floor * Int64(kernels.halfBitSteps) * (each ?? levelGate.each) / (16 << Int64(HalfBitPlanes.shift))
        return Int16(clamping: scaled)
    }

    /// The energy the four preamble pulses together must exceed, in the ratio test's units
    /// (plane units / 16), for a noise floor in magnitude units: four times the floor times
    /// `summed / 16` (by default `levelGate.summed`).
    func pulseSumThreshold(floor: Int64, summed: Int64? = nil) -> Int16 {
        let scaled = 4 * floor * Int64(kernels.halfBitSteps) * (summed ?? levelGate.summed) / (16 << Int64(HalfBitPlanes.shift + 4))
        return Int16(clamping: scaled)
    }

    /// Thirty-two detector results (vector and scalar) at `m` for tests: they must agree.
    /// `tolerance` and `loudLimit`: the weak lanes' screening (`PreambleDetector.tolerance`,
    /// `loudLimit`).
    mutating func detectorMasks(_ m: UnsafePointer<UInt16>, available: Int, loudAbove: Int16, summedAbove: Int16 = 0,
                                tolerance: Int16 = 0, loudLimit: Int16 = 0) -> (simd: PreambleDetector.PhaseMasks, scalar: PreambleDetector.PhaseMasks) {
        planes.fill(m, origin: 0, available: available, loudAbove: loudAbove)
        planes.ensureBytes(upTo: PreambleDetector.reach)
        var detector = makeDetector()
        detector.summedAbove = summedAbove
        detector.tolerance = tolerance
        detector.loudLimit = loudLimit
        return (detector.detect(planes.bytes, at: 0, offsets.preamble), detector.detectLanes(planes.bytes, at: 0, offsets.preamble, lanes: PreambleDetector.lanes))
    }
}
