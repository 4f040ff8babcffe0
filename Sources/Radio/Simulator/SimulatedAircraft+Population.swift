import Demod
import Foundation
import ModeS

/// Making up aircraft: identities drawn from real address allocations and airline codes,
/// positions and states spread over the receiver's range.
extension SimulatedAircraft {
    /// Airlines and the ICAO address block of their country (Annex 10 Vol III allocations).
    static let airlines: [(code: String, block: ClosedRange<UInt32>)] = [
        ("KLM", 0x48_0000...0x48_7FFF), ("TRA", 0x48_0000...0x48_7FFF), ("DLH", 0x3C_0000...0x3F_FFFF),
        ("EWG", 0x3C_0000...0x3F_FFFF), ("BAW", 0x40_0000...0x43_FFFF), ("EZY", 0x40_0000...0x43_FFFF),
        ("AFR", 0x38_0000...0x3B_FFFF), ("RYR", 0x4C_A000...0x4C_AFFF), ("SAS", 0x4A_8000...0x4A_FFFF),
        ("IBE", 0x34_0000...0x37_FFFF), ("SWR", 0x4B_0000...0x4B_7FFF), ("AUA", 0x44_0000...0x44_7FFF),
        ("TAP", 0x49_0000...0x49_7FFF), ("THY", 0x4B_8000...0x4B_FFFF), ("UAE", 0x89_6000...0x89_6FFF),
        ("UAL", 0xA0_0001...0xAD_F7C7), ("DAL", 0xA0_0001...0xAD_F7C7), ("AAL", 0xA0_0001...0xAD_F7C7),
    ]

    /// Makes aircraft number `index` of a sky. Aircraft 0 is always an airliner, so even a
    /// one-aircraft sky sends every kind of message; of the others about 10 % are on the
    /// ground at the airport and 15 % are light aircraft.
    static func make(index: Int, configuration: SkyConfiguration, airport: Coordinate,
                     rng: inout SplitMix64, usedAddresses: inout Set<UInt32>) -> SimulatedAircraft {
        let draw = rng.unit()
        let kind: Kind = index == 0 || draw >= 0.25 ? .airliner : (draw < 0.10 ? .surface : .light)
        let motion = rng.split()

        // Identity.
        var address: UInt32
        var callsign: String
        let squawk: UInt16
        let category: EmitterCategory
        switch kind {
        case .airliner, .surface:
            let airline = airlines[Int(rng.next() % UInt64(airlines.count))]
            address = unique(in: airline.block, rng: &rng, used: &usedAddresses)
            var number = String(1 + rng.next() % 9999)
            if rng.unit() < 0.3, number.count < 4 {
                number += String(UnicodeScalar(UInt8(65 + rng.next() % 26)))
            }
            callsign = airline.code + number
            squawk = randomSquawk(&rng)
            category = EmitterCategory(typeCode: 4, category: kind == .airliner && rng.unit() < 0.2 ? 5 : 3)!
        case .light:
            // US general aviation: the callsign is the N-number the address encodes.
            address = unique(in: 0xA0_0001...0xAD_F7C7, rng: &rng, used: &usedAddresses)
            callsign = Registration.fromAddress(address).map { $0.replacingOccurrences(of: "-", with: "") } ?? "N\(index + 1)"
            squawk = 0o1200
            category = EmitterCategory(typeCode: 4, category: 1)!
        }
        if Callsign.encode(callsign) == nil { callsign = "SIM\(index % 100_000)" }

        // Where it is.
        let bearing = rng.uniform(0...360)
        let position: Coordinate
        let altitude: Double
        let track = rng.uniform(0...360)
        switch kind {
        case .airliner:
            let km = max(10, configuration.maxRange * 0.9 * rng.unit().squareRoot())
            position = SkyGeodesy.destination(from: configuration.receiver, bearing: bearing, km: km)
            altitude = 100 * Double(100 + rng.next() % 301)
        case .light:
            let km = 5 + rng.unit() * (min(80, configuration.maxRange) * 0.8 - 5)
            position = SkyGeodesy.destination(from: configuration.receiver, bearing: bearing, km: km)
            altitude = 500 * Double(3 + rng.next() % 14)
        case .surface:
            position = SkyGeodesy.destination(from: airport, bearing: bearing, km: rng.uniform(0...1.5))
            altitude = 0
        }
        let speed = kind == .surface
            ? (rng.unit() < 0.4 ? 0 : rng.uniform(5...18))
            : cruiseSpeed(kind: kind, altitude: altitude, jitter: rng.uniform(-20...20))
        return SimulatedAircraft(
            address: address, callsign: callsign, squawk: squawk, category: category, kind: kind,
            powerOffset: rng.uniform(-3...3),
            frequencyOffset: rng.uniform(-configuration.maxFrequencyOffset...configuration.maxFrequencyOffset),
            geometricDelta: Int(rng.uniform(-200...600)) / 25 * 25,
            interrogated: rng.unit() < 0.75,
            position: position, altitude: altitude, groundSpeed: speed, track: track, home: airport, motion: motion)
    }

    /// An address in `block` not used yet (and not 0).
    private static func unique(in block: ClosedRange<UInt32>, rng: inout SplitMix64, used: inout Set<UInt32>) -> UInt32 {
        let width = UInt64(block.upperBound - block.lowerBound) + 1
        for _ in 0..<64 {
            let candidate = block.lowerBound + UInt32(rng.next() % width)
            if candidate != 0, used.insert(candidate).inserted { return candidate }
        }
        // The block is (nearly) full: any free address.
        var candidate = UInt32(rng.next() & 0xFF_FFFF)
        while candidate == 0 || !used.insert(candidate).inserted { candidate = (candidate &+ 1) & 0xFF_FFFF }
        return candidate
    }

    /// A discrete code 0o1000–0o6777, avoiding the special ones.
    private static func randomSquawk(_ rng: inout SplitMix64) -> UInt16 {
        while true {
            let code = UInt16(0o1000 + rng.next() % (0o7000 - 0o1000))
            if code != 0o1200, code != 0o2000 { return code }
        }
    }
}
