import Foundation
import Testing
@testable import ModeS

/// `ErasureRepair`: the parity equations solved over GF(2) on chosen positions. It must undo
/// every error pattern of at most `t` bits confined to them, nothing else, and answer for
/// exactly as many syndromes as its false-accept bound counts.
struct ErasureRepairTests {
    /// A valid DF17 (pyModeS's airborne-position example).
    static let squitter = try! Frame(hex: "8D40621D58C382D690C8AC2863A7")

    @Test func everyPatternOfUpToThreeBitsAmongTwelvePositionsIsUndone() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            // Twelve distinct positions after the DF.
            var positions: [Int] = []
            while positions.count < 12 {
                let p = Int(rng.next() % 107) + 6
                if !positions.contains(p) { positions.append(p) }
            }
            let solver = ErasureRepair(positions: positions, bitCount: 112)
            let flips = Int(rng.next() % 3) + 1
            var damaged = Self.squitter
            var chosen = Set<Int>()
            while chosen.count < flips { chosen.insert(positions[Int(rng.next() % 12)]) }
            for p in chosen { damaged = damaged.flipping(bit: p) }
            guard solver.rank == 12 else { continue }
            let repair = solver.repair(syndrome: CRC24.syndrome(of: damaged), maximumFlips: 3)
            #expect(repair?.flips == flips)
            #expect(repair.map { Frame(raw: damaged.raw ^ $0.mask, bitCount: 112) } == Self.squitter)
        }
    }

    @Test func anErrorOutsideThePositionsIsNotRepairedIntoTheReply() {
        let positions = [20, 33, 47, 58, 71, 88, 90, 101]
        let solver = ErasureRepair(positions: positions, bitCount: 112)
        let damaged = Self.squitter.flipping(bit: 33).flipping(bit: 40)
        if let repair = solver.repair(syndrome: CRC24.syndrome(of: damaged), maximumFlips: 8) {
            #expect(Frame(raw: damaged.raw ^ repair.mask, bitCount: 112) != Self.squitter)
        }
        // One bit too many for the limit: refused, though it is solvable.
        let three = Self.squitter.flipping(bit: 20).flipping(bit: 47).flipping(bit: 101)
        #expect(solver.repair(syndrome: CRC24.syndrome(of: three), maximumFlips: 2) == nil)
        #expect(solver.repair(syndrome: CRC24.syndrome(of: three), maximumFlips: 3)?.flips == 3)
        // A clean frame needs nothing: no repair to take.
        #expect(solver.solve(syndrome: 0) == 0)
        #expect(solver.repair(syndrome: 0, maximumFlips: 3) == nil)
    }

    @Test func aPatternWhoseEventsCostMoreThanTheCeilingIsRefused() {
        let positions = [20, 33, 47, 58, 71, 88, 90, 101]
        let solver = ErasureRepair(positions: positions, bitCount: 112)
        // Bits 33 and 90 (events 1 and 6) wrong: costs 1.5 + 4.0 = 5.5.
        let damaged = Self.squitter.flipping(bit: 33).flipping(bit: 90)
        let syndrome = CRC24.syndrome(of: damaged)
        let costs: [Float] = [0.5, 1.5, 2, 2, 3, 3, 4, 4]
        let taken = solver.repair(syndrome: syndrome, maximumFlips: 3, costs: costs, ceiling: 5.5)
        #expect(taken.map { Frame(raw: damaged.raw ^ $0.mask, bitCount: 112) } == Self.squitter)
        #expect(solver.repair(syndrome: syndrome, maximumFlips: 3, costs: costs, ceiling: 5.4) == nil)
        // Without costs, or with no ceiling, the plain repair.
        #expect(solver.repair(syndrome: syndrome, maximumFlips: 3)?.mask == taken?.mask)
        #expect(solver.repair(syndrome: syndrome, maximumFlips: 3, costs: [], ceiling: 0)?.mask == taken?.mask)
    }

    /// The ceiling is where a pattern's likelihood, e^−ceiling, equals the bound.
    @Test func theLikelihoodCeilingIsMinusTheLogOfTheBound() {
        for (n, t, expected) in [(16, 4, Float(8.8)), (15, 3, 10.3), (12, 3, 10.9)] {
            let ceiling = ErasureRepair.likelihoodCeiling(erasures: n, maximumFlips: t)
            #expect(abs(ceiling - expected) < 0.05, "\(n), \(t): \(ceiling)")
            #expect(abs(exp(-Double(ceiling)) / ErasureRepair.falseAcceptBound(erasures: n, maximumFlips: t) - 1) < 1e-5)
        }
    }

    /// The bound is exact: of all 2²⁴ syndromes, the solver repairs with at most t bits exactly
    /// Σ_{k=1…t} C(n, k) when the positions are independent, so a random candidate passes with
    /// probability `falseAcceptBound`.
    @Test func theSyndromesRepairedAreExactlyThoseTheBoundCounts() {
        let solver = ErasureRepair(positions: [9, 17, 26, 30, 44, 52, 61, 69, 77, 85, 96, 110], bitCount: 112)
        #expect(solver.rank == 12)
        var repaired = 0
        for s in UInt32(1)..<(1 << 24) where solver.repair(syndrome: s, maximumFlips: 3) != nil { repaired += 1 }
        // 12 + 66 + 220.
        #expect(repaired == 298)
        #expect(ErasureRepair.falseAcceptBound(erasures: 12, maximumFlips: 3) == 298 / Double(1 << 24))
        #expect(ErasureRepair.falseAcceptBound(erasures: 5, maximumFlips: 5) == 31 / Double(1 << 24))
    }

    @Test func dependentPositionsAreDroppedSoEachSyndromeHasOneAnswer() {
        // Any 24 consecutive bits are independent (the CRC detects every burst of 24); a 25th
        // depends on them.
        let solver = ErasureRepair(positions: Array(60...84), bitCount: 112)
        #expect(solver.rank == 24)
        // Every syndrome is then solvable, by the first 24 positions alone.
        let damaged = Self.squitter.flipping(bit: 70).flipping(bit: 84)
        let mask = solver.solve(syndrome: CRC24.syndrome(of: damaged))
        #expect(mask != nil && mask! & (UInt128(1) << UInt128(128 - 84)) == 0)
        #expect(mask.map { CRC24.syndrome(of: Frame(raw: damaged.raw ^ $0, bitCount: 112)!) } == 0)
    }

    @Test func shortRepliesUseTheirOwnBitSyndromes() {
        let allCall = Frame.allCall(address: 0x4840D6)
        let damaged = allCall.flipping(bit: 12).flipping(bit: 30)
        let solver = ErasureRepair(positions: [30, 7, 12, 40], bitCount: 56)
        let repair = solver.repair(syndrome: CRC24.syndrome(of: damaged) ^ CRC24.syndrome(of: allCall), maximumFlips: 2)
        #expect(repair.map { Frame(raw: damaged.raw ^ $0.mask, bitCount: 56) } == allCall)
    }
}

