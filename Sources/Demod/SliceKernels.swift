/// Where every half bit of a Mode S reply lies, for one sample rate and every candidate phase
/// (sub-sample offset of the preamble), as a place in the half-bit energy planes
/// (`HalfBitPlanes`).
///
/// Samples are treated as constant over their interval ([i, i+1) in sample units). A half bit
/// lasts `h` samples (1.0 at 2.0 MS/s, 1.2 at 2.4 MS/s). Time is counted in steps of
/// 1/`resolution` sample so that every half-bit boundary of every phase falls on a step. A half
/// bit starting `u` steps into the stream begins in sample `u / resolution`, at step
/// `q = u % resolution` of it; its energy depends only on that sample, the next one and `q`.
/// So plane `q` holds, for every sample, the energy of a half bit starting at step `q` of it,
/// and the energy of half bit `k` of a reply starting at sample `s`, phase `p`, is plane
/// `(p + k·halfBitSteps) % resolution` at sample `s + (p + k·halfBitSteps) / resolution`:
/// one load instead of a weighted sum.
///
/// Mode S timing (Annex 10 Vol IV §3.1.2.1): preamble pulses in half bits 0, 2, 7 and 9
/// (0, 1.0, 3.5 and 4.5 µs), quiet elsewhere in the first 16 half bits (8 µs); then data bit k
/// occupies half bits 16 + 2k (pulse for a 1) and 17 + 2k (pulse for a 0).
struct SliceKernels: Sendable {
    /// Steps per sample (4 at 2.0 MS/s, 5 at 2.4 MS/s): also the number of planes.
    let resolution: Int
    /// Candidate phases, in steps, within one sample.
    let phases: [Int]
    /// The preamble detector tests every `detectionStride`-th phase. At 2.4 MS/s phases are a
    /// fifth of a sample (83 ns) apart and a preamble passes at neighbouring phases alike, so
    /// testing phases 0, 2 and 4 and ranking each detected phase with its neighbours finds the
    /// same frames on the real recordings for three fifths of the detector's work (2). At
    /// 2.0 MS/s, a quarter of a sample apart, skipping phases loses frames (1).
    let detectionStride: Int
    /// Whether the second-ranked phase is sliced when the best-ranked one's first bits are no
    /// reply at all (a format with no defined length, or too many weak bits). At 2.4 MS/s the
    /// two are a fifth of a sample apart and the second is no reply either (no frame lost on
    /// the recordings, a fifteenth of the work saved on a dense sky): false. At 2.0 MS/s the
    /// quarter-sample neighbour sometimes is a frame (4 on modes1.bin): true.
    let slicesPastNoReply: Bool
    /// Shape tests the preamble detector may fail beyond the tuning's `shapeSlack`. At
    /// 2.0 MS/s a half bit is one sample, and the receiver's band limit (the RTL2832U's
    /// decimation filter, about ±0.4 of the sample rate) spills each 0.5 µs pulse into the
    /// samples beside it, filling the quiet half bits between the preamble's pulses: on the
    /// realistic channel two more failed tests find a few percent more frames at 12–15 dB and
    /// more on the real recording (modes1.bin). At 2.4 MS/s (1.2 samples a half bit) they find
    /// none more: 0.
    let extraShapeSlack: Int
    /// The coherent pass (`CoherentSlicer`) runs only for preambles whose mean pulse is under
    /// this many times the noise floor (nil: at any level). At 2.4 MS/s, 8: stronger replies
    /// that every magnitude decision failed are overlapped by others, which the one-reply
    /// model cannot undo; on a dense real sky they are most of the candidates, the pass found
    /// none of them, and searching them cost half the demodulator's time again. Magnitudes
    /// read strong replies at 2.4 MS/s (988 of 1000 at 24 dB with or without the pass). At
    /// 2.0 MS/s they do not (the smear: 658 of 1000 at 24 dB), so the pass runs at every level.
    let coherentLevelLimit: Int32?
    /// The detector's level gate, in sixteenths of the noise floor (a magnitude): each of
    /// three of the four preamble pulses above `each`, and their mean above `summed` (0: not
    /// tested). At 2.0 MS/s (48, 0): noise passes the detector some 260 times a second at
    /// that gate already, and a looser one would raise the false-accept expectation of the
    /// squitter repairs with it. At 2.4 MS/s (40, 44): the per-pulse test let through half
    /// again as many weak replies at 6 dB, and the sum keeps noise's passes near a fifth of
    /// what 40 alone lets through (README, the level gate).
    let levelGate: (each: Int64, summed: Int64)
    /// The level gate for preambles the coherent pass alone reads (with weak preambles,
    /// `Demodulator.Tuning.weakPreambles`): the detector passes these, and a candidate whose
    /// best phase misses `levelGate` goes to the coherent pass only, like one under the strict
    /// ratio. At 2.0 MS/s (40, 44) first: on the sweep (seed 1, 500 frames, with the budget below)
    /// 8 dB 86 → 113, 9 dB 233 → 257, 10 dB 370 → 381; noise passes the detector three times
    /// as often (1 388 a second against 472, in 60 s) but the magnitude path's repairs are
    /// tried no more often, so the false-accept expectation rises only by the coherent searches
    /// (README, the noise hour). Now (36, 44), as low a pulse as 2.4 MS/s takes: of the replies
    /// the genie reads and the demodulator missed at 8 dB (seed 1, 1000 frames), the detector
    /// had never passed 106, and passes 23 of them more; 8, 9 dB 364 → 376, 724 → 738, with
    /// FRUIT at 1000/s 9 dB 483 → 504 (seed 2: 339 → 349, 687 → 702); noise's preambles 1 500
    /// → 2 132 a second and its searches 20 → 25 (2 min). (36, 40) read a few more (381, 741)
    /// for three times the noise's preambles and twice its CPU. At 2.4 MS/s (36, 40): 5 dB 53 → 62, 6 dB 165 → 180, 7 dB
    /// 314 → 324 of 500; noise's preambles 194 → 1 437 a second and its searches 4.2 → 20.2,
    /// the false-accept expectation 0.06 → 0.12 an hour; the dense real sky the same frames for
    /// about 3 % more CPU.
    let weakLevelGate: (each: Int64, summed: Int64)?
    /// Coherent searches per noise-floor window (`Demodulator.Tuning.coherentBudget`). At
    /// 2.0 MS/s, 256: the sweep's weak sky (2 500 replies a second, each window of 33 ms
    /// about 80 of them, with the positions inside them) used up 128, and 256 read 8 dB 76 → 86
    /// and 9 dB 223 → 233 of 500; 512 read no more (nor 384 with faint preambles). At
    /// 2.4 MS/s, 192: with faint preambles (`Demodulator.Tuning.faintPreambles`) 128 read 24
    /// fewer of 1000 at 5 dB, 4 fewer at 6 dB (before them 256 read the same as 128).
    let coherentBudget: Int
    /// Passes of decision-directed slicing (`Demodulator.directed`) for a candidate that
    /// failed parity. At 2.0 MS/s, 3: the smear of each pulse into its neighbours is large;
    /// the later passes read 2–3 % more at 10–12 dB on the sweep before the coherent pass
    /// repaired runs of bits (694 against 687 with one pass at 12 dB), since then the same but
    /// for a frame (795 both at 12 dB, 308 against 307 at 9 dB), and a frame more on
    /// modes1.bin (356 against 355; 359 and 358 with weak preambles). At 2.4 MS/s, 1: both recordings and
    /// the dense sky read the same with one pass as with three, and the sweep one or two of
    /// 1000 fewer at 7 and 9 dB, for about 6 % less CPU on the dense sky (README).
    let directedPasses: Int
    /// Whether a candidate phase whose preamble passed only with a failed shape test is
    /// sliced again by the equalisers (`Demodulator.Tuning.equalizesPartialShapes`). At
    /// 2.4 MS/s, false: on the dense real sky four fifths of the candidates that fail parity
    /// are such preambles (overlaps and noise), the equalisers read none of them, and skipping
    /// them saves about an eighth of the CPU there (README); the sweep reads one to three of
    /// 1000 fewer at 7–9 dB. At 2.0 MS/s the band limit fills the quiet half bits of real
    /// replies (`extraShapeSlack`) and the equalisers undo that smear: true (false read 357
    /// instead of 359 of modes1.bin).
    let equalizesPartialShapes: Bool
    /// How far, in sixteenths of the noise floor's half-bit energy, a preamble's later pulses
    /// (2, 7, 9) may fall short of the quiet half bits beside them (`Demodulator.Tuning.shapeTolerance16`);
    /// nil: no such test. At 2.4 MS/s, 24: on the dense real sky (20 M samples) half the
    /// candidates had a pulse 7 or 9 (or 2 after half bit 1) further under its neighbour than
    /// that and none of them was a reply (every frame the partial shapes read failed only pulse 0's
    /// or pulse 2's test against the following quiet half bit, a reply's tail or a FRUIT
    /// pulse in it), while on the sweep at 5–8 dB, where noise alone fails tests, one
    /// reply of 1000 fell further short. At 2.0 MS/s the band limit fills the quiet half
    /// bits of real replies (`extraShapeSlack`): a tenth of what the candidates read there fell
    /// further short.
    let shapeTolerance: Int64?
    /// Half-bit length in steps (4 or 6).
    let halfBitSteps: Int
    /// Samples a whole long reply spans from its start sample (preamble + 112 bits + margin).
    let span: Int
    /// The largest plane offset any half bit of any phase has (the last half bit of a long
    /// reply at the last phase).
    let maxOffset: Int

