import Foundation
import ModeS
import Radio
import Tracking

/// `flytracker bench --eta`: how good the arrival and closest-approach predictions are.
/// Simulated skies of arrivals to Amsterdam Schiphol (runway 240, from 60–160 NM out on
/// random bearings, descending, slowing, turning onto final 15 NM out); every 10 s each
/// arrival's landing and its pass of a spotter's place under the approach (4 NM before the
/// threshold, radius 1 NM) are predicted twice: from the simulator's true state, and from the
/// aircraft table fed with the sky's frames (CPR positions, quantised velocities and rates,
/// as a replay decodes them); a third row gives the estimate the runway in use, as `run`,
/// `eta` and the page do once the table has seen a landing there (`Landing.runway`).
/// Errors are predicted minus actual times at 30, 10 and 3 min before the event.
struct EtaBenchmark {
    var skies: Int
    var arrivalsPerSky = 6

    static let airport = Coordinate(latitude: 52.3086, longitude: 4.7639)
    static let runway = 240.0
    static let leads: [Double] = [30, 10, 3]

    struct Results {
        var landing = (truth: PredictionAccuracy(), decoded: PredictionAccuracy(), learned: PredictionAccuracy())
        var passing = (truth: PredictionAccuracy(), decoded: PredictionAccuracy())
        var flights = 0
    }

    func run() -> Results {
        var results = Results()
        let spotter = Geodesy.destination(from: Self.airport, bearing: Self.runway + 180, distance: 4)
        for seed in 1...max(1, skies) {
            var configuration = SkyConfiguration(seed: UInt64(seed), aircraftCount: 0, receiver: Self.airport, snr: nil)
            configuration.routes = [SimulatedRoute(name: "EHAM", airport: Self.airport, runwayHeading: Self.runway, arrivals: arrivalsPerSky)]
            var sky = Sky(configuration: configuration)
            var table = AircraftTable(configuration: TableConfiguration(receiver: Self.airport))
            let count = sky.aircraft.count
            typealias Series = [(time: Double, predicted: Double?)]
            var landing = [(truth: Series, decoded: Series, learned: Series)](repeating: ([], [], []), count: count)
            var passing = [(truth: Series, decoded: Series)](repeating: ([], []), count: count)
            // The true pass of the spotter: the closest point of the true track.
            var closest = [(distance: Double, time: Double)](repeating: (.infinity, 0), count: count)
            let epoch = 1_800_000_000.0
            while sky.time < 75 * 60, sky.aircraft.contains(where: { $0.touchdownTime == nil }) {
                for f in sky.advance() {
                    guard let message = ModeSMessage.decode(f.transmission.frame) else { continue }
                    table.apply(message, received: ReceivedFrame(frame: f.transmission.frame), at: epoch + f.time)
                }
                let t = sky.time
                for (i, a) in sky.aircraft.enumerated() where a.touchdownTime == nil {
                    let d = Geodesy.distance(a.position, spotter)
                    if d < closest[i].distance { closest[i] = (d, t) }
                }
                guard Int((t * 10).rounded()) % 100 == 0 else { continue }
                let snapshot = table.snapshot(at: epoch + t)
                for (i, a) in sky.aircraft.enumerated() where a.touchdownTime == nil {
                    let truth = MotionState(position: a.position, time: t, track: a.track, groundSpeed: a.groundSpeed, turnRate: a.turnRate,
                                            altitude: Int(a.altitude), verticalRate: Int(a.verticalRate), onGround: a.onGround)
                    landing[i].truth.append((t, Prediction.arrival(truth, at: Self.airport)?.time))
                    passing[i].truth.append((t, Self.pass(truth, spotter)))
                    var decoded: MotionState?
                    if let entry = snapshot.aircraft.first(where: { $0.address == a.address }), var m = MotionState(entry) {
                        m.time -= epoch
                        decoded = m
                    }
                    landing[i].decoded.append((t, decoded.flatMap { Prediction.arrival($0, at: Self.airport)?.time }))
                    // With the runway in use known (as after the table has seen one landing).
                    landing[i].learned.append((t, decoded.flatMap { Prediction.arrival($0, at: Self.airport, runway: Self.runway)?.time }))
                    passing[i].decoded.append((t, decoded.flatMap { Self.pass($0, spotter) }))
                }
            }
            for (i, a) in sky.aircraft.enumerated() {
                guard let touchdown = a.touchdownTime else { continue }
                results.flights += 1
                results.landing.truth.add(actual: touchdown, predictions: landing[i].truth)
                results.landing.decoded.add(actual: touchdown, predictions: landing[i].decoded)
                results.landing.learned.add(actual: touchdown, predictions: landing[i].learned)
                if closest[i].distance <= 1 {
                    results.passing.truth.add(actual: closest[i].time, predictions: passing[i].truth)
                    results.passing.decoded.add(actual: closest[i].time, predictions: passing[i].decoded)
                }
            }
        }
        return results
    }

    /// The predicted time of passing within 1 NM of `place`, if the prediction says it will.
    static func pass(_ m: MotionState, _ place: Coordinate) -> Double? {
        guard let c = Prediction.closestApproach(m, to: place), c.isAhead, c.distance <= 1 else { return nil }
        return c.time
    }

    /// Prints the table (markdown, as in the README).
    static func report(_ r: Results) {
        print("eta: \(r.flights) simulated arrivals to EHAM runway \(Int(runway)); errors = predicted − actual, s (median |e| / 90th pct |e| / mean; n; none = no prediction then)")
        print("| event | from | " + leads.map { "\(Int($0)) min before" }.joined(separator: " | ") + " |")
        print("|---|---|" + leads.map { _ in "---|" }.joined())
        let rows: [(String, String, PredictionAccuracy)] = [
            ("landing", "true state", r.landing.truth), ("landing", "decoded frames, runway unknown", r.landing.decoded),
            ("landing", "decoded frames, runway in use known (as learned from a landing)", r.landing.learned),
            ("pass 4 NM before the threshold", "true state", r.passing.truth),
            ("pass 4 NM before the threshold", "decoded frames", r.passing.decoded),
        ]
        for (event, source, accuracy) in rows {
            do {
                let cells = leads.map { lead -> String in
                    let s = accuracy.summary(lead: lead * 60)
                    guard let median = s.medianAbsolute, let p90 = s.p90Absolute, let bias = s.bias else { return "none (\(s.missing))" }
                    return String(format: "%.0f / %.0f / %+.0f; n %d", median, p90, bias, s.count) + (s.missing > 0 ? ", none \(s.missing)" : "")
                }
                print("| \(event) | \(source) | " + cells.joined(separator: " | ") + " |")
            }
        }
    }
}
