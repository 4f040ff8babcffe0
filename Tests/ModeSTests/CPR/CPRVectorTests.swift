import Testing
@testable import ModeS

/// Published CPR vectors (The 1090 MHz Riddle, pyModeS test suite): real DF17 frames.
@Suite("CPR published vectors")
struct CPRVectorTests {
    static let tolerance = 1e-5

    static func position(_ hex: String) throws -> CPRPosition {
        let frame = try Frame(hex: hex)
        return CPRPosition(messageField: frame.messageField)
    }

    static func expectNear(_ got: Coordinate?, _ latitude: Double, _ longitude: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try #require(got, sourceLocation: sourceLocation)
        #expect((got.latitude - latitude).magnitude < tolerance, "lat \(got.latitude)", sourceLocation: sourceLocation)
        #expect((got.longitude - longitude).magnitude < tolerance, "lon \(got.longitude)", sourceLocation: sourceLocation)
    }

    struct FieldCase: Sendable, CustomTestStringConvertible {
        let hex: String, format: CPRFormat, lat: UInt32, lon: UInt32
        var testDescription: String { hex }
    }

    @Test("F, LAT-CPR and LON-CPR are read from ME bits 22, 23-39, 40-56", arguments: [
        FieldCase(hex: "8D40621D58C382D690C8AC2863A7", format: .even, lat: 93000, lon: 51372),
        FieldCase(hex: "8D40621D58C386435CC412692AD6", format: .odd, lat: 74158, lon: 50194),
        FieldCase(hex: "8D40058B58C901375147EFD09357", format: .even, lat: 39848, lon: 83951),
        FieldCase(hex: "8D40058B58C904A87F402D3B8C59", format: .odd, lat: 21567, lon: 81965),
        FieldCase(hex: "8D06A15358BF17FF7D4A84B47B95", format: .odd, lat: 131006, lon: 84612),
        FieldCase(hex: "8C4841753A9A153237AEF0F275BE", format: .odd, lat: 39195, lon: 110320),
    ])
    func fields(_ c: FieldCase) throws {
        #expect(try Self.position(c.hex) == CPRPosition(format: c.format, lat: c.lat, lon: c.lon))
    }

    struct LocalCase: Sendable, CustomTestStringConvertible {
        let hex: String, refLat: Double, refLon: Double, lat: Double, lon: Double
        var testDescription: String { hex }
    }

    @Test("local airborne decoding reproduces the published positions", arguments: [
        LocalCase(hex: "8D40621D58C382D690C8AC2863A7", refLat: 52.258, refLon: 3.918, lat: 52.257202, lon: 3.919373),
        LocalCase(hex: "8D40058B58C901375147EFD09357", refLat: 49.0, refLon: 6.0, lat: 49.824097, lon: 6.06785),
        LocalCase(hex: "8D40058B58C904A87F402D3B8C59", refLat: 49.0, refLon: 6.0, lat: 49.817551, lon: 6.084422),
        // The reference sits exactly on an odd latitude zone boundary (5 · 360/59).
        LocalCase(hex: "8D06A15358BF17FF7D4A84B47B95", refLat: 30.508474576271183, refLon: 36.0,
                  lat: 30.505402, lon: 33.447876),
    ])
    func localAirborne(_ c: LocalCase) throws {
        let decoded = CPR.localAirborne(try Self.position(c.hex), reference: Coordinate(latitude: c.refLat, longitude: c.refLon))
        try Self.expectNear(decoded, c.lat, c.lon)
    }

    @Test("local surface decoding uses 90 degree zones")
    func localSurface() throws {
        let decoded = CPR.localSurface(try Self.position("8C4841753A9A153237AEF0F275BE"),
                                       reference: Coordinate(latitude: 51.99, longitude: 4.375))
        try Self.expectNear(decoded, 52.320561, 4.735735)
    }

    @Test("global airborne decoding gives the latest message's position")
    func globalAirborne() throws {
        let even1 = try Self.position("8D40621D58C382D690C8AC2863A7")
        let odd1 = try Self.position("8D40621D58C386435CC412692AD6")
        try Self.expectNear(CPR.globalAirborne(even: even1, odd: odd1, latest: .even), 52.257202, 3.919373)

        let even2 = try Self.position("8D40058B58C901375147EFD09357")
        let odd2 = try Self.position("8D40058B58C904A87F402D3B8C59")
        try Self.expectNear(CPR.globalAirborne(even: even2, odd: odd2, latest: .odd), 49.817551, 6.084422)
        try Self.expectNear(CPR.globalAirborne(even: even2, odd: odd2, latest: .even), 49.824097, 6.06785)
    }

    @Test("global surface decoding picks the solution nearest the reference")
    func globalSurface() throws {
        let even = try Self.position("8C4841753AAB238733C8CD4020B1")
        let odd = try Self.position("8C4841753A8A35323FAEBDAC702D")
        let decoded = CPR.globalSurface(even: even, odd: odd, latest: .odd,
                                        reference: Coordinate(latitude: 51.99, longitude: 4.375))
        try Self.expectNear(decoded, 52.320607, 4.734735)
    }

    @Test("global surface decoding picks the longitude quadrant nearest the reference")
    func globalSurfaceOtherQuadrant() throws {
        let even = try Self.position("8C4841753AAB238733C8CD4020B1")
        let odd = try Self.position("8C4841753A8A35323FAEBDAC702D")
        // Surface longitudes repeat every 90 degrees.
        let decoded = CPR.globalSurface(even: even, odd: odd, latest: .odd,
                                        reference: Coordinate(latitude: 50, longitude: -85))
        try Self.expectNear(decoded, 52.320607, 4.734735 - 90)
    }

    @Test("global decoding rejects arguments in the wrong format slots")
    func wrongSlots() throws {
        let even = try Self.position("8D40621D58C382D690C8AC2863A7")
        let odd = try Self.position("8D40621D58C386435CC412692AD6")
        #expect(CPR.globalAirborne(even: odd, odd: even, latest: .even) == nil)
    }

    @Test("local decoding rejects a non-finite reference instead of trapping")
    func nonFiniteReference() throws {
        let position = try Self.position("8D40621D58C382D690C8AC2863A7")
        #expect(CPR.localAirborne(position, reference: Coordinate(latitude: .nan, longitude: 0)) == nil)
        #expect(CPR.localSurface(position, reference: Coordinate(latitude: 0, longitude: .infinity)) == nil)
        #expect(CPR.globalSurface(even: position, odd: position, latest: .even,
                                  reference: Coordinate(latitude: .nan, longitude: 0)) == nil)
    }
}
