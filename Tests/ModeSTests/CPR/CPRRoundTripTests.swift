import Testing
@testable import ModeS

/// decode(encode(p)) ≈ p, within half a CPR quantum of the zone size used.
@Suite("CPR encode/decode round trips")
struct CPRRoundTripTests {
    static func longitudeError(_ a: Double, _ b: Double) -> Double {
        Coordinate.normalizeLongitude(a - b).magnitude
    }

    static func isNearNLTransition(_ latitude: Double, within margin: Double) -> Bool {
        CPR.nlTransitions.contains { abs(latitude.magnitude - $0) < margin }
    }

    /// Half a quantum of the zones of `format` at the decoded latitude, plus rounding slack.
    static func tolerances(latitude: Double, format: CPRFormat, surface: Bool) -> (lat: Double, lon: Double) {
        let span = surface ? 90.0 : 360.0
        let i = format == .even ? 0 : 1
        let dLat = span / Double(60 - i)
        let dLon = span / Double(max(CPR.nl(latitude) - i, 1))
        return (dLat / 131_072 / 2 + 1e-9, dLon / 131_072 / 2 + 1e-9)
    }

    static func check(_ decoded: Coordinate?, _ p: Coordinate, format: CPRFormat, surface: Bool,
                      _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let decoded else {
            Issue.record("\(what) failed for \(p)", sourceLocation: sourceLocation)
            return
        }
        let tol = tolerances(latitude: decoded.latitude, format: format, surface: surface)
        #expect(abs(decoded.latitude - p.latitude) <= tol.lat,
                "\(what) lat \(decoded.latitude) for \(p)", sourceLocation: sourceLocation)
        #expect(longitudeError(decoded.longitude, p.longitude) <= tol.lon,
                "\(what) lon \(decoded.longitude) for \(p)", sourceLocation: sourceLocation)
        #expect(decoded.longitude >= -180 && decoded.longitude < 180, sourceLocation: sourceLocation)
    }

    /// Checks global (both orders) and local decoding of one point.
    static func roundTrip(_ p: Coordinate, surface: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let even = try #require(CPR.encode(p, format: .even, surface: surface), sourceLocation: sourceLocation)
        let odd = try #require(CPR.encode(p, format: .odd, surface: surface), sourceLocation: sourceLocation)
        // A reference a little way off: within 45 NM (surface) / 180 NM (airborne).
        let offset = surface ? 0.3 : 1.0
        let reference = Coordinate(latitude: min(max(p.latitude + offset, -90), 90),
                                   longitude: p.longitude - offset).normalized
        for latest in [CPRFormat.even, .odd] {
            let global = surface
                ? CPR.globalSurface(even: even, odd: odd, latest: latest, reference: reference)
                : CPR.globalAirborne(even: even, odd: odd, latest: latest)
            check(global, p, format: latest, surface: surface, "global \(latest)", sourceLocation: sourceLocation)
        }
        for position in [even, odd] {
            let local = surface
                ? CPR.localSurface(position, reference: reference)
                : CPR.localAirborne(position, reference: reference)
            check(local, p, format: position.format, surface: surface, "local \(position.format)",
                  sourceLocation: sourceLocation)
        }
    }

    static let specialLatitudes: [Double] = {
        var values: [Double] = [0, 1e-7, -1e-7, 0.5, -0.5, 45, -45]
        // Latitude zone edges of both formats (airborne 6° and 360/59°, surface 1.5° and 90/59°).
        for k in -14...14 {
            for edge in [6.0 * Double(k), 360.0 / 59 * Double(k), 1.5 * Double(k), 90.0 / 59 * Double(k)] {
                values += [edge, edge + 1e-6, edge - 1e-6]
            }
        }
        // Either side of every NL transition (far enough that both halves agree on NL).
        for t in CPR.nlTransitions.dropLast() { values += [t - 0.001, t + 0.001, -t - 0.001, -t + 0.001] }
        // Near the poles.
        values += [86.999, 87.001, 87.5, 88, 89, 89.5, 89.99, -86.999, -87.001, -87.5, -88, -89, -89.5, -89.99]
        return values.filter { abs($0) <= 90 }
    }()

    static let specialLongitudes: [Double] = [
        -180, -179.999_999, 179.999_999, 179.5, -179.5, 0, 1e-7, -1e-7, 90, -90, 3.919, -122.3,
    ]

    @Test("airborne round trips at zone edges, NL transitions, poles, equator and the antimeridian")
    func airborneSpecial() throws {
        for latitude in Self.specialLatitudes {
            for longitude in Self.specialLongitudes {
                try Self.roundTrip(Coordinate(latitude: latitude, longitude: longitude), surface: false)
            }
        }
    }

    @Test("airborne round trips at the poles themselves")
    func airbornePoles() throws {
        for latitude in [90.0, -90.0] {
            for longitude in Self.specialLongitudes {
                try Self.roundTrip(Coordinate(latitude: latitude, longitude: longitude), surface: false)
            }
        }
    }

    @Test("surface round trips at zone edges, NL transitions, near the poles, equator and the antimeridian")
    func surfaceSpecial() throws {
        for latitude in Self.specialLatitudes where abs(latitude) < 90 {
            for longitude in Self.specialLongitudes {
                try Self.roundTrip(Coordinate(latitude: latitude, longitude: longitude), surface: true)
            }
        }
    }

    @Test("random positions round trip, airborne and surface", arguments: [false, true])
    func random(surface: Bool) throws {
        var generator = SplitMix64(seed: surface ? 17 : 42)
        var tested = 0
        while tested < 20_000 {
            let latitude = generator.unit() * 179.998 - 89.999
            let longitude = generator.unit() * 360 - 180
            if Self.isNearNLTransition(latitude, within: 1e-4) { continue }
            try Self.roundTrip(Coordinate(latitude: latitude, longitude: longitude), surface: surface)
            tested += 1
        }
    }

    @Test("the encoder gives the fields of a published frame")
    func encodesPublishedFields() throws {
        // 8D40621D58C382D690C8AC2863A7 decodes to 52.2572021484375, 3.91937255859375 (even
        // 93000/51372); re-encoding that exact position gives the same fields.
        let p = Coordinate(latitude: 52.2572021484375, longitude: 3.91937255859375)
        #expect(CPR.encode(p, format: .even, surface: false) == CPRPosition(format: .even, lat: 93000, lon: 51372))
    }

    @Test("even and odd halves that straddle an NL transition are rejected", arguments: 0..<57)
    func zoneMismatch(_ k: Int) throws {
        let t = CPR.nlTransitions[k]
        for sign in [1.0, -1.0] {
            let a = Coordinate(latitude: sign * (t + 0.002), longitude: 10)
            let b = Coordinate(latitude: sign * (t - 0.002), longitude: 10)
            for surface in [false, true] {
                let even = try #require(CPR.encode(a, format: .even, surface: surface))
                let odd = try #require(CPR.encode(b, format: .odd, surface: surface))
                for latest in [CPRFormat.even, .odd] {
                    let decoded = surface
                        ? CPR.globalSurface(even: even, odd: odd, latest: latest, reference: a)
                        : CPR.globalAirborne(even: even, odd: odd, latest: latest)
                    #expect(decoded == nil, "t=\(t) surface=\(surface)")
                }
            }
        }
    }

    @Test("the encoder refuses non-finite or out-of-range positions")
    func encoderRejectsInvalid() {
        #expect(CPR.encode(Coordinate(latitude: .nan, longitude: 0), format: .even, surface: false) == nil)
        #expect(CPR.encode(Coordinate(latitude: 0, longitude: .infinity), format: .odd, surface: true) == nil)
        #expect(CPR.encode(Coordinate(latitude: 90.5, longitude: 0), format: .odd, surface: false) == nil)
    }

    @Test("longitudes are normalised to -180..<180")
    func normalisation() {
        #expect(Coordinate.normalizeLongitude(180) == -180)
        #expect(Coordinate.normalizeLongitude(-180) == -180)
        #expect(Coordinate.normalizeLongitude(540) == -180)
        #expect(Coordinate.normalizeLongitude(359.5) == -0.5)
        #expect(Coordinate.normalizeLongitude(-190) == 170)
        #expect(Coordinate.normalizeLongitude(-1e-17 - 180) < 180)
    }
}
