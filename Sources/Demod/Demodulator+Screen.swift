import ModeS
import RealModule

/// The preamble screen: the SIMD gate, the pulse/quiet region test against the noise floor.
extension Demodulator {
    /// The screen loop over [from, to); returns the next position to examine.
    ///
    /// Stage 1, eight positions at a time (`SIMD8`): the gate. Stage 2, per position that
    /// passed: pulse region against quiet region and the noise floor. Stage 3: `evaluateBest`.
    mutating func screen(_ m: UnsafePointer<UInt16>, from: Int, to: Int, found: inout [DemodulatedFrame]) -> Int {
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
    func regions(_ m: UnsafePointer<UInt16>, _ twoFour: Bool, _ floor: Int64) -> Bool {
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
    func regionsScan(_ m: UnsafePointer<UInt16>, from: Int, to: Int, _ twoFour: Bool, _ floor: Int64) -> Int {
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
    func gate20(_ m: UnsafePointer<UInt16>, _ shift: UInt16) -> UInt32 {
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
    func gate24(_ m: UnsafePointer<UInt16>, _ shift: UInt16) -> UInt32 {
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
    func bitmask(_ mask: SIMDMask<SIMD8<Int16>>) -> UInt32 {
        let weights = SIMD8<UInt16>(1, 2, 4, 8, 16, 32, 64, 128)
        return UInt32(SIMD8<UInt16>(repeating: 0).replacing(with: weights, where: mask).wrappedSum())
    }
}
