import RealModule

/// A running estimate of the noise floor (magnitude units, `MagnitudeConverter.fullScale` =
/// full scale), measured in fixed windows of absolute sample positions so that the estimate
/// a position sees does not depend on how the input was cut into blocks.
///
/// Each window of 65 536 samples yields one estimate: a low percentile of the magnitudes of
/// every sixteenth sample in it (signals occupy the top of the distribution even in a busy
/// sky, noise the bottom). A position uses the estimate of the window before its own;
/// positions in the first window use none (0).
struct NoiseFloor: Sendable {
    static let windowShift = 16
    static let windowSize = 1 << windowShift
    /// Histogram bins: magnitude >> 6 (1024 bins over the 16-bit range), in four copies used
    /// in turn and summed at the window's end: noise fills a few bins, and increments of one
    /// bin back to back would wait on each other.
    private var histogram = [UInt32](repeating: 0, count: 4 * 1024)
    private var filled = 0
    /// The window the histogram is filling.
    private var window: UInt64 = 0
    /// Estimates of recent windows, by window index modulo the ring size.
    private var ring = [UInt16](repeating: 0, count: 256)
    private var ringWindow = [UInt64](repeating: .max, count: 256)
    /// The percentile taken as the floor.
    static let percentile = 0.3
    /// Mean noise power (linear, 1 = full scale) summed over the windows closed so far, and
    /// how many: for stats.json's `local.noise` and the gain control's noise rule. Noise
    /// magnitudes are Rayleigh-distributed, so a fraction p of them lie below
    /// √(−ln(1 − p) · P) for mean power P: P = floor² / −ln(1 − p).
    private(set) var powerSum: Double = 0
    private(set) var estimates: UInt64 = 0
    private static let rayleighFactor = -Double.log(1 - percentile)

    /// The mean noise power (magnitude units squared: one sample's |I + jQ|²) of a floor
    /// `level` (the percentile's magnitude), as for `powerSum`.
    static func noisePower(floor level: UInt16) -> Double {
        Double(level) * Double(level) / rayleighFactor
    }

    /// Adds magnitudes that continue the stream at absolute index `first`.
    mutating func add(_ m: UnsafeBufferPointer<UInt16>, first: UInt64) {
        var index = first
        var offset = 0
        while offset < m.count {
            let w = index >> UInt64(NoiseFloor.windowShift)
            if w != window { close(); window = w }
            // Samples left in this window.
            let windowEnd = (w + 1) << UInt64(NoiseFloor.windowShift)
            let n = min(m.count - offset, Int(windowEnd - index))
            // Every sixteenth sample (by absolute index, 4 096 per window) is plenty for a
            // percentile (every eighth gave the same frames on every recording, at twice the cost).
            let firstSampled = (16 - Int(index & 15)) & 15
            var sampled = 0
            histogram.withUnsafeMutableBufferPointer { h in
                // A plain loop with wrapping steps (`stride` checks every step for overflow).
                var i = offset &+ firstSampled
                let end = offset &+ n
                while i < end {
                    h[(sampled & 3) &<< 10 | Int(m[i] &>> 6)] &+= 1
                    sampled &+= 1
                    i &+= 16
                }
            }
            filled += sampled
            offset += n
            index += UInt64(n)
        }
    }

    /// Finishes the current window's estimate.
    private mutating func close() {
        guard filled > 0 else { return }
        let target = UInt32(Double(filled) * Self.percentile)
        var seen: UInt32 = 0
        var bin = 0
        while bin < 1023 {
            seen &+= histogram[bin] &+ histogram[1024 + bin] &+ histogram[2048 + bin] &+ histogram[3072 + bin]
            if seen > target { break }
            bin += 1
        }
        let slot = Int(window & 255)
        ring[slot] = UInt16(bin << 6 | 32)
        let scale = Double(MagnitudeConverter.fullScale)
        powerSum += NoiseFloor.noisePower(floor: UInt16(bin << 6 | 32)) / (scale * scale)
        estimates += 1
        ringWindow[slot] = window
        for i in histogram.indices { histogram[i] = 0 }
        filled = 0
    }

    /// The estimate of window `w` itself, once it has been closed (nil before, or once the
    /// ring has moved on).
    @inline(__always)
    func estimate(ofWindow w: UInt64) -> UInt16? {
        let slot = Int(w & 255)
        return ringWindow[slot] == w ? ring[slot] : nil
    }

    /// The floor in effect at absolute position `index` (0 when unknown).
    func level(at index: UInt64) -> UInt16 {
        let w = index >> UInt64(NoiseFloor.windowShift)
        guard w > 0 else { return 0 }
        return estimate(ofWindow: w - 1) ?? 0
    }
}
