import Testing
@testable import ModeS

@Suite("CPR pairing for the decode command")
struct CPRPairingTests {
    static let tolerance = 1e-5

    static func position(_ hex: String) throws -> CPRPosition {
        CPRPosition(messageField: try Frame(hex: hex).messageField)
    }

    static func expectNear(_ got: Coordinate?, _ latitude: Double, _ longitude: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try #require(got, sourceLocation: sourceLocation)
        #expect(abs(got.latitude - latitude) < tolerance, "lat \(got.latitude)", sourceLocation: sourceLocation)
        #expect(abs(got.longitude - longitude) < tolerance, "lon \(got.longitude)", sourceLocation: sourceLocation)
    }

    // Published frames (The 1090 MHz Riddle).
    static let even40621D = "8D40621D58C382D690C8AC2863A7"
    static let odd40621D = "8D40621D58C386435CC412692AD6"
    static let even40058B = "8D40058B58C901375147EFD09357"
    static let odd40058B = "8D40058B58C904A87F402D3B8C59"
    static let evenSurface = "8C4841753AAB238733C8CD4020B1"
    static let oddSurface = "8C4841753A8A35323FAEBDAC702D"

    @Test("odd then even two seconds later decodes globally to the even position")
    func airbornePair() throws {
        var pairing = CPRPairing()
        #expect(pairing.resolve(address: 0x40621D, position: try Self.position(Self.odd40621D),
                                surface: false, at: 100, reference: nil) == nil)
        let decoded = pairing.resolve(address: 0x40621D, position: try Self.position(Self.even40621D),
                                      surface: false, at: 102, reference: nil)
        try Self.expectNear(decoded, 52.257202, 3.919373)
        try Self.expectNear(pairing.lastPosition(of: 0x40621D), 52.257202, 3.919373)
    }

    @Test("either order of a pair gives the latest message's position")
    func pairOrder() throws {
        var evenFirst = CPRPairing()
        _ = evenFirst.resolve(address: 0x40058B, position: try Self.position(Self.even40058B), surface: false, at: 0, reference: nil)
        try Self.expectNear(evenFirst.resolve(address: 0x40058B, position: try Self.position(Self.odd40058B),
                                              surface: false, at: 1, reference: nil), 49.817551, 6.084422)
        var oddFirst = CPRPairing()
        _ = oddFirst.resolve(address: 0x40058B, position: try Self.position(Self.odd40058B), surface: false, at: 0, reference: nil)
        try Self.expectNear(oddFirst.resolve(address: 0x40058B, position: try Self.position(Self.even40058B),
                                             surface: false, at: 1, reference: nil), 49.824097, 6.06785)
    }

    @Test("halves more than 10 s apart are not paired; unknown times are paired")
    func airborneWindow() throws {
        var pairing = CPRPairing()
        _ = pairing.resolve(address: 0x40621D, position: try Self.position(Self.odd40621D), surface: false, at: 100, reference: nil)
        #expect(pairing.resolve(address: 0x40621D, position: try Self.position(Self.even40621D),
                                surface: false, at: 110.5, reference: nil) == nil)

        var untimed = CPRPairing()
        _ = untimed.resolve(address: 0x40621D, position: try Self.position(Self.odd40621D), surface: false, at: nil, reference: nil)
        try Self.expectNear(untimed.resolve(address: 0x40621D, position: try Self.position(Self.even40621D),
                                            surface: false, at: 500, reference: nil), 52.257202, 3.919373)
    }

    @Test("a single message decodes locally against the receiver reference")
    func receiverRelative() throws {
        var pairing = CPRPairing()
        let decoded = pairing.resolve(address: 0x40621D, position: try Self.position(Self.even40621D), surface: false,
                                      at: 0, reference: Coordinate(latitude: 52.258, longitude: 3.918))
        try Self.expectNear(decoded, 52.257202, 3.919373)
    }

    @Test("after a global fix, a lone message decodes against the aircraft's own last position")
    func aircraftRelative() throws {
        var pairing = CPRPairing()
        _ = pairing.resolve(address: 0x40058B, position: try Self.position(Self.odd40058B), surface: false, at: 0, reference: nil)
        _ = pairing.resolve(address: 0x40058B, position: try Self.position(Self.even40058B), surface: false, at: 1, reference: nil)
        // 30 s later the even half is too old to pair; the odd one still decodes locally.
        let decoded = pairing.resolve(address: 0x40058B, position: try Self.position(Self.odd40058B),
                                      surface: false, at: 31, reference: nil)
        try Self.expectNear(decoded, 49.817551, 6.084422)
    }

    @Test("an own position older than the limit is not used as a local reference")
    func staleOwnPosition() throws {
        var pairing = CPRPairing()
        _ = pairing.resolve(address: 0x40058B, position: try Self.position(Self.odd40058B), surface: false, at: 0, reference: nil)
        _ = pairing.resolve(address: 0x40058B, position: try Self.position(Self.even40058B), surface: false, at: 1, reference: nil)
        #expect(pairing.resolve(address: 0x40058B, position: try Self.position(Self.odd40058B),
                                surface: false, at: 1 + CPRPairing.lastPositionMaxAge + 1, reference: nil) == nil)
    }

    @Test("a surface pair decodes with the receiver reference, and not without any reference")
    func surfacePair() throws {
        var pairing = CPRPairing()
        let reference = Coordinate(latitude: 51.99, longitude: 4.375)
        _ = pairing.resolve(address: 0x484175, position: try Self.position(Self.evenSurface), surface: true, at: 0, reference: reference)
        try Self.expectNear(pairing.resolve(address: 0x484175, position: try Self.position(Self.oddSurface),
                                            surface: true, at: 30, reference: reference), 52.320607, 4.734735)

        var blind = CPRPairing()
        _ = blind.resolve(address: 0x484175, position: try Self.position(Self.evenSurface), surface: true, at: 0, reference: nil)
        #expect(blind.resolve(address: 0x484175, position: try Self.position(Self.oddSurface),
                              surface: true, at: 30, reference: nil) == nil)
    }

    @Test("surface halves pair within 50 s but not beyond")
    func surfaceWindow() throws {
        let reference = Coordinate(latitude: 51.99, longitude: 4.375)
        var pairing = CPRPairing()
        _ = pairing.resolve(address: 0x484175, position: try Self.position(Self.evenSurface), surface: true, at: 0, reference: nil)
        // Beyond the window: no pair, and no reference to decode locally.
        #expect(pairing.resolve(address: 0x484175, position: try Self.position(Self.oddSurface),
                                surface: true, at: 50.5, reference: nil) == nil)
        _ = pairing.resolve(address: 0x484175, position: try Self.position(Self.evenSurface), surface: true, at: 51, reference: nil)
        // The reference only steers the 90-degree ambiguity; both halves are 49 s apart.
        let decoded = pairing.resolve(address: 0x484175, position: try Self.position(Self.oddSurface),
                                      surface: true, at: 100, reference: reference)
        try Self.expectNear(decoded, 52.320607, 4.734735)
    }

    @Test("an airborne half never pairs with a surface half")
    func kindsDoNotMix() throws {
        var pairing = CPRPairing()
        let p = Coordinate(latitude: 40, longitude: -3)
        _ = pairing.resolve(address: 1, position: try #require(CPR.encode(p, format: .even, surface: true)),
                            surface: true, at: 0, reference: nil)
        #expect(pairing.resolve(address: 1, position: try #require(CPR.encode(p, format: .odd, surface: false)),
                                surface: false, at: 1, reference: nil) == nil)
    }

    @Test("a pair straddling an NL zone boundary is rejected and its older half dropped")
    func zoneMismatch() throws {
        let t = CPR.nlTransitions[20]
        let north = Coordinate(latitude: t + 0.002, longitude: 7)
        let south = Coordinate(latitude: t - 0.002, longitude: 7)
        var pairing = CPRPairing()
        _ = pairing.resolve(address: 7, position: try #require(CPR.encode(south, format: .even, surface: false)),
                            surface: false, at: 0, reference: nil)
        #expect(pairing.resolve(address: 7, position: try #require(CPR.encode(north, format: .odd, surface: false)),
                                surface: false, at: 1, reference: nil) == nil)
        // The even half was dropped: another odd message finds nothing to pair with.
        #expect(pairing.resolve(address: 7, position: try #require(CPR.encode(north, format: .odd, surface: false)),
                                surface: false, at: 2, reference: nil) == nil)
        // A fresh even half on the same side of the boundary pairs with the kept odd half.
        let decoded = pairing.resolve(address: 7, position: try #require(CPR.encode(north, format: .even, surface: false)),
                                      surface: false, at: 3, reference: nil)
        let fix = try #require(decoded)
        #expect(abs(fix.latitude - north.latitude) < 1e-4)
        #expect(abs(fix.longitude - north.longitude) < 1e-3)
    }

    @Test("addresses are kept apart")
    func addressesSeparate() throws {
        var pairing = CPRPairing()
        _ = pairing.resolve(address: 0x40621D, position: try Self.position(Self.odd40621D), surface: false, at: 0, reference: nil)
        #expect(pairing.resolve(address: 0x123456, position: try Self.position(Self.even40621D),
                                surface: false, at: 1, reference: nil) == nil)
    }

    @Test("memory is bounded: the least recently updated address is forgotten first")
    func eviction() throws {
        var pairing = CPRPairing(capacity: 3)
        let odd = try Self.position(Self.odd40621D)
        let even = try Self.position(Self.even40621D)
        for address: UInt32 in [1, 2, 3] {
            _ = pairing.resolve(address: address, position: odd, surface: false, at: 0, reference: nil)
        }
        // Touch 1 so that 2 is now the oldest, then add a fourth address.
        _ = pairing.resolve(address: 1, position: odd, surface: false, at: 0, reference: nil)
        _ = pairing.resolve(address: 4, position: odd, surface: false, at: 0, reference: nil)
        #expect(pairing.count == 3)
        #expect(pairing.resolve(address: 2, position: even, surface: false, at: 1, reference: nil) == nil)
        try Self.expectNear(pairing.resolve(address: 1, position: even, surface: false, at: 1, reference: nil),
                            52.257202, 3.919373)
    }

    @Test("many addresses never grow the table past its capacity")
    func boundedGrowth() throws {
        var pairing = CPRPairing(capacity: 100)
        let odd = try Self.position(Self.odd40621D)
        for address in UInt32(0)..<1_000 {
            _ = pairing.resolve(address: address, position: odd, surface: false, at: Double(address), reference: nil)
            #expect(pairing.count <= 100)
        }
    }

    @Test("non-finite times and references give nil rather than a trap")
    func hostileInputs() throws {
        var pairing = CPRPairing()
        let even = try Self.position(Self.even40621D)
        let odd = try Self.position(Self.odd40621D)
        _ = pairing.resolve(address: 9, position: odd, surface: false, at: .nan, reference: Coordinate(latitude: .nan, longitude: .nan))
        #expect(pairing.resolve(address: 9, position: even, surface: false, at: .infinity,
                                reference: Coordinate(latitude: .infinity, longitude: 0)) == nil)
        let wide = CPRPosition(format: .even, lat: .max, lon: .max)
        _ = pairing.resolve(address: 9, position: wide, surface: true, at: 0, reference: Coordinate(latitude: 0, longitude: 0))
    }
}
