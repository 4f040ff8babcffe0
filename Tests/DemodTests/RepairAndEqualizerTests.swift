import Testing
@testable import Demod
import ModeS

/// Candidate repair and the equalisers, on hand-made half-bit energies.
struct RepairAndEqualizerTests {
    static let squitter = try! Frame(hex: "8D4840D6202CC371C32CE0576098")

    /// Energies for one phase laid out flat: half bit h of the reply at index h (the preamble's
    /// 16 half bits, then two per data bit), with `places` mapping to them.
    struct Layout {
        var energies: [Int16]
        let preamble: [Int] = SliceKernels.preambleHalfBits
        let bits: [Int] = (0..<224).map { 16 + $0 }

        init(frame: Frame, pulse: Int16, spill: Int16 = 0, noise: Int16 = 0) {
            self.init(frame: frame, pulse: pulse, forward: spill, backward: spill, noise: noise)
        }

        /// `forward`: spilled into the half bit after a pulse; `backward`: into the one before.
        init(frame: Frame, pulse: Int16, forward: Int16, backward: Int16, noise: Int16 = 0) {
            var on = [Bool](repeating: false, count: 16 + 224)
            for h in [0, 2, 7, 9] { on[h] = true }
            for k in 0..<frame.bitCount { on[16 + 2 * k + (frame.bit(k + 1) ? 0 : 1)] = true }
            // Linear superposition, as through a filter: each half bit holds its own pulse and
            // what its neighbours that hold one spill into it.
            energies = (0..<on.count).map { h in
                let fromBefore: Int16 = h > 0 && on[h - 1] ? forward : 0
                let fromAfter: Int16 = h + 1 < on.count && on[h + 1] ? backward : 0
                return (on[h] ? pulse : 0) + fromBefore + fromAfter + noise
            }
        }
    }

    @Test func weakestBitsAreTheFiveSmallestMarginsInOrder() {
        var layout = Layout(frame: Self.squitter, pulse: 1000)
        // Weaken bits 40, 7, 90, 66, 12 (0-based k; frame bits k + 1) by different amounts.
        for (k, margin) in [(40, 10), (7, 20), (90, 30), (66, 40), (12, 50), (100, 60)] {
            let first = 16 + 2 * k
            let one = Self.squitter.bit(k + 1)
            layout.energies[first] = one ? Int16(500 + margin) : 500
            layout.energies[first + 1] = one ? 500 : Int16(500 + margin)
        }
        let d = Demodulator(sampleRate: .rate2_4)
        let w = layout.energies.withUnsafeBufferPointer { e in
            layout.bits.withUnsafeBufferPointer { o in Demodulator.weakestBits(e.baseAddress!, bits: o.baseAddress!, count: 112, decision: PlainDecision()) }
        }
        #expect([w[0], w[1], w[2], w[3], w[4]] == [41, 8, 91, 67, 13])
        #expect(w.count(upTo: 3) == 3 && w.count(upTo: 9) == 5)
    }

    @Test("Fewer weakest bits asked for are the first of the five, ties to the earlier bit included; the repairs ask one for an address/parity reply, three for the other formats, five for an extended squitter")
    func fewerWeakestBitsAreTheFirstOfTheFive() {
        // Seeded: a failure names a round that fails again.
        var generator = SplitMix64(seed: 17)
        for round in 0..<200 {
            var layout = Layout(frame: Self.squitter, pulse: 1000)
            // Random margins, some equal (every other round from a handful of values).
            for k in 0..<112 {
                let margin = Int16(round % 2 == 0 ? Int.random(in: 0...900, using: &generator) : 10 * Int.random(in: 1...4, using: &generator))
                let one = Self.squitter.bit(k + 1)
                layout.energies[16 + 2 * k] = one ? 500 + margin : 500
                layout.energies[17 + 2 * k] = one ? 500 : 500 + margin
            }
            let all = layout.energies.withUnsafeBufferPointer { e in
                layout.bits.withUnsafeBufferPointer { o in
                    [1, 3, 5].map { Demodulator.weakestBits(e.baseAddress!, bits: o.baseAddress!, count: 112, decision: PlainDecision(), slots: $0) }
                }
            }
            let five = all[2]
            #expect(all[0][0] == five[0] && all[0].count(upTo: 5) == 1, "round \(round)")
            #expect((0..<3).map { all[1][$0] } == (0..<3).map { five[$0] } && all[1].count(upTo: 5) == 3, "round \(round)")
        }
        let repairBits = Demodulator.Tuning().unknownRepairBits
        #expect(Demodulator.weakSlots(for: try! Frame(hex: "20001838CA3804"), unknownRepairBits: repairBits) == 1)
        #expect(Demodulator.weakSlots(for: try! Frame(hex: "5D4840D6E4A4B1"), unknownRepairBits: repairBits) == 3)
        #expect(Demodulator.weakSlots(for: Self.squitter, unknownRepairBits: repairBits) == 5)
        #expect(Demodulator.weakSlots(for: Self.squitter, unknownRepairBits: 3) == 3)
    }

