import Testing
@testable import Feeds
@testable import ModeS

/// Positions in `flytracker decode`: pairing, local decoding and the checks, through the
/// session's aircraft table (the same engine as `run`).
@Suite("Positions of the decode command")
struct DecodePositionTests {
    static let tolerance = 1e-5

    static func expectNear(_ got: FieldSet?, _ latitude: Double, _ longitude: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try #require(got, sourceLocation: sourceLocation)
        let lat = try #require(got.lat, "no position", sourceLocation: sourceLocation)
        let lon = try #require(got.lon, sourceLocation: sourceLocation)
        #expect(abs(lat - latitude) < tolerance, "lat \(lat)", sourceLocation: sourceLocation)
        #expect(abs(lon - longitude) < tolerance, "lon \(lon)", sourceLocation: sourceLocation)
    }

    // Published frames (The 1090 MHz Riddle).
    static let even40621D: Substring = "8D40621D58C382D690C8AC2863A7"
    static let odd40621D: Substring = "8D40621D58C386435CC412692AD6"
    static let even40058B: Substring = "8D40058B58C901375147EFD09357"
    static let odd40058B: Substring = "8D40058B58C904A87F402D3B8C59"
    static let evenSurface: Substring = "8C4841753AAB238733C8CD4020B1"
    static let oddSurface: Substring = "8C4841753A8A35323FAEBDAC702D"

