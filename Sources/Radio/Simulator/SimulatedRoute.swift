import Foundation
import ModeS

/// Traffic to and from a named airport in the simulated sky, so that a replay shows real
/// landings and take-offs (`flytracker simulate --arrivals EHAM:3 --departures EHAM:2`).
public struct SimulatedRoute: Sendable, Hashable {
    /// The airport's code (for truth files and messages).
    public var name: String
    /// The runway threshold (the airport's reference point).
    public var airport: Coordinate
    /// ft.
    public var elevation: Double
    /// Landing and take-off direction, degrees true.
    public var runwayHeading: Double
    public var arrivals: Int
    public var departures: Int

    public init(name: String, airport: Coordinate, elevation: Double = 0, runwayHeading: Double = 240, arrivals: Int = 0, departures: Int = 0) {
        self.name = name
        self.airport = airport
        self.elevation = elevation
        self.runwayHeading = runwayHeading
        self.arrivals = max(0, arrivals)
        self.departures = max(0, departures)
    }
}

/// How an aircraft on a route flies: an arrival from 60–160 NM out to an intermediate fix
/// 10–16 NM out on the extended centreline (not straight at the airport: it turns onto final),
/// descending to a 3° path (318 ft/NM, at most 3000 ft/min), slowing from cruise to 250 kt
/// below FL100, 180 kt inside 15 NM and 140 kt on the last 5 NM, touching down at the
/// threshold and rolling out to taxi speed. A departure rolls, lifts off at 150 kt, climbs at
/// 2500 ft/min to its cruise level, speeds up to 250 kt below FL100 and then to cruise, and
/// turns onto its outbound track at 3000 ft.
struct RouteState: Sendable, Hashable {
    enum Phase: Sendable, Hashable {
        case inbound, final, rollout, takeoffRoll, climb
    }

    var route: SimulatedRoute
    var arrival: Bool
    var phase: Phase
    /// Departures: the outbound track.
    var outbound: Double
    /// Cruise level of a departure, ft.
    var cruise: Double
    /// Simulated time of touchdown, s.
    var touchdown: Double?
    /// How far out this arrival joins the final approach, NM (10–16: controllers differ).
    var fixDistance = 15.0

    /// The intermediate fix on the extended centreline.
    var fix: Coordinate {
        SkyGeodesy.destination(from: route.airport, bearing: route.runwayHeading + 180, km: fixDistance * SkyGeodesy.kmPerNM)
    }

    /// Distance still to fly to the threshold along the route, NM.
    func remaining(from position: Coordinate) -> Double {
        let toAirport = SkyGeodesy.distance(position, route.airport) / SkyGeodesy.kmPerNM
        guard phase == .inbound else { return toAirport }
        return SkyGeodesy.distance(position, fix) / SkyGeodesy.kmPerNM + fixDistance
    }
}

extension SimulatedAircraft {
    /// An arrival (or departure) of `route`, number `index` of its kind: arrivals start
    /// 60 + 18·index NM out (so that they land a few minutes apart) on a random bearing.
    static func make(route: SimulatedRoute, arrival: Bool, index: Int, rng: inout SplitMix64, usedAddresses: inout Set<UInt32>) -> SimulatedAircraft {
        // An airliner's identity; where and how it flies are set below.
        var plane = make(index: 0, configuration: SkyConfiguration(aircraftCount: 0, receiver: route.airport), airport: route.airport,
                         rng: &rng, usedAddresses: &usedAddresses)
        let bearing = rng.uniform(0...360)
        if arrival {
            let nm = min(60 + 18 * Double(index) + rng.uniform(0...8), 160)
            plane.position = SkyGeodesy.destination(from: route.airport, bearing: bearing, km: nm * SkyGeodesy.kmPerNM)
            plane.altitude = min(35_000, max(12_000, (nm - 15) * 318 + 6000 + rng.uniform(-2000...2000))).rounded()
            plane.groundSpeed = cruiseSpeed(kind: .airliner, altitude: plane.altitude, jitter: rng.uniform(-15...15))
            plane.track = SkyGeodesy.bearing(from: plane.position, to: route.airport)
            plane.route = RouteState(route: route, arrival: true, phase: .inbound, outbound: 0, cruise: plane.altitude,
                                     fixDistance: rng.uniform(10...16))
        } else {
            plane.position = route.airport
            plane.altitude = route.elevation
            plane.groundSpeed = 0
            plane.track = route.runwayHeading
            plane.landed = true
            plane.route = RouteState(route: route, arrival: false, phase: .takeoffRoll, outbound: bearing,
                                     cruise: 1000 * Double(24 + rng.next() % 13))
        }
        plane.targetAltitude = plane.altitude
        plane.targetSpeed = plane.groundSpeed
        return plane
    }

