import ModeS
import RealModule

/// Replies hidden under a stronger one: the decoded reply fitted (`ReplyFit`), subtracted from
/// the raw samples, and what is left searched coherently.
///
/// Where two replies overlap, the weaker one's bits are read against the stronger one's
/// pulses, and the coherent search fails however strong the weaker reply is; the stronger one
/// decodes (its own CRC says its bits are right), so its samples can be predicted and taken
/// out. Two cases:
/// - a weaker reply whose search failed before a stronger one that started inside it was
///   decoded (`failedSearches`): searched again at the same start, at once;
/// - a weaker reply whose preamble lies under the decoded one (the detector loop jumps past a
///   decoded reply, so no position showed it): looked for in what is left of the decoded
///   reply's span, only where the samples after its tail are loud (a weaker reply that starts
///   inside a stronger one runs on past it: `hiddenTailShare`) and no reply decoded there, nor
///   one found under it already, explains them (`PendingOverlap`).
extension Demodulator {
    /// Failed searches remembered (`failedSearches`).
    static let rememberedFailures = 4

    /// The least mean power of a decoded reply's tail, as a share of its pulses' power, for a
    /// look under it: a reply hidden there that the search can still read after the
    /// subtraction is at most about 12 dB weaker, and its data pulses fill about half the
    /// tail. A strong reply's own echoes and filter ringing stay under it: on the dense real
    /// recording (20 M samples, 20 344 replies) the looks fall from 671 (any tail louder than
    /// `Tuning.quietPower` noise powers) to 55; the sweep's skies read the same replies from
    /// a share of 1/100 to 1/10.
    static let hiddenTailShare = 1.0 / 16

    /// A decoded reply whose tail was not quiet: searched for a reply hidden under it once the
    /// detector loop has passed `deadline` without decoding a reply that starts before it.
    struct PendingOverlap {
        var frame: Frame
        /// Where the reply was sliced: absolute sample and phase index.
        var start: UInt64
        var phase: Int
        /// The absolute sample after the tail weighed (`meanPower`).
        var deadline: UInt64
    }

    /// Remembers a failed coherent search's start (absolute, fortieths of a sample).
    mutating func rememberFailedSearch(_ start40: Int64) {
        if failedSearches.count >= Demodulator.rememberedFailures { failedSearches.removeFirst() }
        failedSearches.append(start40)
    }

    /// After a reply `frame` is decoded at magnitude index `s` and phase index `phase` (its
    /// pulses' amplitude `level`, full scale 1): the failed searches it started inside searched
    /// again with it subtracted (a reply found is appended to `found`), and, if none is found
    /// and its tail is loud, the reply kept for a look under it (`pendingOverlap`). A pending
    /// reply that this one starts before the deadline of is dropped: this reply explains its
    /// tail.
    mutating func decoded(_ frame: Frame, at s: Int, phase: Int, level: Double, into found: inout [DemodulatedFrame]) {
        if let pending = pendingOverlap, carryStart + UInt64(s) < pending.deadline { pendingOverlap = nil }
        let hb40 = coherentSlicer.halfBit40
        let detected40 = Int64(carryStart + UInt64(s)) * 40 + Int64(40 * kernels.phases[phase] / kernels.resolution)
        let longest40 = Int64((16 + 224) * hb40)
        // The failed searches the reply starts inside (a bit or more after their start); those
        // it starts after the end of are of no more use. One 3.5 µs before it is its own
        // preamble read a place early (its first two pulses as the later two): on the sweep at
        // 2.0 MS/s and 12 dB half the failed searches a reply started inside, none of them
        // hiding a reply.
        if !failedSearches.isEmpty {
            var hidden: [Int64] = []
            failedSearches.removeAll { start in
                let d = detected40 - start
                if d >= 2 * Int64(hb40) && d < longest40 && abs(d - 7 * Int64(hb40)) > Int64(hb40 / 2) { hidden.append(start) }
                return d >= 2 * Int64(hb40)
            }
            let before = found.count
            if !hidden.isEmpty { _ = searchUnder(frame, at: s, phase: phase, hidden: hidden, into: &found) }
            // A reply found there runs on under this one: it explains the tail, and a look
            // under this one would find it again.
            guard found.count == before else { return }
        }
        // The tail: the samples just past the reply's last pulse's reach, not quiet against the
        // noise (`Tuning.quietPower`; before the first floor there is no look) nor against the
        // reply (`hiddenTailShare` of its pulses' power).
        let tail = s + frameSamples(frame.bitCount) + coherentSlicer.reach + Demodulator.quietSamples + 1
        let pulsePower = level * level * Double(MagnitudeConverter.fullScale) * Double(MagnitudeConverter.fullScale)
        if let power = noisePower(at: s), let mean = meanPower(before: tail),
           mean >= max(Double(tuning.quietPower) * power, pulsePower * Demodulator.hiddenTailShare) {
            pendingOverlap = PendingOverlap(frame: frame, start: carryStart + UInt64(s), phase: phase, deadline: carryStart + UInt64(tail))
        }
    }