    /// Preamble half bits in the order the detector reads them: the pulses 0, 2, 7, 9, then
    /// the quiet half bits 1, 3, 4, 5, 6, 8, 10, 11, 12, 13.
    static let preambleHalfBits = [0, 2, 7, 9, 1, 3, 4, 5, 6, 8, 10, 11, 12, 13]
    static let preambleWindows = 14

    /// For each preamble pulse (half bits 0, 2, 7, 9): the first sample it can touch at any
    /// phase (⌊k·halfBitSteps / resolution⌋).
    let pulseSamples: (Int, Int, Int, Int)

    init(rate: SampleRate) {
        switch rate {
        case .rate2_0:
            resolution = 4; halfBitSteps = 4; phases = [0, 1, 2, 3]; detectionStride = 1; slicesPastNoReply = true
            extraShapeSlack = 2
            coherentLevelLimit = nil
            levelGate = (48, 0)
            weakLevelGate = (36, 44)
            coherentBudget = 256
            directedPasses = 3
            equalizesPartialShapes = true
            shapeTolerance = nil
        case .rate2_4:
            resolution = 5; halfBitSteps = 6; phases = [0, 1, 2, 3, 4]; detectionStride = 2; slicesPastNoReply = false
            extraShapeSlack = 0
            coherentLevelLimit = 8
            levelGate = (40, 44)
            weakLevelGate = (36, 40)
            coherentBudget = 192
            directedPasses = 1
            equalizesPartialShapes = false
            shapeTolerance = 24
        }
        span = ((16 + 224) * halfBitSteps + resolution) / resolution + 4
        maxOffset = (phases.last! + 239 * halfBitSteps) / resolution
        let first = { [halfBitSteps, resolution] (pulse: Int) in pulse * halfBitSteps / resolution }
        pulseSamples = (first(0), first(2), first(7), first(9))
    }

