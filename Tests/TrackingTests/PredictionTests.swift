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
        // 60 NM from 280 kt down to 140 kt: 60 / 140 · ln 2 h = 17.8 min.
        #expect(abs(a.time - 60 / 140 * log(2) * 3600) < 1)
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
