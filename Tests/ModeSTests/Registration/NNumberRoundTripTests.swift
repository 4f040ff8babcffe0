import Testing
@testable import ModeS

/// An N-number → address encoder written from the FAA scheme (the inverse of FORMATS.md's
/// algorithm), to check the decoder across the whole US block.
@Suite("US N-number round trips")
struct NNumberRoundTripTests {
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")

    /// Rank of an optional two-letter suffix: "" 0, "A" 1, "AA" 2 … "AZ" 25, "B" 26 … "ZZ" 600.
    static func lettersRank(_ s: ArraySlice<Character>) -> Int? {
        guard s.count <= 2 else { return nil }
        guard let first = s.first else { return 0 }
        guard let i = alphabet.firstIndex(of: first) else { return nil }
        var rank = 1 + i * 25
        if s.count == 2 {
            guard let j = alphabet.firstIndex(of: s[s.startIndex + 1]) else { return nil }
            rank += j + 1
        }
        return rank
    }

    static func encode(_ registration: String) -> UInt32? {
        let c = Array(registration)
        guard c.count >= 2, c[0] == "N", let d1 = c[1].wholeNumberValue, d1 >= 1 else { return nil }
        var offset = (d1 - 1) * 101_711
        var rest = c[2...]
        for bucket in [10_111, 951, 35] {
            if let digit = rest.first?.wholeNumberValue {
                offset += 601 + digit * bucket
                rest = rest.dropFirst()
                continue
            }
            guard let rank = lettersRank(rest) else { return nil }
            return UInt32(0xA00001 + offset + rank)
        }
        // After four digits: nothing, one letter (1…24) or a fifth digit (25…34).
        if rest.isEmpty { return UInt32(0xA00001 + offset) }
        guard rest.count == 1, let last = rest.first else { return nil }
        if let digit = last.wholeNumberValue { return UInt32(0xA00001 + offset + 25 + digit) }
        guard let i = alphabet.firstIndex(of: last) else { return nil }
        return UInt32(0xA00001 + offset + 1 + i)
    }

    @Test("the encoder reproduces the FORMATS.md checks")
    func encoderChecks() {
        #expect(Self.encode("N1") == 0xA00001)
        #expect(Self.encode("N1A") == 0xA00002)
        #expect(Self.encode("N12345") == 0xA061D9)
        #expect(Self.encode("N99999") == 0xADF7C7)
    }

    @Test("every 1000th US address decodes to an N-number that encodes back to it")
    func everyThousandth() throws {
        var address: UInt32 = 0xA00001
        var checked = 0
        while address <= 0xADF7C7 {
            let registration = try #require(Registration.fromAddress(address))
            #expect(registration.count <= 6 && registration.first == "N")
            #expect(Self.encode(registration) == address, "\(String(address, radix: 16)) → \(registration)")
            address += 1000
            checked += 1
        }
        #expect(checked == 916)
    }

    @Test("every address near the bucket boundaries of the first N1 block round-trips")
    func denseStart() throws {
        for address in UInt32(0xA00001)...UInt32(0xA00001 + 12_000) {
            let registration = try #require(Registration.fromAddress(address))
            #expect(Self.encode(registration) == address, "\(String(address, radix: 16)) → \(registration)")
        }
    }
}
