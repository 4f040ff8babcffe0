import ModeS
import Tracking

/// The aircraft table's throughput on this machine, for `flytracker bench`: a synthetic sky
/// (aircraft flying straight at airliner speeds around a receiver, each living
/// `flightDuration` seconds of message time before a new address replaces it, plus noise
/// replies from random addresses) is encoded into real frames and decoded once; the timed
/// part applies the decoded messages to a fresh table, on one core.
///
/// The message mix per aircraft is roughly what a receiver hears: positions and velocities
/// (each about 2/s), all-call and surveillance replies, Comm-B, identification.
public enum TableBenchmark {
    public struct Result: Sendable {
        /// Messages applied per pass.
        public var messages: Int
        /// Best pass, seconds.
        public var seconds: Double
        public var messagesPerSecond: Double
        /// Most aircraft (addresses) held at once, aircraft the corpus flew in all, and
        /// one-message noise addresses: memory follows the first, not the others.
        public var peakAircraft: Int
        public var distinctAddresses: Int
        public var noiseAddresses: Int
        /// Aircraft held at the end, and shown (reliable) in the final snapshot.
        public var finalAircraft: Int
        public var shownAircraft: Int
        /// Positions accepted (global + local) and rejected (range/speed) in a pass.
        public var positionsAccepted: UInt64
        public var positionsRejected: UInt64
        /// Seconds of message time the corpus spans.
        public var span: Double
        /// The final snapshot, for timing what is written from it (aircraft.json).
        public var snapshot: TableSnapshot
    }

    /// One decoded message of the corpus.
    struct Item: Sendable {
        var message: ModeSMessage
        var time: Double
        var signal: Double
    }

    /// Builds the corpus and times `passes` passes (the best is reported).
    public static func run(messages: Int = 1_000_000, concurrentAircraft: Int = 300, flightDuration: Double = 240,
                           passes: Int = 3, seed: UInt64 = 1) -> Result {
        let (corpus, distinct, noise) = makeCorpus(messages: messages, concurrentAircraft: concurrentAircraft,
                                            flightDuration: flightDuration, seed: seed)
        let receiver = Coordinate(latitude: 52.0, longitude: 4.5)
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000_000)
        var peak = 0
        var table = AircraftTable()
        for _ in 0..<max(passes, 1) {
            table = AircraftTable(configuration: TableConfiguration(receiver: receiver))
            var localPeak = 0
            let elapsed = clock.measure {
                for (n, item) in corpus.enumerated() {
                    table.apply(item.message, received: ReceivedFrame(frame: item.message.frame, signal: item.signal), at: item.time)
                    if n & 4095 == 0 { localPeak = max(localPeak, table.count) }
                }
            }
            peak = max(peak, localPeak)
            best = min(best, elapsed)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
        let end = corpus.last?.time ?? 0
        let snapshot = table.snapshot(at: end)
        let cpr = table.counters.cpr
        return Result(
            messages: corpus.count, seconds: seconds,
            messagesPerSecond: seconds > 0 ? Double(corpus.count) / seconds : 0,
            peakAircraft: peak, distinctAddresses: distinct, noiseAddresses: noise, finalAircraft: table.count,
            shownAircraft: snapshot.count,
            positionsAccepted: cpr.globalOK + cpr.localOK,
            positionsRejected: cpr.globalRange + cpr.globalSpeed + cpr.localRange + cpr.localSpeed,
            span: end - (corpus.first?.time ?? 0), snapshot: snapshot)
    }

    /// A simulated aircraft.
    struct Flight {
        var address: UInt32
        var position: Coordinate
        var track: Double
        var speed: Double
        var altitude: Int
        var born: Double
        var step: Int
        var callsign: String
    }

    /// The decoded corpus, the number of aircraft in it and of noise messages.
    static func makeCorpus(messages: Int, concurrentAircraft: Int, flightDuration: Double, seed: UInt64) -> ([Item], Int, Int) {
        var random = SplitMix64(seed: seed)
        let receiver = Coordinate(latitude: 52.0, longitude: 4.5)
        let count = max(concurrentAircraft, 1)
        let ratePerAircraft = 6.0
        let dt = 1 / (Double(count) * ratePerAircraft)
        var nextAddress: UInt32 = 0x40_0000
        func newFlight(at time: Double) -> Flight {
            nextAddress &+= 1 + UInt32(random.next() % 7)
            let start = Geodesy.destination(from: receiver, bearing: random.unit() * 360, distance: random.unit() * 150)
            let letters = Array("ABCDEFGHJKLMNPRSTUVWXYZ".utf8)
            let prefix = String(decoding: (0..<3).map { _ in letters[Int(random.next() % UInt64(letters.count))] }, as: UTF8.self)
            return Flight(address: nextAddress & 0xFF_FFFF, position: start, track: random.unit() * 360,
                          speed: 250 + random.unit() * 250, altitude: 5000 + Int(random.next() % 320) * 100,
                          born: time - random.unit() * flightDuration, step: Int(random.next() % 12),
                          callsign: prefix + String(100 + random.next() % 9000))
        }
        var flights = (0..<count).map { _ in newFlight(at: 0) }
        var distinct = count
        var noise = 0
        var items: [Item] = []
        items.reserveCapacity(messages)
        var time = 0.0
        var k = 0
        while items.count < messages {
            time += dt
            if k % 100 == 99 {
                // Noise: a one-off all-call from a random address.
                let frame = SyntheticFrames.allCall(address: UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF)
                if let m = ModeSMessage.decode(frame) { items.append(Item(message: m, time: time, signal: -30)) }
                noise += 1
                k += 1
                continue
            }
            let i = k % count
            k += 1
            if time - flights[i].born > flightDuration {
                flights[i] = newFlight(at: time)
                flights[i].born = time
                distinct += 1
            }
            var f = flights[i]
            // Move along the track since this aircraft's last message.
            f.position = Geodesy.destination(from: f.position, bearing: f.track, distance: f.speed * dt * Double(count) / 3600)
            let frame: Frame
            switch f.step % 12 {
            case 0, 6: frame = SyntheticFrames.airbornePosition(address: f.address, position: f.position, altitude: f.altitude, format: .even)
            case 3, 9: frame = SyntheticFrames.airbornePosition(address: f.address, position: f.position, altitude: f.altitude, format: .odd)
            case 1, 7: frame = SyntheticFrames.velocity(address: f.address, groundSpeed: f.speed, track: f.track)
            case 2: frame = SyntheticFrames.allCall(address: f.address)
            case 4: frame = SyntheticFrames.surveillanceAltitude(address: f.address, altitude: f.altitude)
            case 5: frame = SyntheticFrames.identification(address: f.address, callsign: f.callsign)
            case 8: frame = SyntheticFrames.surveillanceIdentity(address: f.address, squawk: UInt16(f.address & 0o7777))
            case 10: frame = SyntheticFrames.commB(address: f.address, altitude: f.altitude, mb: SyntheticFrames.bds20(f.callsign))
            default: frame = SyntheticFrames.allCall(address: f.address)
            }
            f.step += 1
            flights[i] = f
            if let m = ModeSMessage.decode(frame) {
                items.append(Item(message: m, time: time, signal: -10 - Double(f.address % 20)))
            }
        }
        return (items, distinct, noise)
    }
}
