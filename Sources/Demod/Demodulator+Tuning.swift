extension Demodulator {
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
}