    @Test func anUnknownSquitterIsRepairedOnlyAtItsWeakestBits() {
        var d = Demodulator(sampleRate: .rate2_4)
        let damaged = Self.squitter.flipping(bit: 41).flipping(bit: 91)
        let weakest = Demodulator.WeakestBits(bits: (8, 41, 13, 91, 67))
        let repaired = d.repairUnknownSquitter(damaged, syndrome: CRC24.syndrome(of: damaged), weakest: weakest)
        #expect(repaired?.frame == Self.squitter)
        #expect(repaired?.correctedBits == 2 && repaired?.address == 0x4840D6)
        // The same damage where the margins were not smallest: not believed.
        #expect(d.repairUnknownSquitter(damaged, syndrome: CRC24.syndrome(of: damaged), weakest: Demodulator.WeakestBits(bits: (8, 41, 13, 67, 70))) == nil)
        // Bit 91 is the fourth weakest: with only three tried it is out of reach; none with 0.
        d.tuning.unknownRepairBits = 3
        #expect(d.repairUnknownSquitter(damaged, syndrome: CRC24.syndrome(of: damaged), weakest: weakest) == nil)
        d.tuning.unknownRepairBits = 0
        #expect(d.repairUnknownSquitter(damaged.flipping(bit: 91), syndrome: CRC24.syndrome(of: damaged.flipping(bit: 91)), weakest: weakest) == nil)
        // Never for other formats.
        d.tuning.unknownRepairBits = 5
        let allCall = Frame.allCall(address: 0x4840D6).flipping(bit: 20)
        #expect(d.repairUnknownSquitter(allCall, syndrome: CRC24.syndrome(of: allCall), weakest: Demodulator.WeakestBits(bits: (20, 0, 0, 0, 0))) == nil)
    }

    /// On noise, a candidate with n weak bits tried passes with probability (2^n − 1)/2^24:
    /// of 200 000 random DF17 words none should pass (expected 0.37 for n = 5).
    @Test func randomWordsAlmostNeverPass() {
        let d = Demodulator(sampleRate: .rate2_4)
        var rng = SplitMix64(seed: 99)
        var passed = 0
        for _ in 0..<200_000 {
            let raw = UInt128(17) << 123 | UInt128(rng.next() & (1 << 59 - 1)) << 64 | UInt128(rng.next() & ~0xFFFF)
            let weakest = Demodulator.WeakestBits(bits: (Int(rng.next() % 107) + 6, Int(rng.next() % 107) + 6, Int(rng.next() % 107) + 6,
                                                          Int(rng.next() % 107) + 6, Int(rng.next() % 107) + 6))
            let word = Frame(raw: raw, bitCount: 112)!
            if d.repairUnknownSquitter(word, syndrome: CRC24.syndrome(of: word), weakest: weakest) != nil { passed += 1 }
        }
        #expect(passed <= 2)
    }

    @Test func theSpillIsMeasuredOnThePreamble() {
        let layout = Layout(frame: Self.squitter, pulse: 800, spill: 120, noise: 30)
        let spill = layout.energies.withUnsafeBufferPointer { e in
            layout.preamble.withUnsafeBufferPointer { o in DirectedDecision.symmetricSpill(e.baseAddress!, o.baseAddress!) }
        }
        #expect(spill == 120)
        let clean = Layout(frame: Self.squitter, pulse: 800, noise: 30)
        let none = clean.energies.withUnsafeBufferPointer { e in
            clean.preamble.withUnsafeBufferPointer { o in DirectedDecision.symmetricSpill(e.baseAddress!, o.baseAddress!) }
        }
        #expect(none == 0)
    }

    /// With a heavy spill, a bit between two 1s (or after a 0 and before a 1…) has a margin
    /// of pulse − 2·spill, others up to pulse: the directed decision gives every bit the same
    /// margin, pulse − spill.
    @Test func theDirectedDecisionRemovesTheNeighboursSpill() {
        let layout = Layout(frame: Self.squitter, pulse: 800, spill: 300)
        let decision = DirectedDecision(spills: (300, 300), tentative: Self.squitter)
        layout.energies.withUnsafeBufferPointer { e in
            layout.bits.withUnsafeBufferPointer { o in
                var plain = Set<Int32>(), directed = Set<Int32>()
                for k in 0..<112 {
                    plain.insert(abs(PlainDecision().margin(e.baseAddress!, o.baseAddress!, k)))
                    directed.insert(abs(decision.margin(e.baseAddress!, o.baseAddress!, k)))
                }
                #expect(plain.count > 1)
                #expect(plain.min()! <= 800 - 2 * 300)
                #expect(directed == Set<Int32>([800 - 300]))
            }
        }
    }

    /// With different spills either way (a sampling instant off the pulse centres), the
    /// separate estimate finds both, and the directed decision with them gives every bit the
    /// margin pulse − (forward + backward)/2.
    @Test func separateSpillsAreMeasuredAndRemoved() {
        let layout = Layout(frame: Self.squitter, pulse: 800, forward: 240, backward: 80, noise: 20)
        layout.energies.withUnsafeBufferPointer { e in
            let spills = layout.preamble.withUnsafeBufferPointer { o in DirectedDecision.spills(e.baseAddress!, o.baseAddress!) }
            #expect(spills == (240, 80))
            let decision = DirectedDecision(spills: spills, tentative: Self.squitter)
            layout.bits.withUnsafeBufferPointer { o in
                var directed = Set<Int32>()
                for k in 0..<112 { directed.insert(abs(decision.margin(e.baseAddress!, o.baseAddress!, k))) }
                #expect(directed == Set<Int32>([800 - (240 + 80) / 2]))
            }
        }
    }
}
