import Testing
@testable import ModeS

struct CRCTests {
    static let long = try! Frame(hex: "8D4840D6202CC371C32CE0576098")   // DF17, valid parity
    static let short = try! Frame(hex: "5D484FDEA248F5")                 // DF11

    @Test func byteTableMatchesBitwiseDivisionByTheGenerator() {
        // Long division bit by bit, independent of the table.
        for byte in 0..<256 {
            var crc = UInt32(byte) << 16
            for _ in 0..<8 { crc = crc & 0x800000 != 0 ? (crc << 1) ^ 0xFFF409 : crc << 1 }
            #expect(CRC24.table[byte] == crc & 0xFFFFFF)
        }
    }

    @Test func validExtendedSquitterHasZeroSyndrome() {
        #expect(CRC24.syndrome(of: Self.long) == 0)
    }

    @Test func addressParityReplyYieldsItsAddressAsSyndrome() throws {
        // DF4 from the published vectors: address 4CA7E8 overlaid on the parity.
        let frame = try Frame(hex: "2000171806A983")
        #expect(CRC24.syndrome(of: frame) == 0x4CA7E8)
    }

    @Test func parityComputedForDataBitsMakesTheSyndromeZero() {
        let data = Self.long.raw & ~(UInt128(0xFFFFFF) << 16)
        let parity = CRC24.parity(forDataOf: data, bitCount: 112)
        let rebuilt = Frame(raw: data | UInt128(parity) << 16, bitCount: 112)!
        #expect(rebuilt == Self.long)
    }

    @Test("a 1-bit error is corrected at every position after the DF", arguments: 6...112)
    func correctsOneBitErrorInLongFrame(position: Int) throws {
        let damaged = Self.long.flipping(bit: position)
        let result = try #require(ParityCheck.check(damaged))
        #expect(result.frame == Self.long)
        #expect(result.outcome == .corrected(bits: 1))
        #expect(result.address == 0x4840D6)
    }

    @Test("an error in the DF bits is never corrected", arguments: 1...5)
    func doesNotCorrectDownlinkFormatBits(position: Int) {
        let damaged = Self.long.flipping(bit: position)
        if let result = ParityCheck.check(damaged) {
            // Only an address/parity format can "pass", and then only as an unverified address.
            #expect(result.outcome == .parity)
        }
    }

    @Test func shortTableCorrectsEveryBitOfAllCallReplyOutsideTheInterrogatorCode() throws {
        let clean = try Frame(hex: "5D484FDEA24800").flippingParity()
        #expect(CRC24.syndrome(of: clean) == 0)
        for position in 6...49 {
            let result = try #require(ParityCheck.check(clean.flipping(bit: position)))
            #expect(result.frame == clean, "bit \(position)")
            #expect(result.correctedBits == 1)
        }
        // An error in the last 7 bits is indistinguishable from an interrogator code there:
        // the frame passes as received, with that code.
        for position in 50...56 {
            let result = try #require(ParityCheck.check(clean.flipping(bit: position)))
            #expect(result.outcome == .ok)
            #expect(result.interrogatorID == 1 << (56 - position))
        }
    }

    @Test func twoBitErrorsAreCorrectedOnlyForKnownAddresses() throws {
        var corrected = 0
        for first in stride(from: 6, through: 111, by: 5) {
            for second in stride(from: first + 1, through: 112, by: 7) {
                let damaged = Self.long.flipping(bit: first).flipping(bit: second)
                #expect(ParityCheck.check(damaged) == nil, "bits \(first),\(second) without a known address")
                let result = try #require(ParityCheck.check(damaged, known: Set<UInt32>([0x4840D6])))
                #expect(result.frame == Self.long)
                #expect(result.outcome == .corrected(bits: 2))
                corrected += 1
            }
        }
        #expect(corrected > 100)
    }

    @Test func twoBitCorrectionIsRefusedWhenTheCorrectedAddressIsNotTheKnownOne() {
        let damaged = Self.long.flipping(bit: 20).flipping(bit: 70)
        #expect(ParityCheck.check(damaged, known: Set<UInt32>([0x123456])) == nil)
    }