/// Erasures that are runs of bits (error events): a solution is a set of events, counted as
/// events for the limit and reported in bits.
extension ErasureRepairTests {
    static let events: [ClosedRange<Int>] = [20...21, 33...33, 40...42, 47...47, 58...59, 71...74, 88...88, 95...96, 101...101,
                                             104...105, 12...12, 64...66]

    @Test("Every set of up to three of twelve independent events is undone, each to its own syndrome: the bound's 298 syndromes, counted in events, reported in bits")
    func everySetOfUpToThreeEventsIsUndone() {
        let solver = ErasureRepair(runs: Self.events, bitCount: 112)
        #expect(solver.rank == 12)
        var syndromes = Set<UInt32>()
        let n = Self.events.count
        for a in 0..<n {
            for b in a..<n {
                for c in b..<n {
                    let chosen = Set([a, b, c])
                    var damaged = Self.squitter
                    for i in chosen { for p in Self.events[i] { damaged = damaged.flipping(bit: p) } }
                    let syndrome = CRC24.syndrome(of: damaged)
                    syndromes.insert(syndrome)
                    let repair = solverRepair(solver, syndrome, chosen.count)
                    #expect(repair.map { Frame(raw: damaged.raw ^ $0.mask, bitCount: 112) } == Self.squitter)
                    #expect(repair?.flips == chosen.reduce(0) { $0 + Self.events[$1].count })
                    // One event fewer allowed: refused.
                    #expect(solver.repair(syndrome: syndrome, maximumFlips: chosen.count - 1) == nil)
                }
            }
        }
        #expect(syndromes.count == 298 && !syndromes.contains(0))
        #expect(ErasureRepair.falseAcceptBound(erasures: 12, maximumFlips: 3) == Double(syndromes.count) / Double(1 << 24))
    }

    private func solverRepair(_ solver: ErasureRepair, _ syndrome: UInt32, _ events: Int) -> (mask: UInt128, flips: Int)? {
        solver.repair(syndrome: syndrome, maximumFlips: events)
    }

    @Test("Positions are runs of one: both forms solve alike")
    func positionsAreRunsOfOne() {
        let positions = [9, 17, 26, 30, 44, 52, 61, 69, 77, 85, 96, 110]
        let a = ErasureRepair(positions: positions, bitCount: 112), b = ErasureRepair(runs: positions.map { $0...$0 }, bitCount: 112)
        let damaged = Self.squitter.flipping(bit: 26).flipping(bit: 85)
        let s = CRC24.syndrome(of: damaged)
        #expect(a.repair(syndrome: s, maximumFlips: 2)?.mask == b.repair(syndrome: s, maximumFlips: 2)?.mask)
        #expect(a.repair(syndrome: s, maximumFlips: 2)?.flips == 2)
    }

    @Test("A run that reaches outside the frame, or past the sixty-fourth event, is left out")
    func eventsOutsideTheFrameAreLeftOut() {
        #expect(ErasureRepair(runs: [0...2, 110...113, 30...31], bitCount: 112).rank == 1)
        let many = (1...70).map { $0...$0 }
        #expect(ErasureRepair(runs: many, bitCount: 112).rank == 24)
        // The 65th onwards are never used: bits 65…70 alone cannot be solved for.
        let late = ErasureRepair(runs: Array(repeating: 1...1, count: 64) + [65...65], bitCount: 112)
        #expect(late.rank == 1)
    }
}
