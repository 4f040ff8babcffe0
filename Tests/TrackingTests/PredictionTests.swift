import Foundation
import ModeS
import Testing
@testable import Tracking

/// Closest approach and arrival estimates against answers worked out independently: points on
/// great circles from 3-D unit vectors (not from `Geodesy`), so a flat-earth or rhumb-line
/// predictor fails them far from the equator and across the antimeridian.
@Suite("Predictions: closest approach and arrival")
struct PredictionTests {
    static let radius = 6371.0 / 1.852

    static func vector(_ c: Coordinate) -> SIMD3<Double> {
        let (phi, lambda) = (c.latitude * .pi / 180, c.longitude * .pi / 180)
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    static func coordinate(_ v: SIMD3<Double>) -> Coordinate {
        Coordinate(latitude: atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) * 180 / .pi, longitude: atan2(v.y, v.x) * 180 / .pi)
    }

    /// The point `nm` along the great circle leaving `start` on initial bearing `bearing`,
    /// and the point `side` NM to its right, by rotation of unit vectors.
    static func along(_ start: Coordinate, bearing: Double, nm: Double, side: Double = 0) -> Coordinate {
        let p = vector(start)
        let north = SIMD3(-sin(start.latitude * .pi / 180) * cos(start.longitude * .pi / 180),
                          -sin(start.latitude * .pi / 180) * sin(start.longitude * .pi / 180), cos(start.latitude * .pi / 180))
        let east = SIMD3(-sin(start.longitude * .pi / 180), cos(start.longitude * .pi / 180), 0)
        let b = bearing * .pi / 180
        let direction = north * cos(b) + east * sin(b)
        let angle = nm / radius
        let onTrack = p * cos(angle) + direction * sin(angle)
        guard side != 0 else { return coordinate(onTrack) }
        // Right of the track: along the normal of the great circle's plane.
        let normal = simd_cross(p, direction)   // points left of the track
        let s = side / radius
        return coordinate(onTrack * cos(s) - normal * sin(s))
    }

    static func simd_cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    struct Crossing: Sendable, CustomStringConvertible {
        var name: String
        var start: Coordinate
        var track: Double
        var speed: Double
        var nm: Double
        var side: Double
        var description: String { name }
    }

    static let crossings: [Crossing] = [
        Crossing(name: "mid-latitudes, over the place", start: Coordinate(latitude: 40, longitude: -74), track: 60, speed: 480, nm: 400, side: 0),
        Crossing(name: "60° N due east, 900 NM", start: Coordinate(latitude: 60, longitude: 10), track: 90, speed: 450, nm: 900, side: 0),
        Crossing(name: "60° N, passing 12 NM to the side", start: Coordinate(latitude: 60, longitude: -20), track: 75, speed: 420, nm: 700, side: 12),
        Crossing(name: "across the antimeridian", start: Coordinate(latitude: 50, longitude: 178), track: 80, speed: 500, nm: 300, side: 0),
        Crossing(name: "across the antimeridian westbound, to the left", start: Coordinate(latitude: -35, longitude: -178.5), track: 265, speed: 460, nm: 250, side: -8),
        Crossing(name: "over the pole", start: Coordinate(latitude: 85, longitude: 0), track: 0, speed: 480, nm: 600, side: 0),
    ]

    @Test("A great-circle track passes a place at the known time and distance", arguments: crossings)
    func greatCircleCrossing(_ c: Crossing) throws {
        let place = Self.along(c.start, bearing: c.track, nm: c.nm, side: c.side)
        let m = MotionState(position: c.start, time: 1000, track: c.track, groundSpeed: c.speed)
        let a = try #require(Prediction.closestApproach(m, to: place))
        let expected = 1000 + c.nm / c.speed * 3600
        #expect(abs(a.time - expected) < 2, "\(a.time) vs \(expected)")
        #expect(abs(a.distance - abs(c.side)) < 0.05, "\(a.distance)")
        #expect(a.isAhead)
        #expect(Geodesy.distance(a.point, Self.along(c.start, bearing: c.track, nm: c.nm)) < 0.05)
    }

