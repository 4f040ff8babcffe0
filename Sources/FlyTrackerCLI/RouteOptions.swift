import ArgumentParser
import ModeS
import Radio
import Store

/// `--arrivals CODE[:N]`, `--departures CODE[:N]`: simulated traffic to and from named
/// airports (the built-in list of `flytracker places`), landing and taking off on `runway`.
enum RouteOptions {
    /// The routes the options name, or a `ValidationError` naming the bad one.
    static func routes(arrivals: [String], departures: [String], runway: Double) throws -> [SimulatedRoute] {
        guard runway.isFinite, (0...360).contains(runway) else { throw ValidationError("the runway heading must be 0…360 degrees") }
        var routes: [String: SimulatedRoute] = [:]
        var order: [String] = []
        for (spec, arriving) in arrivals.map({ ($0, true) }) + departures.map({ ($0, false) }) {
            let parts = spec.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let airport = Airports.builtIn(code: String(parts[0])) else {
                throw ValidationError("'\(spec)': expected an airport code of the built-in list (EHAM, AMS, KJFK…) and an optional :COUNT")
            }
            guard let count = parts.count == 2 ? Int(parts[1]) : 1, (1...50).contains(count) else {
                throw ValidationError("'\(spec)': the count must be 1…50")
            }
            var route = routes[airport.ident] ?? SimulatedRoute(name: airport.ident, airport: airport.coordinate, runwayHeading: runway)
            if arriving { route.arrivals += count } else { route.departures += count }
            if routes[airport.ident] == nil { order.append(airport.ident) }
            routes[airport.ident] = route
        }
        return order.map { routes[$0]! }
    }
}