    @Test func allCallRepliesAreNeverCorrectedByTwoBits() throws {
        let clean = try Frame(hex: "5D484FDEA24800").flippingParity()
        let damaged = clean.flipping(bit: 12).flipping(bit: 30)
        #expect(ParityCheck.check(damaged, known: Set<UInt32>([0x484FDE])) == nil)
    }

    @Test func allCallReplyCarriesItsInterrogatorCode() throws {
        let result = try #require(ParityCheck.check(Self.short))
        #expect(result.outcome == .ok)
        #expect(result.address == 0x484FDE)
        #expect(result.interrogatorID == Int(CRC24.syndrome(of: Self.short)))
        #expect(result.interrogatorID! < 0x80)
    }

    @Test func syndromeTablesHaveNoAmbiguousEntries() {
        // 107 single + 107·106/2 double positions (bits 6…112); all distinct for Mode S CRC.
        #expect(SyndromeTable.long.count == 107 + 107 * 106 / 2)
        #expect(SyndromeTable.short.count == 51 + 51 * 50 / 2)
    }

    @Test func invertingABitChangesTheSyndromeByThatBitsSyndrome() {
        var random = SplitMix64(seed: 9)
        for frame in [Self.long, Self.short] {
            for _ in 0..<200 {
                let n = Int(random.next() % UInt64(frame.bitCount)) + 1
                let noisy = Frame(raw: frame.raw ^ (UInt128(random.next()) << 64 | UInt128(random.next())), bitCount: frame.bitCount)!
                #expect(CRC24.syndrome(of: noisy.flipping(bit: n)) == CRC24.syndrome(of: noisy) ^ CRC24.syndrome(ofBit: n, bitCount: frame.bitCount))
                #expect(CRC24.syndrome(ofBit: n, bitCount: frame.bitCount) != 0)
            }
            // And the check given that syndrome agrees with the check that computes it.
            let damaged = frame.flipping(bit: 20)
            let syndrome = CRC24.syndrome(of: frame) ^ CRC24.syndrome(ofBit: 20, bitCount: frame.bitCount)
            #expect(ParityCheck.check(damaged, syndrome: syndrome, known: NoKnownAddresses()) == ParityCheck.check(damaged))
        }
    }

    @Test func syndromeTablesFindEveryOneAndTwoBitErrorAndNothingElse() {
        for table in [SyndromeTable.long, SyndromeTable.short] {
            let zero = Frame(raw: 0, bitCount: table.frameBits)!
            var held = Set<UInt32>()
            for i in 6...table.frameBits {
                let one = CRC24.syndrome(of: zero.flipping(bit: i))
                #expect(table.fix(for: one) == SyndromeTable.Fix(first: UInt8(i), second: 0))
                held.insert(one)
                for j in (i + 1)..<(table.frameBits + 1) {
                    let two = CRC24.syndrome(of: zero.flipping(bit: i).flipping(bit: j))
                    #expect(table.fix(for: two) == SyndromeTable.Fix(first: UInt8(i), second: UInt8(j)))
                    held.insert(two)
                }
            }
            // Syndromes of no 1- or 2-bit error (0 included) find nothing.
            var random = SplitMix64(seed: 5)
            var misses = 0
            while misses < 2000 {
                let syndrome = UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF
                guard !held.contains(syndrome) else { continue }
                #expect(table.fix(for: syndrome) == nil)
                misses += 1
            }
            #expect(table.fix(for: 0) == nil)
        }
    }

    @Test func frameWithThreeErrorsIsRejectedOrNotMiscorrectedToTheOriginal() {
        let damaged = Self.long.flipping(bit: 10).flipping(bit: 50).flipping(bit: 90)
        #expect(ParityCheck.check(damaged)?.frame != Self.long)
    }
}

extension Frame {
    /// The same data bits with the parity recomputed so the syndrome is zero.
    func flippingParity() -> Frame {
        let data = raw & ~(UInt128(0xFFFFFF) << UInt128(128 - bitCount))
        return Frame(raw: data | UInt128(CRC24.parity(forDataOf: data, bitCount: bitCount)) << UInt128(128 - bitCount), bitCount: bitCount)!
    }
}
