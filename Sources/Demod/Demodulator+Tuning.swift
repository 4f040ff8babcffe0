extension Demodulator {
    /// Detection thresholds (integer arithmetic on the hot path). The preamble ratio (mean
    /// pulse energy above twice the mean quiet energy, or 5/3 of it for the coherent pass:
    /// `weakPreambles`) is fixed in `PreambleDetector`.
    public struct Tuning: Sendable, Equatable {
        /// Detector: a preamble pulse is loud when its mean magnitude exceeds the noise floor
        /// times this / 16; three of the four pulses must be loud. nil: the rate's
        /// (`SliceKernels.levelGate`).
        public var noiseRatio16: Int64?
        /// Detector: the four preamble pulses' mean magnitude must exceed the noise floor times
        /// this / 16 (the pulses weighed together, beside `noiseRatio16`'s decision on each);
        /// 0: no such test; nil: the rate's (`SliceKernels.levelGate`).
        public var pulseSum16: Int64?
        /// The detector's level gate for preambles the coherent pass alone reads (with
        /// `weakPreambles`), in the units of `noiseRatio16` and `pulseSum16`; a candidate that
        /// misses the gate above goes to the coherent pass only. nil: the rate's
        /// (`SliceKernels.weakLevelGate`).
        public var weakNoiseRatio16: Int64?
        public var weakPulseSum16: Int64?
        /// Preamble shape: how many of the six "pulse above its quiet neighbour" tests may fail.
        public var shapeSlack = 1
        /// Phases sliced per candidate position, best preamble correlation first.
        public var phasesSliced = 2
        /// Slicing stops when more of the first 24 bits than this are weak (halves nearly equal).
        public var weakBitLimit = 16
        /// False: count detected positions but slice none (the benchmark's "preamble search"
        /// stage).
        public var evaluates = true
        /// Soft-decision repair of DF17/18 from addresses not known yet: subsets of this many
        /// weakest bits are tried (0 to 5; 0: off). See `repairUnknownSquitter`.
        public var unknownRepairBits = 5
        /// The coherent pass's repair of DF17/18 from addresses not known yet
        /// (`repairUnknownSquitter`, an `ErasureRepair`): the parity equations are solved on
        /// this many of a decision's least reliable bits (the fit's own reliabilities, sharper
        /// than magnitude margins), and a solution taken when it inverts at most
        /// `coherentErasureFlips` of them: 298 of the 2²⁴ syndromes, a false-accept bound of
        /// 1.8 × 10⁻⁵ per decision tried (the magnitude path's five weakest: 31, 1.8 × 10⁻⁶).
        /// On the sweep at 2.4 MS/s, 6 dB: 131 of 1000 against 101 with the five weakest; (10, 5)
        /// gains the same at twice the bound, (14, 4) a few more with a false frame.
        public var coherentErasureBits = 12
        public var coherentErasureFlips = 3
        /// A decision whose bits the fit holds firmly, its median bit reliability at least
        /// `strongDecisionReliability` noise powers, is repaired over more events: any
        /// `strongErasureFlips` of its `strongErasureBits` least reliable (2 517 syndromes of
        /// 2²⁴, a bound of 1.5 × 10⁻⁴ per decision tried). A real reply's decision is far above
        /// the gate, noise's far under it: on 600 s of noise at 2.0 MS/s the decisions that
        /// reached the repair had a median reliability of 0.64 noise powers (99 % under 5.4,
        /// the highest 6.3), the replies decided at 8 dB on the sweep 7.4 (95 % over 5.8).
        /// Garbled weak replies lie between, and there the larger bound shows: a gate of 5 made
        /// a false DF17 on the sweep at 2.0 MS/s and 6 dB, one of 6 on the Nyquist-sinc channel
        /// at 2.0 MS/s and 5 dB; 6.5 none on the sweep and the four filter families at both
        /// rates. On the sweep at 2.0 MS/s (seed 1, 1000 frames) 7, 8, 9 dB: 98, 378, 742 →
        /// 110, 451, 782 (a gate of 6: 129, 460, 783; 7: 106, 440, 780; 3 flips of 16 events
        /// 414 at 8 dB, 4 of 14 441). 0 flips: off.
        public var strongErasureBits = 16
        public var strongErasureFlips = 4
        public var strongDecisionReliability: Float = 6.5
        /// A decision under that gate whose median bit reliability is still at least
        /// `steadyDecisionReliability` noise powers is held steadily (`Demodulator.Hold`): it
        /// is firm after all when the edge of the firm repair's reach, its
        /// `strongErasureBits`-th least reliable event, is at least `firmEdgeReliability` noise
        /// powers (every event the repair cannot invert is then well above the noise; a
        /// garbled reply has more unsure events than the repair reaches: the five false DF17
        /// that a gate of 5 made on the sweep and the filter families had edges of 1.5 to 2.1),
        /// else repaired over `steadyErasureFlips` of its `steadyErasureBits` least reliable
        /// events (575 syndromes, a bound of 3.4 × 10⁻⁵ per decision tried). On the sweep at
        /// 2.0 MS/s (seed 1, 1000 frames) 7, 8 dB: 110, 451 → 125, 456 (each alone: the edge
        /// 113, 453; the steady repair 124, 454); no new false frame there or on the families
        /// at either rate. The median gate alone at 5 made 462 at 8 dB, with those five false.
        public var steadyDecisionReliability: Float = 5
        public var firmEdgeReliability: Float = 2.2
        public var steadyErasureBits = 15
        public var steadyErasureFlips = 3
        /// The coherent repairs weigh what they invert: a solution whose events' reliabilities
        /// sum to more than `ErasureRepair.likelihoodCeiling` noise powers (each event's
        /// reliability over the noise power is its log-likelihood ratio; 8.8 for a firm
        /// decision's 4 of 16) is refused, being less likely than a random syndrome's solution.
        /// Held out from the tuning above (seed 2, Nyquist sinc, 2.0 MS/s, 8 dB) a firm decision
        /// was repaired into a false DF17 by events summing to 11.8; refusing such repairs costs
        /// 1 to 3 of 1000 at some, mostly strong, points of the sweep and the families, where
        /// FRUIT rather than noise garbled the bits. Off: the repairs as before.
        public var weighsRepairs = true
        /// The coherent pass's erasures are error events, not only bits: a run of up to this
        /// many equal bits inverted together (the pulses moved by half a bit, the search's
        /// commonest multi-bit error where the band limit smears pulses) is one event, rated by
        /// the fit like a bit (`CoherentSlicer.Run`), and `coherentErasureBits` and
        /// `coherentErasureFlips` count events; the false-accept bound per decision is the
        /// same. 1: single bits only. On the sweep (seed 1, 1000 frames) with runs up to 4:
        /// 2.0 MS/s 9 dB 146 → 308 (with the coherent pass reading from a sample before the
        /// detector's position), 12 dB 694 → 795; 2.4 MS/s 6 dB 192 → 212. Up to 6 (with the
        /// weak starts' energy from 14 noise powers, `coherentWeakEnergy`): 2.0 MS/s 8, 9 dB
        /// 354 → 364, 708 → 724 (seed 2: 334 → 339, 674 → 687); 8 adds nothing more.
        public var coherentErasureRun = 6
        /// When a candidate fails parity, it is sliced again with the band-limit equaliser
        /// (`EqualizedDecision`) with this spill in sixteenths; 0: off.
        public var equalizer16: Int32 = 5
        /// When a candidate still fails parity, it is sliced again up to this many times with
        /// decision-directed equalisation (`DirectedDecision`), each pass taking the
        /// neighbours' bits from the one before; 0: off; nil: the rate's
        /// (`SliceKernels.directedPasses`).
        public var directedPasses: Int?
        /// When every magnitude decision fails, the best-ranked phase is searched coherently
        /// (`CoherentSlicer`) this many times (the first tracking the carrier, the next
        /// refitting it over the whole reply); 0: off.
        public var coherentPasses = 2
        /// When a coherent search fails with a decision whose format the demodulator takes
        /// (`replyLength`) or, while half the window's budget is left, that lies within two bits
        /// of an extended squitter (`retimedLength`), that decision's own pulses place the reply again
        /// (`CoherentSlicer.retime`: the preamble's four pulses in noise are often best fitted
        /// an eighth or two of a sample off, where every later bit is judged a little wrong),
        /// and the search runs again at the new start, at most this many times; 0: off.
        public var coherentRetimes = 1
        /// A weak preamble (`weakStartLevel16`) that explains under `coherentFit` of its
        /// window is still searched when it explains at least this share, its energy is in
        /// `coherentWeakEnergy` and the samples before it are quiet
        /// (`Demodulator.isWorthSearching`); 1: never.
        public var coherentWeakFit: Float = 0.30
        /// The preamble energy (the coherent fit's, `CoherentSlicer.refineStart`) every
        /// searched start needs once the noise floor is known, in noise powers (one sample's):
        /// on noise, half the starts that explain `coherentFit` have less (and each search is
        /// a chance for a false repair); a reply at 2.4 MS/s and 6 dB has about 24, one in
        /// twenty under 16.
        public var coherentEnergy: Float = 14
        /// The preamble energy a start that explains under `coherentFit` needs, in noise
        /// powers: pure noise's best start rarely gets 14; over 60 (a reply at about 10 dB)
        /// noise is too small a part of the window to explain so little. From 14 instead of 16
        /// (sweep, seed 1, 1000 frames): 2.4 MS/s 5, 6 dB 218 → 238, 537 → 558, 2.0 MS/s 9 dB
        /// 702 → 708 (seed 2: 2.4 MS/s 236 → 257, 555 → 582); on an hour's noise the
        /// searches rise by four fifths at 2.4 MS/s and a third at 2.0 MS/s, and what the
        /// false-accept bound expects with them (`bench --noise`, README). From 12 the starts
        /// noise offers rise sixfold for little more (2.4 MS/s 6 dB 566).
        public var coherentWeakEnergy: ClosedRange<Float> = 14...60
        /// The samples before such a start are quiet when their mean power is under this many
        /// noise powers (noise: about 1; inside a weak reply's data: 3 and more).
        public var quietPower: Float = 2
        /// Only a preamble whose mean pulse is under this many sixteenths of the noise floor
        /// takes that path (`Demodulator.coherentAdmission`), a cheap test before the start is
        /// refined again: six floors, somewhat above a reply at 10 dB.
        public var weakStartLevel16: Int64 = 96
        /// The coherent pass runs only when the fitted preamble pulses explain at least this
        /// share of the energy of the preamble's samples (a clean reply: about 0.8, its first
        /// bits being in the window too; on pure noise under one position in a hundred passes).
        public var coherentFit: Float = 0.45
        /// At most this many coherent searches per noise-floor window (65 536 samples: 27 ms
        /// at 2.4 MS/s, 33 ms at 2.0 MS/s): a bound on the pass's CPU time however busy or
        /// noisy the input. nil: the rate's (`SliceKernels.coherentBudget`: 128 at 2.4 MS/s,
        /// about 4 700 a second, which the sensitivity sweep's 2 500 weak replies a second stay
        /// under; 256 at 2.0 MS/s, where they did not).
        public var coherentBudget: Int?
        /// The detector passes preambles whose mean pulse energy is only above 5/3 of the
        /// mean quiet energy (else twice it), and those under twice go to the coherent pass
        /// alone (`Demodulator.evaluate`); off when the coherent pass is. The ratio was
        /// what most weak replies the coherent pass could read failed: on the sweep (seed 1,
        /// 300 frames) 2.4 MS/s 6 dB 71 → 100, 8 dB 204 → 255; 2.0 MS/s 9 dB 110 → 157, 12 dB
        /// 241 → 286, no false frame; the dense real sky reads the same frames for about a
        /// sixth more CPU (README, the speed table).
        public var weakPreambles = true
        /// With `weakPreambles`, the detector passes preambles whose mean pulse energy is only
        /// above 20/13 (about 1.54) of the mean quiet energy too (`PreambleDetector.faintRatio`): a
        /// position none of whose phases meets 5/3 is a faint preamble, the coherent pass's
        /// alone, and only when the 16 samples before it are quiet (`Demodulator.isQuiet`:
        /// inside another reply a preamble this faint is that reply's data). At 2.0 MS/s the
        /// band limit fills the quiet half bits beside the pulses (at some sub-sample phases
        /// half bits 1 and 8 hold as much as a pulse), and 5/3 was what many 12 dB replies the
        /// detector missed failed. On the sweep (seed 1, 1000 frames) 2.0 MS/s 8, 9, 12 dB 319 →
        /// 344, 649 → 690, 960 → 968; 2.4 MS/s 5, 6, 8 dB 190 → 211, 491 → 524, 880 → 905 (with
        /// the budget there raised to 192 searches a window: `SliceKernels.coherentBudget`); the
        /// real recordings read the same frames (the magnitude slicers see the same phases).
        public var faintPreambles = true
        /// Whether a faint preamble needs the quiet samples before it (`faintPreambles`); false
        /// only to measure what the test saves.
        public var faintNeedsQuiet = true
        /// Whether the detector drops the lanes of weak and faint preambles (those under the
        /// strict ratio, the coherent pass's alone) that the ranking's shape tolerance
        /// (`shapeTolerance16`) or the coherent pass's level limit
        /// (`SliceKernels.coherentLevelLimit`) would refuse (`PreambleDetector.tolerance`,
        /// `loudLimit`): on the dense real sky a third of the detector's passes, the same
        /// frames. False only to measure what it saves.
        public var screensWeakLanes = true
        /// Learn the receive chain's pulse response from strong clean replies
        /// (`PulseLearner`) and fit the coherent pass with it instead of the RTL2832U model.
        public var learnsPulseShape = true
        /// Read the start of the input twice (`Demodulator+Start.swift`): its first
        /// `Demodulator.startSamples` once to learn the pulse (with `learnsPulseShape`) and the
        /// first window's noise, then again with them. Only with the coherent pass
        /// (`coherentPasses`), which both serve.
        public var readsStartTwice = true
        /// Search again, with the reply subtracted, where a decoded reply overlaps a weaker
        /// one (`Demodulator+Overlap`): a coherent search that failed before a reply
        /// decoded inside it, and a preamble inside the decoded reply; off when the coherent
        /// pass is.
        public var searchesOverlaps = true
        /// Whether a candidate phase whose preamble passed only with a failed shape test
        /// (`shapeSlack`) is sliced again by the equalisers (`equalizer16`, `directedPasses`);
        /// the coherent pass is tried either way. nil: the rate's
        /// (`SliceKernels.equalizesPartialShapes`: at 2.4 MS/s only full shapes).
        public var equalizesPartialShapes: Bool?
        /// A candidate phase is dropped when its preamble's pulse 2 falls under half bit 1,
        /// pulse 7 under half bit 6 or 8, or pulse 9 under half bit 8 by more than this many
        /// sixteenths of the noise floor's half-bit energy (more than noise explains: another
        /// signal's pulses, not a reply's preamble); 0: no such test. nil: the rate's
        /// (`SliceKernels.shapeTolerance`: 24 at 2.4 MS/s, none at 2.0 MS/s).
        public var shapeTolerance16: Int64?
        /// The default: one of the six shape tests may fail, so preambles half-hidden by
        /// another reply still count (on the busy real recording: 345 frames, 333 without).
        /// Allowing two finds 349 at about twice the cost.
        public init() {}

        /// Cheaper: the preamble must have the full shape, and a candidate that fails parity is
        /// not sliced again through the equalisers nor searched coherently (the weak-bit
        /// repairs stay). About a third
        /// less work than the default on a busy recording, for a few percent fewer frames there
        /// (the weakest and most overlapped) and far fewer of the weakest band-limited ones,
        /// most at 2.0 MS/s (README, sensitivity table).
        public static var fast: Tuning {
            var t = Tuning()
            t.shapeSlack = 0
            t.equalizer16 = 0
            t.directedPasses = 0
            t.coherentPasses = 0
            t.learnsPulseShape = false
            t.weakPreambles = false
            t.faintPreambles = false
            // The looser gate of 2.4 MS/s finds replies only the coherent pass reads (on the
            // sweep at 6 and 8 dB: 5 and 66 against 4 and 65), at a third more CPU on them.
            t.noiseRatio16 = 48
            t.pulseSum16 = 0
            return t
        }
    }
}

