import ModeS

/// The preamble detector: every position at every phase, eight positions per vector.
extension Demodulator {
    /// The detector loop over magnitude indices [from, to) (`available` magnitudes exist);
    /// returns the next position to examine.
    ///
    /// Per block of eight positions and per phase, on the half-bit planes (`SIMD8<Int16>`):
    /// the preamble shape (each pulse above the quiet half bits beside it, all but
    /// `shapeSlack` of six tests) and the pulse level against the noise floor. Positions with
    /// a phase that passes go to `evaluate` (exact ratio test, ranking, slicing, parity).
    mutating func screen(_ m: UnsafePointer<UInt16>, from: Int, to: Int, available: Int,
                         found: inout [DemodulatedFrame]) -> Int {
        var s = from
        // The floor changes only at window boundaries: look it up once per window.
        var floorLimit = 0
        var detector = PreambleDetector(phases: kernels.phases.count, slack: tuning.shapeSlack, threshold: 0)
        planes.invalidate()
        while s < to {
            if s >= floorLimit {
                let absolute = carryStart + UInt64(s)
                detector.threshold = pulseThreshold(floor: Int64(noise.level(at: absolute)))
                let windowEnd = ((absolute >> UInt64(NoiseFloor.windowShift)) + 1) << UInt64(NoiseFloor.windowShift)
                floorLimit = s + Int(windowEnd - absolute)
            }
            if !planes.covers(s) {
                planes.fill(m, origin: s, available: available)
                guard planes.covers(s) else { break }
            }
            let end = min(to, floorLimit, planes.origin + planes.usable)
            let lanes = min(8, end - s)
            let j = s - planes.origin
            let e = planes.entries + j
            let masks = lanes == 8
                ? detector.detect8(e, offsets.preamble)
                : detector.detectLanes(e, offsets.preamble, lanes: lanes)
            var any = UInt8(truncatingIfNeeded: masks)
            for p in 1..<kernels.phases.count { any |= UInt8(truncatingIfNeeded: masks >> UInt64(8 * p)) }
            var jumped = false
            while any != 0 {
                let lane = any.trailingZeroBitCount
                any &= any &- 1
                screenPasses &+= 1
                guard tuning.evaluates else { continue }
                var phaseSet: UInt8 = 0
                for p in 0..<kernels.phases.count where (masks >> UInt64(8 * p + lane)) & 1 != 0 { phaseSet |= 1 << UInt8(p) }
                if let frame = evaluateBest(at: s + lane, phases: phaseSet, detector: detector) {
                    found.append(frame)
                    s = s + lane + frameSamples(frame.received.frame.bitCount)
                    jumped = true
                    break
                }
            }
            if !jumped { s += lanes }
        }
        return s
    }

    /// The pulse threshold in the detector's units (the sum of the four pulse energies, each
    /// shifted right by 4) for a noise floor in magnitude units: the mean pulse magnitude must
    /// exceed the floor times `noiseRatio16 / 16`.
    func pulseThreshold(floor: Int64) -> Int16 {
        // A pulse energy is about halfBitSteps × magnitude >> HalfBitPlanes.shift; four of
        // them, each >> 4, sum to halfBitSteps × magnitude >> (shift + 2).
        let scaled = floor * Int64(kernels.halfBitSteps) * tuning.noiseRatio16 / (16 << Int64(HalfBitPlanes.shift + 2))
        return Int16(clamping: scaled)
    }

    /// Eight detector results (vector and scalar) at `m` for tests: they must agree.
    mutating func detectorMasks(_ m: UnsafePointer<UInt16>, available: Int, threshold: Int16) -> (simd: UInt64, scalar: UInt64) {
        planes.fill(m, origin: 0, available: available)
        let detector = PreambleDetector(phases: kernels.phases.count, slack: tuning.shapeSlack, threshold: threshold)
        return (detector.detect8(planes.entries, offsets.preamble), detector.detectLanes(planes.entries, offsets.preamble, lanes: 8))
    }
}