    @Test("A flat-earth estimate misses the 60° N and antimeridian places that the spherical one hits")
    func flatEarthWouldFail() {
        // The same questions answered on a local flat projection (what the test above rules out).
        for c in Self.crossings where c.name.contains("60") || c.name.contains("antimeridian") {
            let place = Self.along(c.start, bearing: c.track, nm: c.nm, side: c.side)
            let x = (place.longitude - c.start.longitude) * 60 * cos(c.start.latitude * .pi / 180)
            let y = (place.latitude - c.start.latitude) * 60
            let t = c.track * .pi / 180
            let cross = abs(x * cos(t) - y * sin(t))
            #expect(abs(cross - abs(c.side)) > 5, "\(c.name): flat cross-track \(cross)")
        }
    }

    @Test("Moving away: the closest point is now, not ahead")
    func movingAway() throws {
        let start = Coordinate(latitude: 51, longitude: -1)
        let place = Self.along(start, bearing: 200, nm: 30)
        let m = MotionState(position: start, time: 50, track: 20, groundSpeed: 300)
        let a = try #require(Prediction.closestApproach(m, to: place))
        #expect(!a.isAhead && a.time == 50 && abs(a.distance - 30) < 0.01)
        #expect(Prediction.closestApproach(MotionState(position: start, time: 0, track: 0, groundSpeed: 0), to: place) == nil)
    }

    @Test("An orbiting aircraft is closest where its circle comes nearest, a quarter turn on")
    func orbit() throws {
        // 240 kt at 1°/s: a circle of 24 NM circumference (radius 3.82 NM) flown in 360 s.
        let center = Coordinate(latitude: 52, longitude: 0.5)
        let r = 24 / (2 * Double.pi)
        let north = Self.along(center, bearing: 0, nm: r)
        let place = Self.along(center, bearing: 90, nm: 20)
        let m = MotionState(position: north, time: 0, track: 90, groundSpeed: 240, turnRate: 1)
        let a = try #require(Prediction.closestApproach(m, to: place))
        #expect(abs(a.time - 90) < 2, "\(a.time)")
        #expect(abs(a.distance - (20 - r)) < 0.1, "\(a.distance)")
        // After a full revolution it is back where it started.
        #expect(Geodesy.distance(m.position(after: 360), north) < 0.05)
        // Left turn (anticlockwise) from the same point: the east point is three quarters on.
        let left = MotionState(position: north, time: 0, track: 270, groundSpeed: 240, turnRate: -1)
        let b = try #require(Prediction.closestApproach(left, to: place))
        #expect(abs(b.time - 270) < 2, "\(b.time)")
    }

    @Test("Turning away from a place withdraws the approach that the straight track promised")
    func turningAway() throws {
        let start = Coordinate(latitude: 47, longitude: 8)
        let place = Self.along(start, bearing: 90, nm: 40)
        let straight = MotionState(position: start, time: 0, track: 90, groundSpeed: 360)
        #expect(try #require(Prediction.closestApproach(straight, to: place)).distance < 0.1)
        // A standard-rate right turn that has already swung it to 170°: it never comes back near.
        let turned = MotionState(position: start, time: 0, track: 170, groundSpeed: 360, turnRate: 0)
        let a = try #require(Prediction.closestApproach(turned, to: place))
        #expect(a.distance > 30 && a.time - turned.time < 400)
    }

    @Test("An arrival is estimated for a descending aircraft heading to the airport, and not otherwise")
    func arrivals() throws {
        let airport = Coordinate(latitude: 52.31, longitude: 4.76)
        let start = Self.along(airport, bearing: 120, nm: 60)
        let inbound = Geodesy.bearing(from: start, to: airport)
        let m = MotionState(position: start, time: 0, track: inbound, groundSpeed: 280, altitude: 14_000, verticalRate: -1800)
        let a = try #require(Prediction.arrival(m, at: airport))
        // 60 NM plus the 12 NM pattern allowance: 32 NM at 280 kt, 25 at 250 (inside 40 NM),
        // 10 at 180 (inside 15), 5 at 140 (final): 1100 s.
        #expect(abs(a.time - (32.0 / 280 + 25.0 / 250 + 10.0 / 180 + 5.0 / 140) * 3600) < 1, "\(a.time)")
        #expect(abs(a.distance - 60) < 0.01)
        var level = m
        level.altitude = 35_000
        level.verticalRate = 0
        #expect(Prediction.arrival(level, at: airport) == nil, "cruising, not yet descending")
        var away = m
        away.track = inbound + 180
        #expect(Prediction.arrival(away, at: airport) == nil)
        var far = m
        far.position = Self.along(airport, bearing: 120, nm: 260)
        far.track = Geodesy.bearing(from: far.position, to: airport)
        #expect(Prediction.arrival(far, at: airport) == nil)
        var ground = m
        ground.onGround = true
        #expect(Prediction.arrival(ground, at: airport) == nil)
        // Low and level on a 3° path, close in: arriving.
        var final = MotionState(position: Self.along(airport, bearing: 270, nm: 8), time: 0, track: 90, groundSpeed: 150, altitude: 2500, verticalRate: 0)
        final.track = Geodesy.bearing(from: final.position, to: airport)
        #expect(try #require(Prediction.arrival(final, at: airport)).time > 180)
    }
}