/// The tuning's choices left to the sample rate, resolved.
extension Demodulator {
    /// The detector's level gate: the tuning's, else the rate's (`SliceKernels.levelGate`).
    var levelGate: (each: Int64, summed: Int64) {
        (tuning.noiseRatio16 ?? kernels.levelGate.each, tuning.pulseSum16 ?? kernels.levelGate.summed)
    }

    /// The level gate the detector applies: with weak preambles (`Tuning.weakPreambles`) the
    /// weak one (the tuning's, else the rate's `SliceKernels.weakLevelGate`, else
    /// `levelGate`), without them `levelGate`.
    var detectionGate: (each: Int64, summed: Int64) {
        guard tuning.weakPreambles && tuning.coherentPasses > 0 else { return levelGate }
        let strict = levelGate
        return (tuning.weakNoiseRatio16 ?? kernels.weakLevelGate?.each ?? strict.each,
                tuning.weakPulseSum16 ?? kernels.weakLevelGate?.summed ?? strict.summed)
    }

    /// Coherent searches per noise-floor window: the tuning's, else the rate's
    /// (`SliceKernels.coherentBudget`).
    var coherentBudget: Int { tuning.coherentBudget ?? kernels.coherentBudget }
    /// Searches under decoded replies a window (`searchUnder`): their own budget, so they
    /// never take a fresh start's (on the sweep at 2.0 MS/s and 7 to 8 dB, where the windows'
    /// budget runs out, sharing it lost as many replies as they found).
    var overlapBudget: Int { coherentBudget / 8 }

    /// Passes of decision-directed slicing: the tuning's, else the rate's
    /// (`SliceKernels.directedPasses`).
    var directedPasses: Int { tuning.directedPasses ?? kernels.directedPasses }

    /// The shape tolerance in sixteenths of the floor's half-bit energy: the tuning's, else
    /// the rate's (`SliceKernels.shapeTolerance`); 0: none.
    var shapeTolerance16: Int64 { tuning.shapeTolerance16 ?? kernels.shapeTolerance ?? 0 }

    /// Whether partial preamble shapes are equalised: the tuning's, else the rate's
    /// (`SliceKernels.equalizesPartialShapes`).
    var equalizesPartialShapes: Bool { tuning.equalizesPartialShapes ?? kernels.equalizesPartialShapes }
}
