import Testing
@testable import ModeS

struct AltitudeTests {
    @Test func twentyFiveFootCodeWithQBit() throws {
        // DF4 of the published vectors: AC = 0x1806... 36000 ft.
        let frame = try Frame(hex: "2000171806A983")
        #expect(Altitude.fromAC13(UInt32(frame.bits(20, 32))) == 36000)
        // 12-bit ADS-B code: N·25 − 1000 with Q at the 8th bit; 0xC38 → 38000 ft.
        #expect(Altitude.fromAC12(0xC38) == 38000)
        // Lowest 25 ft code: N = 0 → −1000 ft (only Q set).
        #expect(Altitude.fromAC12(0b0000_0001_0000) == -1000)
    }

    @Test func zeroMeansNoAltitude() {
        #expect(Altitude.fromAC13(0) == nil)
        #expect(Altitude.fromAC12(0) == nil)
    }

    /// Encodes an altitude (−1200…126700 ft in 100 ft steps) as a Gillham code in AC13 order,
    /// straight from the definition (Gray code for 500 ft, reflected 1-2-3-4-5 for 100 ft).
    static func gillhamEncode(_ feet: Int) -> UInt32 {
        let steps = (feet + 1200) / 100
        let n500 = steps / 5
        var n100 = steps % 5 + 1            // 1…5
        if n500 % 2 == 1 { n100 = 6 - n100 }
        let gray500 = UInt32(n500 ^ (n500 >> 1))
        let gray100: UInt32 = [0, 0b001, 0b011, 0b010, 0b110, 0b100][n100]
        // gray500 bits (MSB first): D1 D2 D4 A1 A2 A4 B1 B2 B4; gray100: C1 C2 C4.
        func g(_ i: Int) -> UInt32 { (gray500 >> UInt32(8 - i)) & 1 }
        let d1 = g(0), d2 = g(1), d4 = g(2), a1 = g(3), a2 = g(4), a4 = g(5), b1 = g(6), b2 = g(7), b4 = g(8)
        let c1 = (gray100 >> 2) & 1, c2 = (gray100 >> 1) & 1, c4 = gray100 & 1
        // AC13: C1 A1 C2 A2 C4 A4 M B1 Q(D1) B2 D2 B4 D4
        let bits = [c1, a1, c2, a2, c4, a4, 0, b1, d1, b2, d2, b4, d4]
        return bits.reduce(0) { $0 << 1 | $1 }
    }

    @Test func gillhamCodesDecodeToTheirAltitudeAcrossTheWholeRange() {
        for feet in stride(from: -1200, through: 126_700, by: 100) {
            #expect(Altitude.fromAC13(Self.gillhamEncode(feet)) == feet, "\(feet) ft")
        }
    }

    @Test func invalidGillhamHundredsAreRejected() {
        // C bits all zero is not a valid 100 ft code.
        let code = Self.gillhamEncode(1000) & ~UInt32(0b1010100000000)
        #expect(Altitude.gillham(ac13: code) == nil)
    }

    @Test func squawkFromIdentityCode() throws {
        // Published vector: DF5 with identity 0356.
        let frame = try Frame(hex: "2A00516D492B80")
        #expect(Squawk.string(Squawk.fromID13(UInt32(frame.bits(20, 32)))) == "0356")
        // ID bits C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4: A1 A2 A4 (bits 2, 4, 6) alone → 7000;
        // C1 C2 C4 (bits 1, 3, 5) alone → 0070; D1 D2 D4 (bits 9, 11, 13) alone → 0007.
        #expect(Squawk.fromID13(0b0_1010_1000_0000) == 0o7000)
        #expect(Squawk.fromID13(0b1_0101_0000_0000) == 0o0070)
        #expect(Squawk.fromID13(0b0_0000_0001_0101) == 0o0007)
        #expect(Squawk.string(0o7700) == "7700")
        #expect(Emergency(squawk: 0o7700) == .general)
        #expect(Emergency(squawk: 0o7500) == .unlawful)
        #expect(Emergency(squawk: 0o1200) == nil)
    }
}
