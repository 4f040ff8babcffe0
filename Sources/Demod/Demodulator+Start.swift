/// The start of the input, read twice.
///
/// The coherent pass fits each weak reply with the pulse the receive chain makes, and that
/// pulse is learned from the replies decoded (`PulseLearner`). At the start of a run nothing
/// has been learned: on a dongle whose filter differs from the RTL2832U model the first
/// tenths of a second are read with the wrong pulse, and where every reply is weak the
/// learner needs that long to converge. On a short recording that is much of it (the sweep's
/// wide-band channel at 5 dB, 0.4 s: 741 of 1000 read, 849 with the pulse learned beforehand
/// from another recording; 2.0 MS/s 455 and 512; with the start read twice 841 and 508).
///
/// So the first `startSamples` (0.11 s at 2.4 MS/s, 0.13 s at 2.0) are gathered and
/// demodulated once by a copy of the demodulator, only to learn; the demodulator takes what
/// it learned (and the first window's noise power, for the firm decisions' repair there:
/// `firstWindowNoise`) and reads them again from the beginning, with the learned pulse, and
/// goes on.
/// A live receiver's first frames come that much later, once; the output does not depend on
/// how the input is cut into blocks (the first reading ends at the same sample whatever the
/// blocks).
extension Demodulator {
    /// Samples read twice at the start of the input.
    static let startSamples = 1 << 18

    /// Reads the gathered start (`startBlocks`): a copy of the demodulator demodulates its
    /// first `startSamples`, its frames dropped, and this one takes the pulse it learned, then
    /// demodulates every gathered block. Replies the copy learned from are not learned from
    /// again (`learnsFrom`).
    mutating func readStart(emit: (DemodulatedFrame) -> Void) {
        let blocks = startBlocks ?? []
        startBlocks = nil
        var first = self
        // The copy works in this one's sample buffers (moved, not shared: no copy on write),
        // which are given back after; what they hold is not needed, the input starts again.
        mags = []
        raw = []
        var left = Demodulator.startSamples
        for block in blocks where left > 0 {
            let n = min(left, block.sampleCount)
            let part = n == block.sampleCount ? block
                : SampleBlock(bytes: Array(block.bytes[..<(n * block.format.bytesPerSample)]), format: block.format, firstSample: block.firstSample)
            first.demodulate(part) { _ in }
            left -= n
        }
        swap(&mags, &first.mags)
        swap(&raw, &first.raw)
        if let head = blocks.first {
            let window = head.firstSample >> UInt64(NoiseFloor.windowShift)
            if let level = first.noise.estimate(ofWindow: window), level > 0 {
                firstWindowNoise = (window, NoiseFloor.noisePower(floor: level))
            }
        }
        pulseLearner = first.pulseLearner
        pulseResponse = first.pulseResponse
        coherentSlicer = first.coherentSlicer
        learnsFrom = first.nextPosition
        for block in blocks { demodulate(block, emit: emit) }
    }
}