    /// A DF17 airborne (or surface) position of `address` at `position`.
    static func frame(_ address: UInt32, _ position: Coordinate, _ format: CPRFormat, surface: Bool = false) throws -> ReceivedFrame {
        let me = surface
            ? MessageField.surfacePosition(groundSpeed: 10, track: 90, position: position, format: format)
            : MessageField.airbornePosition(altitude: 30_000, position: position, format: format)
        return ReceivedFrame(frame: Frame.extendedSquitter(address: address, me: try #require(me)))
    }

    @Test("odd then even two seconds later decodes globally to the even position")
    func airbornePair() throws {
        var session = DecodeSession()
        #expect(try session.decode(line: Self.odd40621D, time: 100)?.lat == nil)
        try Self.expectNear(try session.decode(line: Self.even40621D, time: 102), 52.257202, 3.919373)
    }

    @Test("either order of a pair gives the latest message's position")
    func pairOrder() throws {
        var evenFirst = DecodeSession()
        _ = try evenFirst.decode(line: Self.even40058B, time: 0)
        try Self.expectNear(try evenFirst.decode(line: Self.odd40058B, time: 1), 49.817551, 6.084422)
        var oddFirst = DecodeSession()
        _ = try oddFirst.decode(line: Self.odd40058B, time: 0)
        try Self.expectNear(try oddFirst.decode(line: Self.even40058B, time: 1), 49.824097, 6.06785)
    }

    @Test("halves more than 10 s apart are not paired; frames without times pair (no time passes between them)")
    func airborneWindow() throws {
        var session = DecodeSession()
        _ = try session.decode(line: Self.odd40621D, time: 100)
        #expect(try session.decode(line: Self.even40621D, time: 110.5)?.lat == nil)

        var untimed = DecodeSession()
        _ = try untimed.decode(line: Self.odd40621D)
        try Self.expectNear(try untimed.decode(line: Self.even40621D), 52.257202, 3.919373)
    }

    @Test("a single message decodes locally against the reference")
    func receiverRelative() throws {
        var session = DecodeSession(reference: Coordinate(latitude: 52.258, longitude: 3.918))
        try Self.expectNear(try session.decode(line: Self.even40621D, time: 0), 52.257202, 3.919373)
    }

    @Test("with run's 300 NM range a lone airborne message has no unambiguous reference but the aircraft's own position")
    func receiverRelativeNeedsTheUnambiguousRange() throws {
        var session = DecodeSession(reference: Coordinate(latitude: 52.258, longitude: 3.918), maxRange: 300)
        #expect(try session.decode(line: Self.even40621D, time: 0)?.lat == nil)
    }

    @Test("after a global fix, a lone message decodes against the aircraft's own last position")
    func aircraftRelative() throws {
        var session = DecodeSession()
        _ = try session.decode(line: Self.odd40058B, time: 0)
        _ = try session.decode(line: Self.even40058B, time: 1)
        // 30 s later the even half is too old to pair; the odd one still decodes locally.
        try Self.expectNear(try session.decode(line: Self.odd40058B, time: 31), 49.817551, 6.084422)
    }

    @Test("an own position older than the limit (300 s) is not used as a local reference")
    func staleOwnPosition() throws {
        var session = DecodeSession()
        _ = try session.decode(line: Self.odd40058B, time: 0)
        _ = try session.decode(line: Self.even40058B, time: 1)
        #expect(try session.decode(line: Self.odd40058B, time: 302)?.lat == nil)
    }

    @Test("a surface pair decodes with the reference, and not without any reference")
    func surfacePair() throws {
        var session = DecodeSession(reference: Coordinate(latitude: 51.99, longitude: 4.375))
        _ = try session.decode(line: Self.evenSurface, time: 0)
        try Self.expectNear(try session.decode(line: Self.oddSurface, time: 30), 52.320607, 4.734735)

        var blind = DecodeSession()
        _ = try blind.decode(line: Self.evenSurface, time: 0)
        #expect(try blind.decode(line: Self.oddSurface, time: 30)?.lat == nil)
    }

    @Test("surface halves pair within 50 s but not beyond")
    func surfaceWindow() throws {
        var session = DecodeSession()
        _ = try session.decode(line: Self.evenSurface, time: 0)
        // Beyond the window: no pair, and no reference to decode locally.
        #expect(try session.decode(line: Self.oddSurface, time: 50.5)?.lat == nil)
        _ = try session.decode(line: Self.evenSurface, time: 51)
        // The reference only steers the 90-degree ambiguity; both halves are 49 s apart.
        session.reference = Coordinate(latitude: 51.99, longitude: 4.375)
        try Self.expectNear(try session.decode(line: Self.oddSurface, time: 100), 52.320607, 4.734735)
    }

    @Test("an airborne half never pairs with a surface half")
    func kindsDoNotMix() throws {
        var session = DecodeSession()
        let p = Coordinate(latitude: 40, longitude: -3)
        _ = try session.decode(try Self.frame(1, p, .even, surface: true), time: 0)
        #expect(try session.decode(try Self.frame(1, p, .odd), time: 1).lat == nil)
    }

    @Test("a pair straddling an NL zone boundary gives no position and is dropped; fresh halves pair again")
    func zoneMismatch() throws {
        let t = CPR.nlTransitions[20]
        let north = Coordinate(latitude: t + 0.002, longitude: 7)
        let south = Coordinate(latitude: t - 0.002, longitude: 7)
        var session = DecodeSession()
        _ = try session.decode(try Self.frame(7, south, .even), time: 0)
        #expect(try session.decode(try Self.frame(7, north, .odd), time: 1).lat == nil)
        // The even half was dropped: another odd message finds nothing to pair with.
        #expect(try session.decode(try Self.frame(7, north, .odd), time: 2).lat == nil)
        // A fresh even half on the same side of the boundary pairs with the last odd half.
        let fix = try session.decode(try Self.frame(7, north, .even), time: 3)
        #expect(abs(try #require(fix.lat) - north.latitude) < 1e-4)
        #expect(abs(try #require(fix.lon) - north.longitude) < 1e-3)
    }

    @Test("addresses are kept apart")
    func addressesSeparate() throws {
        var session = DecodeSession()
        _ = try session.decode(line: Self.odd40621D, time: 0)
        let other = try session.decode(try Self.frame(0x123456, Coordinate(latitude: 52.26, longitude: 3.92), .even), time: 1)
        #expect(other.lat == nil)
    }

    @Test("a pair that puts the aircraft farther than it can fly since its last position is rejected, as in run")
    func implausibleJumpsAreRejected() throws {
        var session = DecodeSession()
        let here = Coordinate(latitude: 50, longitude: 5)
        let far = Coordinate(latitude: 51, longitude: 5)   // 60 NM north, 4 s later
        _ = try session.decode(try Self.frame(9, here, .odd), time: 0)
        #expect(try session.decode(try Self.frame(9, here, .even), time: 2).lat != nil)
        _ = try session.decode(try Self.frame(9, far, .odd), time: 4)
        #expect(try session.decode(try Self.frame(9, far, .even), time: 6).lat == nil, "60 NM in 6 s")
        // Without times no speed check is made (0.6 NM with no time passed is taken); a pair
        // must instead agree with the local decoding around the last position.
        var untimed = DecodeSession()
        _ = try untimed.decode(try Self.frame(9, here, .odd), time: nil)
        #expect(try untimed.decode(try Self.frame(9, here, .even), time: nil).lat != nil)
        _ = try untimed.decode(try Self.frame(9, Coordinate(latitude: 50.01, longitude: 5), .odd), time: nil)
        #expect(try untimed.decode(try Self.frame(9, Coordinate(latitude: 50.01, longitude: 5), .even), time: nil).lat != nil)
    }

    @Test("a position farther than the range from the reference is rejected")
    func outOfRange() throws {
        var session = DecodeSession(reference: Coordinate(latitude: 40, longitude: -74))
        _ = try session.decode(line: Self.odd40058B, time: 0)
        #expect(try session.decode(line: Self.even40058B, time: 1)?.lat == nil, "Luxembourg is not within 180 NM of New York")
    }

    @Test("a long stream of new addresses never grows the session: aircraft heard once are forgotten after 30 s of frame time")
    func boundedGrowth() throws {
        var session = DecodeSession()
        let odd = try Frame(hex: String(Self.odd40621D))
        for address in UInt32(0)..<3_000 {
            let frame = Frame.extendedSquitter(address: address, me: odd.messageField)
            _ = try session.decode(ReceivedFrame(frame: frame), time: Double(address))
            #expect(session.aircraftCount <= 40)
        }
    }

    @Test("non-finite times and references give no position rather than a trap")
    func hostileInputs() throws {
        var session = DecodeSession(reference: Coordinate(latitude: .nan, longitude: .nan))
        _ = try session.decode(line: Self.odd40621D, time: .nan)
        _ = try session.decode(line: Self.even40621D, time: .infinity)
        session.reference = Coordinate(latitude: .infinity, longitude: 0)
        let wide = MessageField.surfacePosition(groundSpeed: nil, track: nil, cpr: CPRPosition(format: .even, lat: .max, lon: .max))
        _ = try session.decode(ReceivedFrame(frame: Frame.extendedSquitter(address: 9, me: try #require(wide))), time: 0)
        #expect(session.reference == nil, "a reference that is not a place is not used")
    }
}