    /// The plane and sample offset of half bit `halfBit` of a reply at phase `phase`.
    func place(phase: Int, halfBit: Int) -> (plane: Int, offset: Int) {
        let step = phase + halfBit * halfBitSteps
        return (step % resolution, step / resolution)
    }

    /// Weights of a sample and the next one in plane `q`: the overlap, in steps, of the half
    /// bit [q, q + halfBitSteps) with [0, resolution) and [resolution, 2·resolution). A half
    /// bit never reaches a third sample at these rates (halfBitSteps + q ≤ 2·resolution).
    func weights(plane q: Int) -> (Int16, Int16) {
        (Int16(resolution - q), Int16(q + halfBitSteps - resolution))
    }

    /// Flat offsets (plane × `stride` + sample offset) of the 14 preamble half bits, per
    /// phase (`[phase * 14 + j]`, order of `preambleHalfBits`).
    func preambleOffsets(stride: Int) -> [Int] {
        phases.flatMap { p in SliceKernels.preambleHalfBits.map { flat(place(phase: p, halfBit: $0), stride) } }
    }

    /// Flat offsets of the two halves of every data bit, per phase
    /// (`[(phase * 112 + k) * 2 + half]`).
    func bitOffsets(stride: Int) -> [Int] {
        phases.flatMap { p in
            (0..<112).flatMap { k in
                [flat(place(phase: p, halfBit: 16 + 2 * k), stride), flat(place(phase: p, halfBit: 17 + 2 * k), stride)]
            }
        }
    }

    private func flat(_ place: (plane: Int, offset: Int), _ stride: Int) -> Int {
        place.plane * stride + place.offset
    }

    /// The flat offsets of `preambleOffsets` and `bitOffsets` for one plane stride, in memory
    /// that lives as long as the demodulator (read on the hot path without array overhead).
    final class Offsets: @unchecked Sendable {
        let preamble: UnsafeMutablePointer<Int>
        let bits: UnsafeMutablePointer<Int>
        init(_ kernels: SliceKernels, stride: Int) {
            let p = kernels.preambleOffsets(stride: stride), b = kernels.bitOffsets(stride: stride)
            preamble = .allocate(capacity: p.count)
            preamble.initialize(from: p, count: p.count)
            bits = .allocate(capacity: b.count)
            bits.initialize(from: b, count: b.count)
        }
        deinit { preamble.deallocate(); bits.deallocate() }
    }
}
