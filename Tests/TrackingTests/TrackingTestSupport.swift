import ModeS
@testable import Tracking

/// Errors of the test helpers.
struct TestInputError: Error, CustomStringConvertible {
    var description: String
}

/// Decodes a frame (parity checked, 1-bit correction) or throws.
func decoded(_ frame: Frame) throws -> ModeSMessage {
    guard let m = ModeSMessage.decode(frame) else { throw TestInputError(description: "parity fails: \(frame.hex)") }
    return m
}

func decoded(hex: String) throws -> ModeSMessage {
    try decoded(Frame(hex: hex))
}

extension AircraftTable {
    /// Applies one frame at `time`.
    mutating func feed(_ frame: Frame, at time: Double, signal: Double? = nil) throws {
        apply(try decoded(frame), received: ReceivedFrame(frame: frame, signal: signal), at: time)
    }

    mutating func feed(hex: String, at time: Double, signal: Double? = nil) throws {
        try feed(Frame(hex: hex), at: time, signal: signal)
    }
}

/// Great-circle distance in NM between two positions (test shorthand).
func nm(_ a: Coordinate, _ b: Coordinate) -> Double { Geodesy.distance(a, b) }

/// Airborne frames of one aircraft flying a path: even and odd positions alternating every
/// `interval` seconds, with a velocity message after each position.
struct FlightScript {
    var address: UInt32
    var altitude = 35000
    var interval = 0.5

    /// Frames and times for positions given at each step.
    func frames(path: [(time: Double, position: Coordinate, groundSpeed: Double, track: Double)]) -> [(Frame, Double)] {
        var out: [(Frame, Double)] = []
        for (n, p) in path.enumerated() {
            out.append((SyntheticFrames.airbornePosition(address: address, position: p.position, altitude: altitude,
                                                         format: n % 2 == 0 ? .even : .odd), p.time))
            out.append((SyntheticFrames.velocity(address: address, groundSpeed: p.groundSpeed, track: p.track), p.time + 0.01))
        }
        return out
    }

    /// A straight path at `speed` kt on `track` from `start`, `steps` positions.
    func straight(from start: Coordinate, track: Double, speed: Double, steps: Int, startTime: Double = 0)
        -> [(time: Double, position: Coordinate, groundSpeed: Double, track: Double)]
    {
        (0..<steps).map { i in
            let t = Double(i) * interval
            return (startTime + t, Geodesy.destination(from: start, bearing: track, distance: speed * t / 3600), speed, track)
        }
    }
}