/// The table learns the runway in use from landings: the last airborne track before the
/// first surface position.
@Suite("Landings and the runway in use")
struct LandingTests {
    @Test("An aircraft going from airborne to surface positions is a landing with its final track; the runway at the airport is that track")
    func learnsTheRunway() throws {
        let airport = Coordinate(latitude: 52.3086, longitude: 4.7639)
        var table = AircraftTable(configuration: TableConfiguration(receiver: airport))
        let address: UInt32 = 0x484506
        func feed(_ frame: Frame, at t: Double) throws {
            let message = try #require(ModeSMessage.decode(frame))
            table.apply(message, received: ReceivedFrame(frame: frame), at: t)
        }
        var t = 0.0
        // Final approach on 240: 3 NM out to the threshold at 140 kt.
        for step in 0..<12 {
            let p = Geodesy.destination(from: airport, bearing: 60, distance: 3 - Double(step) * 0.25)
            try feed(SyntheticFrames.airbornePosition(address: address, position: p, altitude: 900 - step * 75, format: step % 2 == 0 ? .even : .odd), at: t)
            try feed(SyntheticFrames.velocity(address: address, groundSpeed: 140, track: 240, verticalRate: -700), at: t + 0.1)
            t += 6.4
        }
        #expect(table.landings.isEmpty)
        try feed(SyntheticFrames.surfacePosition(address: address, position: airport, format: .even), at: t)
        try feed(SyntheticFrames.surfacePosition(address: address, position: airport, format: .odd), at: t + 0.5)
        #expect(table.landings.count == 1, "one landing, not one per surface position")
        let landing = try #require(table.landings.first)
        #expect(landing.address == address && abs(landing.track - 240) < 1)
        let snapshot = table.snapshot(at: t + 1)
        #expect(Landing.runway(at: airport, in: snapshot.landings, now: t + 1).map { abs($0 - 240) < 1 } == true)
        #expect(Landing.runway(at: Coordinate(latitude: 51.47, longitude: -0.46), in: snapshot.landings, now: t + 1) == nil, "another airport")
        #expect(Landing.runway(at: airport, in: snapshot.landings, now: t + 7200) == nil, "too old")
    }

    @Test("With the runway known, an aircraft behind the airport is estimated along the way round to final, not straight in")
    func runwayChangesThePath() throws {
        let airport = Coordinate(latitude: 52.3086, longitude: 4.7639)
        // 20 NM north-east (the landing direction is 240, so final is to the north-east too) vs
        // 20 NM south-west (behind the runway): straight-in distance equal, path not.
        let ahead = Geodesy.destination(from: airport, bearing: 60, distance: 20)
        let behind = Geodesy.destination(from: airport, bearing: 240, distance: 20)
        func eta(_ p: Coordinate, runway: Double?) throws -> Double {
            let m = MotionState(position: p, time: 0, track: Geodesy.bearing(from: p, to: airport), groundSpeed: 220, altitude: 6000, verticalRate: -800)
            return try #require(Prediction.arrival(m, at: airport, runway: runway)).time
        }
        #expect(abs(try eta(ahead, runway: nil) - eta(behind, runway: nil)) < 1)
        #expect(try eta(behind, runway: 240) > eta(ahead, runway: 240) + 300, "behind the runway it must fly round to final")
    }
}
