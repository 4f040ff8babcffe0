import Foundation
import Testing
@testable import Demod
import ModeS

struct DemodulatorTests {
    @Test func modes1AtNativeTwoMegahertzFindsAtLeastWhatReadsbFinds() throws {
        let (frames, d) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16)
        // Regression pin: 359 frames (readsb finds 345 on a 2.4 MS/s resample, dump1090 284 at
        // 2.0; FlyTracker found 345 before the equalisers and the wider shape slack at 2.0 MS/s,
        // 356 before weak preambles went to the coherent pass, and the fourteen more are all
        // the recording's one aircraft, checked below).
        #expect(frames.count == 359)
        #expect(d.statistics.acceptedTotal == 359)
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

    @Test("At 2.0 MS/s three passes of decision-directed slicing (the rate's default) read a frame of the real recording that one does not")
    func threeDirectedPassesReadMoreOfModes1() throws {
        var one = Demodulator.Tuning()
        one.directedPasses = 1
        let (frames, _) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16, tuning: one)
        #expect(frames.count == 358)
    }

    @Test("At 2.0 MS/s preambles that passed with a failed shape test are equalised too (the rate's default): the band limit's smear fills their quiet half bits, and without them two frames of the real recording are lost")
    func partialShapesAreEqualisedAt2_0() throws {
        var fullOnly = Demodulator.Tuning()
        fullOnly.equalizesPartialShapes = false
        let (frames, _) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16, tuning: fullOnly)
        #expect(frames.count == 357)
    }

    @Test("A preamble has the full shape when each of its four pulses is above the quiet half bits beside it")
    func fullShapeIsTheDetectorsSixTests() {
        // Energies by half bit 0…13; the places list them in the detector's order.
        let places = SliceKernels.preambleHalfBits
        let clean: [Int16] = [90, 10, 80, 12, 11, 9, 14, 95, 13, 85, 8, 10, 12, 9]
        #expect(Demodulator.hasFullShape(clean, places))
        // Each of the six tests failing alone: pulse 0 vs 1, 2 vs 1, 2 vs 3, 7 vs 6, 7 vs 8, 9 vs 8.
        for (pulse, quiet, equalPasses) in [(0, 1, false), (2, 1, true), (2, 3, false), (7, 6, true), (7, 8, false), (9, 8, true)] {
            var louder = clean
            louder[quiet] = clean[pulse] + 1
            #expect(!Demodulator.hasFullShape(louder, places), "half bit \(quiet) above pulse \(pulse)")
            var equal = clean
            equal[quiet] = clean[pulse]
            #expect(Demodulator.hasFullShape(equal, places) == equalPasses, "half bit \(quiet) equal to pulse \(pulse)")
        }
    }

    @Test("A preamble's shape is plausible when its pulses 2, 7 and 9 fall under half bits 1, 6 and 8 by less than the tolerance; pulses 0 and 2 may fall under the half bit after them by any amount")
    func plausibleShapeToleratesOnlyNoiseSizedShortfallsOfTheLaterPulses() {
        let places = SliceKernels.preambleHalfBits
        let clean: [Int16] = [90, 10, 80, 12, 11, 9, 14, 95, 13, 85, 8, 10, 12, 9]
        #expect(Demodulator.isPlausibleShape(clean, places, tolerance: 1))
        // The tested pairs (pulse, quiet half bit): short by tolerance − 1 passes, by the
        // tolerance fails.
        for (pulse, quiet) in [(2, 1), (7, 6), (7, 8), (9, 8)] {
            var near = clean, far = clean
            // Half bit 8 sits between pulses 7 and 9: the other one loud, so only this pair fails.
            if quiet == 8 { near[16 - pulse] = 300; far[16 - pulse] = 300 }
            near[quiet] = clean[pulse] + 19
            far[quiet] = clean[pulse] + 20
            #expect(Demodulator.isPlausibleShape(near, places, tolerance: 20), "half bit \(quiet) just above pulse \(pulse)")
            #expect(!Demodulator.isPlausibleShape(far, places, tolerance: 20), "half bit \(quiet) far above pulse \(pulse)")
        }
        // Pulse 0 under half bit 1 and pulse 2 under half bit 3 (a reply's tail, a FRUIT pulse).
        var hidden = clean
        hidden[1] = 200
        hidden[2] = 210
        hidden[3] = 400
        #expect(Demodulator.isPlausibleShape(hidden, places, tolerance: 20))
    }

    @Test func fastTuningStillBeatsDump1090() throws {
        let (frames, _) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16, tuning: .fast)
        #expect(frames.count == 349)
    }

    @Test func allowingTwoShapeFailuresFindsMoreOnTheBusyRecording() throws {
        var tuning = Demodulator.Tuning()
        tuning.shapeSlack = 2
        let (frames, _) = DemodFixtures.demodulate(try DemodFixtures.modes1Bytes(), blockSamples: 1 << 16, tuning: tuning)
        #expect(frames.count == 361)
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

    @Test func detectorTestsEveryOtherPhaseAt2_4AndRanksItsNeighbours() {
        let k24 = SliceKernels(rate: .rate2_4), k20 = SliceKernels(rate: .rate2_0)
        let at24 = PreambleDetector(phases: k24.phases.count, stride: k24.detectionStride, slack: 1)
        let at20 = PreambleDetector(phases: k20.phases.count, stride: k20.detectionStride, slack: 1)
        #expect(at24.ranked(0b00001) == 0b00011)
        #expect(at24.ranked(0b00100) == 0b01110)
        #expect(at24.ranked(0b10000) == 0b11000, "no phase beyond the last")
        #expect(at24.ranked(0b10101) == 0b11111)
        for set in UInt8(0)..<16 { #expect(at20.ranked(set) == set, "every phase is tested at 2.0 MS/s") }
        // At 2.4 MS/s the odd phases are never reported as detected.
        var mags = [UInt16](repeating: 100, count: 2000)
        for base in stride(from: 0, to: 1500, by: 41) { for j in [0, 2, 8, 10] { mags[base + j] = 30000 } }
        var d = Demodulator(sampleRate: .rate2_4)
        var even: UInt32 = 0
        mags.withUnsafeBufferPointer { m in
            for s in stride(from: 0, to: 1500 - d.kernels.span, by: 16) {
                let (simd, _) = d.detectorMasks(m.baseAddress! + s, available: 2000 - s, loudAbove: 3000)
                #expect(at24.mask(simd, phase: 1) == 0 && at24.mask(simd, phase: 3) == 0)
                even |= at24.mask(simd, phase: 0) | at24.mask(simd, phase: 2) | at24.mask(simd, phase: 4)
            }
        }
        #expect(even != 0)
    }

    @Test func vectorPreambleDetectorAgreesWithItsScalarTwin() {
        var random = SplitMix64(seed: 99)
        var mags = (0..<6000).map { _ in UInt16(random.next() % 32768) }
        // Plant preamble-like patterns (pulses at 0, 1.0, 3.5, 4.5 µs) so both outcomes occur.
        for base in stride(from: 0, to: 5000, by: 97) {
            for j in [0, 2, 7, 9] { mags[base + j] = 30000 }
            for j in [4, 5, 6, 12, 14, 15] { mags[base + j] = 100 }
        }
        for rate in [SampleRate.rate2_0, .rate2_4] {
            for slack in [0, 1, 2, 6] {
                for (loudAbove, summedAbove): (Int16, Int16) in [(0, 0), (3000, 0), (12000, 0), (3000, 1500), (3000, 3000)] {
                  for (weak, faint) in [(false, false), (true, false), (true, true)] {
                    var d = Demodulator(sampleRate: rate)
                    d.tuning.shapeSlack = slack
                    d.tuning.weakPreambles = weak
                    d.tuning.faintPreambles = faint
                    var passes = 0
                    mags.withUnsafeBufferPointer { m in
                        for s in stride(from: 0, to: 5000 - d.kernels.span, by: 16) {
                            let (simd, scalar) = d.detectorMasks(m.baseAddress! + s, available: 6000 - s, loudAbove: loudAbove, summedAbove: summedAbove)
                            #expect(simd == scalar, "rate \(rate) slack \(slack) loud above \(loudAbove) summed above \(summedAbove) weak \(weak) faint \(faint) at \(s)")
                            passes += simd.low.nonzeroBitCount + simd.high.nonzeroBitCount
                        }
                    }
                    #expect(passes > 0)
                  }
                }
            }
            // The weak lanes' screening (shape tolerance, level limit), on the faint detector.
            for (tolerance, loudLimit): (Int16, Int16) in [(2000, 0), (0, 1500), (2000, 1500), (300, 600)] {
                var d = Demodulator(sampleRate: rate)
                var passes = 0
                mags.withUnsafeBufferPointer { m in
                    for s in stride(from: 0, to: 5000 - d.kernels.span, by: 16) {
                        let (simd, scalar) = d.detectorMasks(m.baseAddress! + s, available: 6000 - s, loudAbove: 3000, summedAbove: 0,
                                                             tolerance: tolerance, loudLimit: loudLimit)
                        #expect(simd == scalar, "rate \(rate) tolerance \(tolerance) loud limit \(loudLimit) at \(s)")
                        passes += simd.low.nonzeroBitCount + simd.high.nonzeroBitCount
                    }
                }
                #expect(passes > 0)
            }
        }
    }

    @Test("The summed level gate refuses preambles whose pulses are each loud enough but weak together, and passes the same preambles stronger")
    func summedLevelGateWeighsThePulsesTogether() {
        /// Clean preambles (pulses 0, 1.0, 3.5 and 4.5 µs of height `height` on a quiet floor),
        /// and the positions the detector passes with each pulse loud above 2000 (plane units)
        /// and their sum above `summedAbove` (a quarter of it a pulse, plane units / 16).
        func passes(_ rate: SampleRate, height: UInt16, summedAbove: Int16) -> Int {
            var mags = [UInt16](repeating: 100, count: 3000)
            let pulses = rate == .rate2_0 ? [0, 2, 7, 9] : [0, 2, 8, 10]
            for base in stride(from: 0, to: 2400, by: 97) { for j in pulses { mags[base + j] = height } }
            var d = Demodulator(sampleRate: rate)
            var count = 0
            mags.withUnsafeBufferPointer { m in
                for s in stride(from: 0, to: 2400 - d.kernels.span, by: 32) {
                    let (simd, scalar) = d.detectorMasks(m.baseAddress! + s, available: 3000 - s, loudAbove: 2000, summedAbove: summedAbove)
                    #expect(simd == scalar)
                    count += simd.low.nonzeroBitCount + simd.high.nonzeroBitCount
                }
            }
            return count
        }
        for rate in [SampleRate.rate2_0, .rate2_4] {
            // A pulse of 8000 is at most 4000 (2.0 MS/s) or 6000 (2.4) plane units: loud, but
            // a sum above 2000 sixteenths needs 8000 a pulse. Pulses of 30 000 pass both.
            #expect(passes(rate, height: 8000, summedAbove: 0) > 0, "\(rate): each pulse loud")
            #expect(passes(rate, height: 8000, summedAbove: 2000) == 0, "\(rate): too weak together")
            #expect(passes(rate, height: 30000, summedAbove: 2000) > 0, "\(rate): strong together")
        }
    }

    @Test("A ratio mask's sixteen lanes become bit i for lane i: each lane alone, none, all and random masks against a lane-by-lane reference")
    func ratioMaskLanesBecomeTheirBits() {
        func reference(_ m: SIMDMask<SIMD16<Int16>>) -> UInt16 {
            var bits: UInt16 = 0
            for i in 0..<16 where m[i] { bits |= 1 << UInt16(i) }
            return bits
        }
        func mask(_ bits: UInt16) -> SIMDMask<SIMD16<Int16>> {
            var m = SIMDMask<SIMD16<Int16>>(repeating: false)
            for i in 0..<16 { m[i] = bits & (1 << UInt16(i)) != 0 }
            return m
        }
        for i in 0..<16 { #expect(PreambleDetector.bits(mask(1 << UInt16(i))) == 1 << UInt16(i), "lane \(i)") }
        #expect(PreambleDetector.bits(mask(0)) == 0)
        #expect(PreambleDetector.bits(mask(0xFFFF)) == 0xFFFF)
        var random = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let m = mask(UInt16(truncatingIfNeeded: random.next()))
            #expect(PreambleDetector.bits(m) == reference(m))
        }
    }

    @Test func bytePlanesFlagEveryHalfBitAgainstTheNextAndTheThreshold() {
        var random = SplitMix64(seed: 3)
        // Small values so that ties (not falling) occur too.
        let e = (0..<300).map { _ in Int16(random.next() % 8) }
        /// Classifies with the vector or the scalar path into a fresh plane.
        func classify(vectorPath: Bool) -> [UInt8] {
            var flags = [UInt8](repeating: 9, count: 256)
            e.withUnsafeBufferPointer { p in
                let a = p.baseAddress!, f = p.baseAddress! + 7
                flags.withUnsafeMutableBufferPointer { fp in
                    if vectorPath {
                        HalfBitPlanes.classifyVector(a, following: f, count: 256, loudAbove: 4, into: fp.baseAddress!)
                    } else {
                        HalfBitPlanes.classifyScalar(a, following: f, from: 0, to: 256, loudAbove: 4, into: fp.baseAddress!)
                    }
                }
            }
            return flags
        }
        let vector = classify(vectorPath: true), scalar = classify(vectorPath: false)
        #expect(vector == scalar)
        for j in 0..<256 {
            let expected = (e[j] > e[j + 7] ? PreambleDetector.falls : 0) | (e[j] > 4 ? PreambleDetector.loud : 0)
            #expect(vector[j] == expected)
        }
        #expect(Set(vector) == [0, PreambleDetector.falls, PreambleDetector.loud, PreambleDetector.falls | PreambleDetector.loud],
                "every combination of the two flags occurs")
        #expect((0..<256).contains { e[$0] == e[$0 + 7] }, "ties occur (they do not fall)")
    }

    @Test func preTestNeverRejectsAPositionTheDetectorPasses() {
        var random = SplitMix64(seed: 11)
        // Noise with planted pulses of several heights, so every outcome occurs.
        var mags = (0..<8000).map { _ in UInt16(random.next() % 2000) }
        for base in stride(from: 0, to: 7000, by: 53) {
            let height = UInt16(2000 + random.next() % 30000)
            for j in [0, 2, 7, 9] where random.next() % 5 != 0 { mags[base + j] = height }
        }
        for rate in [SampleRate.rate2_0, .rate2_4] {
            for loudAbove: Int16 in [0, 3000, 12000] {
                var d = Demodulator(sampleRate: rate)
                var rejected = 0, detected = 0
                mags.withUnsafeBufferPointer { m in
                    for s in stride(from: 0, to: 7000 - d.kernels.span, by: 16) {
                        let (simd, _) = d.detectorMasks(m.baseAddress! + s, available: 8000 - s, loudAbove: loudAbove)
                        let found = simd.any != 0
                        let mayBe = PreambleDetector.mayBeLoud(d.planes.hot, at: 0, pulses: d.kernels.pulseSamples)
                        if found { detected += 1; #expect(mayBe, "rate \(rate) loud above \(loudAbove) at \(s)") }
                        if !mayBe { rejected += 1 }
                    }
                }
                #expect(detected > 0)
                if loudAbove > 0 { #expect(rejected > 0, "the pre-test rejects quiet stretches") }
            }
        }
    }

    @Test("The detector's scan stops at the first block of thirty-two positions with a passing lane, with that block's masks and the lanes past its end cleared, or before a block it has no byte planes for")
    func detectorScanStopsWhereTheBlockByBlockDetectorFirstPasses() {
        var random = SplitMix64(seed: 23)
        var mags = (0..<8000).map { _ in UInt16(random.next() % 2000) }
        for base in stride(from: 300, to: 7000, by: 701) {
            for j in [0, 2, 7, 9] { mags[base + j] = UInt16(8000 + random.next() % 20000) }
        }
        for rate in [SampleRate.rate2_0, .rate2_4] {
            var d = Demodulator(sampleRate: rate)
            let detector = d.makeDetector()
            var stops = 0
            mags.withUnsafeBufferPointer { m in
                d.planes.fill(m.baseAddress!, origin: 0, available: 8000, loudAbove: 3000)
                let usable = d.planes.usable
                d.planes.ensureBytes(upTo: usable + PreambleDetector.reach)
                // Ends that are not whole blocks from the start, too (990: the preamble planted at
                // 1001 lies in the lanes past the end of the last block).
                for end in [usable, usable - 5, 990, 1000 + 17] {
                    var j = 3
                    while j < end {
                        let stop = detector.scan(d.planes.bytes, hot: d.planes.hot, from: j, to: end, filled: d.planes.byteEnd,
                                                 pulses: d.kernels.pulseSamples, d.offsets.preamble)
                        // The block-by-block loop the scan replaces.
                        var k = j
                        var expected = PreambleDetector.PhaseMasks()
                        while k < end {
                            let lanes = min(PreambleDetector.lanes, end - k)
                            if PreambleDetector.mayBeLoud(d.planes.hot, at: k, pulses: d.kernels.pulseSamples) {
                                let masks = detector.detectLanes(d.planes.bytes, at: k, d.offsets.preamble, lanes: lanes)
                                if masks.any != 0 { expected = masks; break }
                            }
                            k += lanes
                        }
                        #expect(stop.entry == k && !stop.needsBytes, "rate \(rate) from \(j) to \(end)")
                        #expect(stop.masks == expected, "rate \(rate) at \(k)")
                        if k < end { stops += 1 }
                        j = k + 1
                    }
                }
                // Byte planes filled only below 500: the first block past the planted preamble at
                // 300 that passes the pre-test stops the scan, unread.
                let stop = detector.scan(d.planes.bytes, hot: d.planes.hot, from: 400, to: usable, filled: 500,
                                         pulses: d.kernels.pulseSamples, d.offsets.preamble)
                #expect(stop.needsBytes && stop.entry + PreambleDetector.reach > 500 && stop.masks == PreambleDetector.PhaseMasks(), "rate \(rate)")
                #expect(PreambleDetector.mayBeLoud(d.planes.hot, at: stop.entry, pulses: d.kernels.pulseSamples))
            }
            #expect(stops >= 9, "rate \(rate): the planted preambles are found")
        }
    }

    @Test func hotSamplesVectorAndScalarAgree() {
        var random = SplitMix64(seed: 12)
        let mags = (0..<530).map { _ in UInt16(random.next() % 32768) }
        var vector = [UInt8](repeating: 9, count: 528), scalar = vector
        mags.withUnsafeBufferPointer { m in
            vector.withUnsafeMutableBufferPointer { HalfBitPlanes.markHotVector(m.baseAddress!, count: 528, above: 20000, into: $0.baseAddress!) }
            scalar.withUnsafeMutableBufferPointer { HalfBitPlanes.markHotScalar(m.baseAddress!, from: 0, to: 528, above: 20000, into: $0.baseAddress!) }
        }
        #expect(vector == scalar)
        for j in 0..<528 { #expect(vector[j] == (max(mags[j], mags[j + 1], mags[j + 2]) > 20000 ? 1 : 0)) }
    }

    @Test func packingBytesGivesOneBitPerLane() {
        for lanes: UInt16 in [0, 1, 0x80, 0x81, 0x100, 0x8000, 0x55AA, 0xAA55, 0x0FF0, 0xFFFF] {
            var low: UInt64 = 0, high: UInt64 = 0
            for i in 0..<8 where lanes & (1 << UInt16(i)) != 0 { low |= 1 << UInt64(8 * i) }
            for i in 0..<8 where lanes & (1 << UInt16(8 + i)) != 0 { high |= 1 << UInt64(8 * i) }
            #expect(PreambleDetector.pack(low, high) == lanes)
        }
    }

    @Test func ratioMaskGivesOneBitPerPositionAsItsScalarTwin() {
        // Energies where the ratio holds at some positions only: the 16-lane mask's bit i must
        // be the scalar ratio at position i, for every phase.
        var random = SplitMix64(seed: 5)
        for rate in [SampleRate.rate2_0, .rate2_4] {
            let kernels = SliceKernels(rate: rate)
            let stride = 400
            let offsets = kernels.preambleOffsets(stride: stride)
            let energies = (0..<(kernels.resolution * stride)).map { _ in Int16(random.next() % 24000) }
            let detector = PreambleDetector(phases: kernels.phases.count, stride: kernels.detectionStride, slack: 1)
            var seen: Set<Bool> = []
            energies.withUnsafeBufferPointer { e in
                offsets.withUnsafeBufferPointer { o in
                    for p in kernels.phases.indices {
                        let po = o.baseAddress! + p * SliceKernels.preambleWindows
                        for j in Swift.stride(from: 0, to: 300, by: 16) {
                            let mask = detector.ratioMask(UnsafeRawPointer(e.baseAddress! + j), po)
                            for i in 0..<16 {
                                let scalar = detector.ratio1(e.baseAddress! + j + i, po)
                                #expect((mask >> UInt16(i)) & 1 == (scalar ? 1 : 0), "rate \(rate) phase \(p) at \(j + i)")
                                seen.insert(scalar)
                            }
                        }
                    }
                }
            }
            #expect(seen == [true, false], "both outcomes occur")
        }
    }

    @Test func halfBitPlanesVectorFillAgreesWithScalarAndTheDefinition() {
        var random = SplitMix64(seed: 7)
        let mags = (0..<1000).map { _ in UInt16(random.next() % 32768) }
        for rate in [SampleRate.rate2_0, .rate2_4] {
            let kernels = SliceKernels(rate: rate)
            let weights = (0..<kernels.resolution).map { kernels.weights(plane: $0) }
            let stride = 1000
            var vector = [Int16](repeating: 0, count: kernels.resolution * stride)
            var scalar = vector
            mags.withUnsafeBufferPointer { m in
                vector.withUnsafeMutableBufferPointer { HalfBitPlanes.fillVector(m.baseAddress!, count: 992, into: $0.baseAddress!, stride: stride, weights: weights) }
                scalar.withUnsafeMutableBufferPointer { HalfBitPlanes.fillScalar(m.baseAddress!, from: 0, to: 992, into: $0.baseAddress!, stride: stride, weights: weights) }
            }
            #expect(vector == scalar)
            // Plane q, entry j: the half bit [q, q + halfBitSteps) steps into sample j, weighted
            // by overlap with samples j and j + 1 (12-bit magnitudes).
            for q in 0..<kernels.resolution {
                #expect(Int(weights[q].0) + Int(weights[q].1) == kernels.halfBitSteps)
                for j in [0, 1, 500, 990] {
                    let a = Int(mags[j] >> 3), b = Int(mags[j + 1] >> 3)
                    let expected = (kernels.resolution - q) * a + (q + kernels.halfBitSteps - kernels.resolution) * b
                    #expect(Int(vector[q * stride + j]) == expected)
                }
            }
        }
    }

    @Test func halfBitPlacesFollowTheModeSTiming() {
        // 2.4 MS/s: a half bit is 1.2 samples = 6 steps of 1/5 sample. Half bit 7 (the third
        // preamble pulse, 3.5 µs) at phase 3 starts 3 + 42 = 45 steps in: sample 9, step 0.
        let k24 = SliceKernels(rate: .rate2_4)
        let pulse = k24.place(phase: 3, halfBit: 7), last = k24.place(phase: 4, halfBit: 239)
        #expect(pulse.plane == 0 && pulse.offset == 9)
        #expect(last.plane == 3 && last.offset == 287)
        #expect(k24.maxOffset == 287)
        // 2.0 MS/s: one sample per half bit, the phase is the step within the sample.
        let k20 = SliceKernels(rate: .rate2_0)
        let data = k20.place(phase: 2, halfBit: 16)
        #expect(data.plane == 2 && data.offset == 16)
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

    /// The recording demodulated with the default tuning and with `change` made to it: each
    /// one's frames and demodulator (for its counters).
    static func defaultAndChanged(_ change: (inout Demodulator.Tuning) -> Void) throws
        -> (frames: [DemodulatedFrame], d: Demodulator, changedFrames: [DemodulatedFrame], e: Demodulator) {
        let bytes = [UInt8](try Data(contentsOf: samples.appendingPathComponent("modes1-2m4.bin")))
        var changed = Demodulator.Tuning()
        change(&changed)
        let (frames, d) = DemodFixtures.demodulate(bytes, rate: .rate2_4, blockSamples: 1 << 16)
        let (changedFrames, e) = DemodFixtures.demodulate(bytes, rate: .rate2_4, blockSamples: 1 << 16, tuning: changed)
        return (frames, d, changedFrames, e)
    }

    @Test func findsEveryFrameDump1090FindsAndMore() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.samples.appendingPathComponent("modes1-2m4.bin")))
        let (frames, _) = DemodFixtures.demodulate(bytes, rate: .rate2_4, blockSamples: 1 << 16)
        #expect(frames.count == 364)
        let ours = Set(frames.map { $0.received.frame.hex })
        let text = try String(contentsOf: Self.samples.appendingPathComponent("modes1-frames.avr"), encoding: .utf8)
        let theirs = text.split(separator: "\n").map { line in
            String(line.dropFirst(13).dropLast()).uppercased()
        }
        #expect(theirs.count == 319)
        for hex in theirs { #expect(ours.contains(hex), "dump1090 found \(hex)") }
    }

    @Test("At 2.4 MS/s only preambles of the full shape are equalised (the rate's default): the recording reads the same frames as when every preamble is, for under half the equalised candidates")
    func onlyFullShapesAreEqualisedAt2_4() throws {
        let (frames, d, everyFrames, e) = try Self.defaultAndChanged { $0.equalizesPartialShapes = true }
        #expect(frames == everyFrames)
        #expect(d.equalizedCandidates > 0)
        #expect(2 * d.equalizedCandidates < e.equalizedCandidates)
    }

    @Test("At 2.4 MS/s a candidate whose later preamble pulses fall under their quiet neighbours by more than noise explains is dropped (the rate's default): the recording reads the same frames from far fewer candidates")
    func implausibleShapesAreDroppedAt2_4() throws {
        let (frames, d, everyFrames, e) = try Self.defaultAndChanged { $0.shapeTolerance16 = 0 }
        #expect(frames == everyFrames)
        // 4 160 of 5 376 (the first noise window, a sixth of the recording, has no floor yet and
        // no such test; on the dense sky of the README, 100 M samples, half are dropped).
        #expect(10 * d.statistics.preambles < 8 * e.statistics.preambles, "\(d.statistics.preambles) of \(e.statistics.preambles)")
    }

    @Test("At 2.4 MS/s the detector drops the weak preambles the ranking's shape tolerance or the coherent pass's level limit would refuse (the default): the recording reads the same frames from fewer detector passes")
    func weakLanesAreScreenedAt2_4() throws {
        let (frames, d, unscreenedFrames, e) = try Self.defaultAndChanged { $0.screensWeakLanes = false }
        #expect(frames == unscreenedFrames)
        #expect(10 * d.screenPasses < 9 * e.screenPasses, "\(d.screenPasses) of \(e.screenPasses)")
    }
}
