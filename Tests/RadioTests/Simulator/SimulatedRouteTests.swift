import ModeS
import Testing
@testable import Radio

/// Simulated traffic to and from a named airport: arrivals descend, slow down, line up with
/// the runway and touch down at the threshold, then send surface positions; departures roll,
/// lift off and climb away, then send airborne positions.
@Suite("Simulator: arrivals and departures")
struct SimulatedRouteTests {
    static let airport = Coordinate(latitude: 52.3086, longitude: 4.7639)

    @Test("An arrival lands on the runway heading at the threshold, after a descent and a slow-down, then reports on the ground")
    func arrivalLands() {
        var configuration = SkyConfiguration(seed: 3, aircraftCount: 0, receiver: Self.airport, snr: nil)
        configuration.routes = [SimulatedRoute(name: "EHAM", airport: Self.airport, runwayHeading: 240, arrivals: 1, departures: 1)]
        var sky = Sky(configuration: configuration)
        #expect(sky.aircraft.count == 2)
        let start = sky.aircraft[0]
        #expect(start.isArrival && !start.onGround && start.altitude > 12_000)
        var kindsAfterLanding = Set<SimulatedMessage>()
        var kindsAfterLiftoff = Set<SimulatedMessage>()
        var maxDescent = 0.0
        var finalTracks: [Double] = []
        var departureAltitude = 0.0
        while sky.time < 40 * 60 {
            let frames = sky.advance()
            let arrival = sky.aircraft[0], departure = sky.aircraft[1]
            maxDescent = max(maxDescent, -arrival.verticalRate)
            if arrival.touchdownTime == nil, SkyGeodesy.distance(arrival.position, Self.airport) < 3 * SkyGeodesy.kmPerNM { finalTracks.append(arrival.track) }
            for f in frames where f.address == arrival.address && arrival.touchdownTime.map({ f.time > $0 + 1 }) == true { kindsAfterLanding.insert(f.kind) }
            for f in frames where f.address == departure.address && departure.altitude > 1500 { kindsAfterLiftoff.insert(f.kind) }
            departureAltitude = departure.altitude
            if let t = arrival.touchdownTime, sky.time > t + 60 { break }
        }
        let landed = sky.aircraft[0]
        let touchdown = try? #require(landed.touchdownTime)
        #expect(touchdown != nil)
        #expect(landed.onGround && landed.groundSpeed < 60)
        #expect(SkyGeodesy.distance(landed.position, Self.airport) < 3, "rolled out near the threshold")
        #expect(maxDescent <= 3000 && maxDescent >= 1000)
        #expect(!finalTracks.isEmpty && finalTracks.allSatisfy { abs(SkyGeodesy.difference(from: $0, to: 240)) < 10 }, "lined up with runway 24")
        #expect(kindsAfterLanding.contains(.surfacePosition) && !kindsAfterLanding.contains(.airbornePosition))
        #expect(kindsAfterLiftoff.contains(.airbornePosition) && !kindsAfterLiftoff.contains(.surfacePosition))
        #expect(departureAltitude > 10_000, "the departure climbed")
    }

    @Test("Skies without routes are unchanged by them (the same seed gives the same frames)")
    func randomSkyUnchanged() {
        func frames(_ routes: [SimulatedRoute]) -> [UInt32] {
            var c = SkyConfiguration(seed: 9, aircraftCount: 5)
            c.routes = routes
            var sky = Sky(configuration: c)
            var out: [UInt32] = []
            for _ in 0..<50 { out += sky.advance().map(\.address) }
            return out
        }
        #expect(frames([]) == frames([]))
        let withRoute = frames([SimulatedRoute(name: "EHAM", airport: Self.airport, arrivals: 1)])
        #expect(withRoute != frames([]), "the route's aircraft adds frames")
    }
}
