import Testing
@testable import ModeS

@Suite("Comm-B inference")
struct CommBInferenceTests {
    static let vectors = [
        "A0000638FA81C10000000081A92F", "A000083E202CC371C31DE0AA1CCF",
        "A0001993202422F2E37CE038738E", "A0001838201584F23468207CDFA5",
        "A8001EBCAEE57730A80106DE1344", "A000029C85E42F313000007047D3",
        "A80006ACF9363D3BBF9CE98F1E1D", "A000139381951536E024D4CCF6B5",
        "A80004AAA74A072BFDEFC1D5CB4F", "A00004128F39F91A7E27C46ADC21",
        "A800178D10010080F50000D5893C",
    ]

    @Test("An all-zero MB has no candidates and infers nothing")
    func allZero() {
        #expect(CommB.candidates(MessageField(0)).isEmpty)
        #expect(CommB.infer(MessageField(0)) == nil)
    }

    @Test("A lone TAS-or-inertial-rate field is a genuine tie between 5,0 and 6,0: nil")
    func tieReturnsNil() {
        // Bit 46 with 100 in bits 47–56 reads as 5,0 TAS 200 kt or as 6,0 inertial vertical
        // velocity +3200 ft/min; both readings carry the same 11 bits and nothing else.
        let mb = MBFieldBuilder().setting(46).setting(47, 56, to: 100).field
        let c = CommB.candidates(mb)
        #expect(c.count == 2)
        #expect(Set(c.map(\.register.bds)) == [BDS(5, 0), BDS(6, 0)])
        #expect(c[0].score == c[1].score)
        #expect(CommB.infer(mb) == nil)
    }

    @Test("candidates are sorted best first and infer returns the first unless the best two tie",
          arguments: vectors)
    func inferAgreesWithCandidates(hex: String) throws {
        let mb = try mbField(hex)
        let c = CommB.candidates(mb)
        #expect(zip(c, c.dropFirst()).allSatisfy { $0.score >= $1.score })
        let expected: CommBRegister? = c.isEmpty || (c.count > 1 && c[0].score == c[1].score) ? nil : c[0].register
        #expect(CommB.infer(mb) == expected)
        #expect(expected != nil)
    }

    @Test("Identified registers (1,0 1,7 2,0 3,0) outscore any status-bit register")
    func identifiedOutscore() throws {
        for hex in ["A0000638FA81C10000000081A92F", "A000083E202CC371C31DE0AA1CCF", "A800178D10010080F50000D5893C"] {
            let c = CommB.candidates(try mbField(hex))
            #expect(c.first?.score == 56 + CommB.identifierBonus)
            if c.count > 1 { #expect(c[1].score < c[0].score) }
        }
    }

    /// A random 56-bit MB almost never looks like a register: a status-bit register needs
    /// every field whose status bit is clear to be all zero (so in practice all of its 5–8
    /// status bits set) and then plausible values in every field; an identified register
    /// needs an exact 8-bit code (1/256) plus its reserved bits and character/threat checks.
    /// Well under 1 % of random MBs may infer to anything.
    @Test("Random MB values rarely infer to a register")
    func randomValues() {
        var rng = SplitMix64(seed: 0x5EED_C0FF_EE00_0001)
        let trials = 20_000
        var inferred = 0
        for _ in 0..<trials {
            let mb = MessageField(rng.next())
            if CommB.infer(mb) != nil { inferred += 1 }
        }
        #expect(inferred * 200 < trials)   // < 0.5 %
    }

    @Test("Random MB values: infer is never a register the validator rejects")
    func randomValuesValidated() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<5_000 {
            // Bias towards structure: clear a random number of low bits so sparse MBs occur.
            let mb = MessageField(rng.next() >> UInt64(rng.next() % 48))
            guard let register = CommB.infer(mb) else { continue }
            let valid: Bool = switch register {
            case .dataLinkCapability: BDS10.isValid(mb)
            case .capabilities: BDS17.isValid(mb)
            case .identification: BDS20.isValid(mb)
            case .resolutionAdvisory: BDS30.isValid(mb)
            case .selectedVerticalIntention: BDS40.isValid(mb)
            case .meteorologicalRoutine: BDS44.isValid(mb)
            case .meteorologicalHazard: BDS45.isValid(mb)
            case .trackAndTurn: BDS50.isValid(mb)
            case .headingAndSpeed: BDS60.isValid(mb)
            }
            #expect(valid)
        }
    }

    @Test("Every register case reports its BDS number")
    func bdsNumbers() throws {
        let pairs: [(String, BDS)] = [
            ("A800178D10010080F50000D5893C", BDS(1, 0)), ("A0000638FA81C10000000081A92F", BDS(1, 7)),
            ("A000083E202CC371C31DE0AA1CCF", BDS(2, 0)), ("A8001EBCAEE57730A80106DE1344", BDS(4, 0)),
            ("A80006ACF9363D3BBF9CE98F1E1D", BDS(5, 0)), ("A80004AAA74A072BFDEFC1D5CB4F", BDS(6, 0)),
        ]
        for (hex, bds) in pairs {
            #expect(try #require(CommB.infer(try mbField(hex))).bds == bds)
        }
        #expect(CommBRegister.meteorologicalRoutine(BDS44(MessageField(0))).bds.description == "4,4")
        #expect(CommBRegister.meteorologicalHazard(BDS45(MessageField(0))).bds.description == "4,5")
        #expect(CommBRegister.resolutionAdvisory(BDS30(MessageField(0))).bds.description == "3,0")
    }
}