    /// One step of route flying (instead of the random legs).
    mutating func advanceOnRoute(by dt: Double, now: Double) {
        guard var r = route else { return }
        let airport = r.route.airport
        func turn(to target: Double, rate: Double = 3) {
            let remaining = SkyGeodesy.difference(from: track, to: target)
            let step = rate * dt
            turnRate = abs(remaining) <= step ? 0 : (remaining > 0 ? rate : -rate)
            track = abs(remaining) <= step ? SkyGeodesy.normalize(target) : SkyGeodesy.normalize(track + turnRate * dt)
        }
        func speed(towards target: Double, rate: Double) {
            groundSpeed += min(max(target - groundSpeed, -rate * dt), rate * dt)
        }
        switch r.phase {
        case .inbound, .final:
            if r.phase == .inbound, SkyGeodesy.distance(position, r.fix) / SkyGeodesy.kmPerNM < 2.5 { r.phase = .final }
            let target = r.phase == .inbound ? r.fix : airport
            turn(to: SkyGeodesy.bearing(from: position, to: target))
            let remaining = r.remaining(from: position)
            let wanted: Double = remaining < 5 ? 140 : remaining < 15 ? 180 : altitude < 10_000 ? 250 : max(250, min(groundSpeed, 320))
            speed(towards: wanted, rate: 1.5)
            // Down to the 3° path (never up), at most 3000 ft/min; then along it.
            let path = r.route.elevation + remaining * 318
            let alongPath = groundSpeed * 318 / 60
            if altitude > path + 50 {
                verticalRate = -min(3000, max(alongPath, (altitude - path) * 2)).rounded()
            } else if altitude < path - 50 {
                verticalRate = 0
            } else {
                verticalRate = -alongPath.rounded()
            }
            altitude = max(r.route.elevation, altitude + verticalRate * dt / 60)
            if SkyGeodesy.distance(position, airport) / SkyGeodesy.kmPerNM < 0.15 || (remaining < 1 && altitude <= r.route.elevation + 1) {
                r.phase = .rollout
                r.touchdown = now + dt
                altitude = r.route.elevation
                verticalRate = 0
                landed = true
                track = r.route.runwayHeading
                turnRate = 0
            }
        case .rollout:
            speed(towards: 15, rate: 3)
        case .takeoffRoll:
            speed(towards: 160, rate: 3)
            if groundSpeed >= 150 {
                r.phase = .climb
                landed = false
            }
        case .climb:
            verticalRate = altitude < r.cruise ? 2500 : 0
            altitude = min(r.cruise, altitude + verticalRate * dt / 60)
            speed(towards: altitude < 10_000 ? 250 : SimulatedAircraft.cruiseSpeed(kind: .airliner, altitude: altitude, jitter: 0), rate: 1)
            if altitude > r.route.elevation + 3000 { turn(to: r.outbound, rate: 2) }
        }
        route = r
        let km = groundSpeed * SkyGeodesy.kmPerNM * dt / 3600
        if km > 0 { position = SkyGeodesy.destination(from: position, bearing: track, km: km) }
    }

    /// When this aircraft touched down (simulated seconds), if it has.
    public var touchdownTime: Double? { route?.touchdown }
    /// Whether it is an arrival.
    public var isArrival: Bool { route?.arrival == true }
}