    /// The look under the pending reply (`pendingOverlap`), due when the detector loop reaches
    /// magnitude index `s`: a reply found is put in `found` in time order; returns the index
    /// its end is at, to go on from.
    mutating func searchPending(at s: Int, into found: inout [DemodulatedFrame]) -> Int? {
        guard let pending = pendingOverlap, carryStart + UInt64(s) >= pending.deadline else { return nil }
        pendingOverlap = nil
        guard pending.start >= carryStart,
              let frame = searchUnder(pending.frame, at: Int(pending.start - carryStart), phase: pending.phase, hidden: [], into: &found)
        else { return nil }
        var i = found.count
        while i > 0 && found[i - 1].sampleIndex > frame.sampleIndex { i -= 1 }
        found.insert(frame, at: i)
        return Int(frame.sampleIndex - carryStart) + frameSamples(frame.parity.frame.bitCount)
    }

    /// The reply `frame` decoded at magnitude index `s` and phase index `phase` fitted and
    /// subtracted, then what is left searched: at each of the `hidden` starts (absolute,
    /// fortieths; a reply found is appended to `found`), or with none, for a preamble under it
    /// (`hiddenStarts`, from a preamble's length before its start to its end), returned.
    mutating func searchUnder(_ frame: Frame, at s: Int, phase: Int, hidden: [Int64], into found: inout [DemodulatedFrame]) -> DemodulatedFrame? {
        let hb40 = coherentSlicer.halfBit40
        // From a preamble's length before the reply (or a sample before the earliest hidden
        // start) to a long reply's span after its end: a reply hidden under it may run on past it.
        let lead = 16 * hb40 / 40 + coherentSlicer.reach + 2
        var lo = s - 1 - lead
        for start in hidden { lo = min(lo, Int(start / 40 - Int64(carryStart)) - 1) }
        lo = max(lo, 0)
        let hi = min(magCount, s + frameSamples(frame.bitCount) + kernels.span + 2)
        guard s >= 1, hi > s + 32 else { return nil }
        let count = hi - lo
        let slicer = coherentSlicer
        let power = noisePower(at: s)
        var later: DemodulatedFrame?
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * count) { buffer in
            // The samples as they came (`original`), and what is left of them (`iq`).
            let iq = buffer.baseAddress!, original = iq + 2 * count
            rawSamples(from: lo, count: count, into: original)
            iq.update(from: original, count: 2 * count)
            // The decoded reply: placed by its preamble, then by its whole pulse train, fitted
            // and taken out.
            let rb = s - 1 - lo
            let reply = iq + 2 * rb, replyCount = count - rb
            guard let refined = slicer.refineStart(reply, count: replyCount, start40: 40 + 40 * kernels.phases[phase] / kernels.resolution,
                                                   minimumFit: 0.1) else { return }
            let t = slicer.retime(reply, count: replyCount, start40: refined.start40, raw: frame.raw, bitCount: frame.bitCount)
            guard let fit = ReplyFit(reply, count: replyCount, start40: t, frame: frame, slicer: slicer) else { return }
            repliesSubtracted &+= 1
            fit.subtract(from: reply)
            /// The coherent search of what is left at `start` (absolute fortieths). A hidden
            /// reply overlapping the decoded one on its bit grid biases the decoded one's fit (its
            /// pulses fall in the same slots, with a carrier of nearly the same phase: tenths of
            /// the amplitude where it is 10 dB weaker), so what is left still holds a few per cent
            /// of the decoded reply, as much as the hidden one at times. When the search fails,
            /// its decided bits (most of them right) give the hidden reply's own fit; with that
            /// taken out of the samples, the decoded reply is fitted again, taken out of the
            /// samples as they came, and the hidden one searched once more.
            func search(at start: Int64) -> DemodulatedFrame? {
                let base = Int(start / 40 - Int64(carryStart)) - 1
                guard base >= lo else { return nil }
                let start40 = Int(start - Int64(carryStart + UInt64(base)) * 40)
                let from = iq + 2 * (base - lo), available = min(kernels.span + 1, hi - base)
                let time = Double(start / 40) / Double(sampleRate.hertz)
                overlapSearches &+= 1
                var outcome = self.search(from, count: available, start40: start40, from: base, position: base + 1, time: time, overlapped: true)
                if outcome.found == nil, let decided = outcome.last,
                   let bitCount = Demodulator.retimedLength(downlinkFormat: decided.downlinkFormat, nearSquitters: true),
                   let guess = decided.frame(bitCount: bitCount),
                   let hiddenFit = ReplyFit(from, count: available, start40: outcome.start40, frame: guess, slicer: slicer) {
                    iq.update(from: original, count: 2 * count)
                    hiddenFit.subtract(from: from)
                    if let refit = ReplyFit(reply, count: replyCount, start40: t, frame: frame, slicer: slicer) {
                        iq.update(from: original, count: 2 * count)
                        refit.subtract(from: reply)
                        outcome = self.search(from, count: available, start40: start40, from: base, position: base + 1, time: time, overlapped: true)
                    }
                }
                guard let result = outcome.found else { return nil }
                return hiddenFrame(result, iq: from, samples: available, start40: outcome.start40,
                                   absolute40: Int64(carryStart + UInt64(base)) * 40 + Int64(outcome.start40))
            }
            /// The samples with the decoded reply's first fit taken out again (after a search
            /// that refitted it on a wrong guess).
            func restore() {
                iq.update(from: original, count: 2 * count)
                fit.subtract(from: reply)
            }
            guard hidden.isEmpty else {
                for start in hidden {
                    if let frame = search(at: start) { found.append(frame) } else { restore() }
                }
                return
            }
            // A preamble under the reply, away from the reply's own start: the likeliest few
            // places on what is left, each refined and searched if it is worth it (as
            // `isWorthSearching` weighs a start with the full share of its window).
            let t40 = 40 * rb + t
            let scale = Double(MagnitudeConverter.fullScale)
            for inside in hiddenStarts(iq, count: count, from: max(t40 - 16 * hb40, 40), to: t40 + (16 + 2 * frame.bitCount) * hb40,
                                       avoiding: t40, power: power) {
                let base = lo + inside / 40 - 1
                let from = iq + 2 * (base - lo), available = min(kernels.span + 1, hi - base)
                guard let start = slicer.refineStart(from, count: available, start40: inside - 40 * (base - lo), minimumFit: tuning.coherentFit),
                      start.fit >= tuning.coherentFit,
                      power.map({ Double(start.captured) * scale * scale / $0 >= Double(tuning.coherentEnergy) }) ?? true
                else { continue }
                later = search(at: Int64(carryStart + UInt64(base)) * 40 + Int64(start.start40))
                if later != nil { break }
                restore()
            }
        }
        return later
    }

    /// Places under a decoded reply to look for a hidden one's preamble.
    static let hiddenCandidates = 3

    /// Where in `iq` (`count` samples, the decoded reply already subtracted) a weaker reply's
    /// preamble may start, looked for every quarter bit from `from` to `to` fortieths, more
    /// than a half bit from `avoiding` (the decoded reply's start, where what is left of it is
    /// most): the `hiddenCandidates` starts (each more than a half bit from a better one)
    /// whose four pulses explain the largest share of the preamble's own samples, among those
    /// capturing `Tuning.coherentEnergy` noise powers (`power`, magnitude units squared; any,
    /// before the first noise floor) and at least 0.7 × `Tuning.coherentFit` of them; best
    /// first. The preamble's samples alone, not `refineStart`'s window reaching into the first
    /// bits: a start the hidden reply's own data offer (four of their pulses where a preamble
    /// has them) has a fifth pulse among them, and at 2.0 MS/s, where the band limit blurs the
    /// quiet half bits, the wider window chose such a start over the true one more often
    /// than not. Each pulse's correlation is made once; each start sums four of them.
    func hiddenStarts(_ iq: UnsafePointer<Float>, count: Int, from: Int, to: Int, avoiding: Int, power: Double?) -> [Int] {
        let slicer = coherentSlicer
        let hb40 = slicer.halfBit40, step = hb40 / 2
        // The preamble's pulses are 0, 2, 7 and 9 half bits after its start: 0, 4, 14 and 18 steps.
        let pulses = (to - from) / step + 19
        guard from >= 0, pulses > 19 else { return [] }
        // Energy of samples [0, n): the windows' energies by difference.
        var energy = [Float](repeating: 0, count: count + 1)
        for n in 0..<count { energy[n + 1] = energy[n] + iq[2 * n] * iq[2 * n] + iq[2 * n + 1] * iq[2 * n + 1] }
        let scale = Double(MagnitudeConverter.fullScale)
        let least = power.map { Float(Double(tuning.coherentEnergy) * $0 / (scale * scale)) } ?? 0
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * pulses) { c -> [Int] in
            let reach = slicer.reach
            for j in 0..<pulses {
                let a = from + j * step
                var zr: Float = 0, zi: Float = 0, e: Float = 0
                for n in max(0, a / 40 - reach - 1)..<max(0, min(count, a / 40 + reach + 3)) {
                    let v = slicer.pulse(n, a)
                    zr += iq[2 * n] * v; zi += iq[2 * n + 1] * v; e += v * v
                }
                c[3 * j] = zr; c[3 * j + 1] = zi; c[3 * j + 2] = e
            }
            var best: [(start: Int, fit: Float)] = []
            for j in 0..<(pulses - 18) {
                let a = from + j * step
                guard abs(a - avoiding) > hb40 else { continue }
                var zr: Float = 0, zi: Float = 0, e: Float = 0
                for k in [0, 4, 14, 18] { zr += c[3 * (j + k)]; zi += c[3 * (j + k) + 1]; e += c[3 * (j + k) + 2] }
                guard e > 0 else { continue }
                let captured = (zr * zr + zi * zi) / e
                guard captured >= least else { continue }
                let window = energy[min(count, (a + 10 * hb40) / 40 + 1)] - energy[max(0, a / 40)]
                guard window > 0, captured / window >= 0.7 * tuning.coherentFit else { continue }
                best.append((a, captured / window))
            }
            best.sort { $0.fit > $1.fit }
            var chosen: [Int] = []
            for candidate in best where chosen.count < Demodulator.hiddenCandidates {
                if chosen.allSatisfy({ abs($0 - candidate.start) > hb40 }) { chosen.append(candidate.start) }
            }
            return chosen
        }
    }

    /// The frame of a hidden reply found at `start40` fortieths into `iq` (`samples` of them;
    /// `absolute40`: the same start counted from the source's first sample), its level from
    /// a fit of its decoded bits, counted in the statistics.
    mutating func hiddenFrame(_ result: ParityResult, iq: UnsafePointer<Float>, samples: Int, start40: Int, absolute40: Int64) -> DemodulatedFrame {
        let amplitude = Double(ReplyFit(iq, count: samples, start40: start40, frame: result.frame, slicer: coherentSlicer)?.amplitude ?? 0)
        return demodulatedFrame(result, start: UInt64(absolute40), perSample: 40, halfBit: UInt64(coherentSlicer.halfBit40),
                                power: amplitude * amplitude)
    }
}
