import ModeS

/// Who a simulated aircraft is, as an aircraft database would say: registration, ICAO type
/// designator and type description. Operators come from the callsign (`Tracking.Airlines`).
public struct SimulatedIdentity: Sendable, Hashable {
    public var registration: String
    /// ICAO type designator, such as `B738`.
    public var typeCode: String
    /// Such as `BOEING 737-800`.
    public var typeDescription: String
}

/// A small built-in fleet, so that every statistic, watchlist kind and alert can be tried on
/// the simulator without downloading an aircraft database: each airline flies the types it
/// really flies and registers them in its own country; light aircraft are the common GA
/// singles. The identity follows from the aircraft's address, callsign and kind alone (no
/// random draw of the sky's), so the same seed gives the same sky as before, now with types.
public enum SimulatedFleet {
    /// A type: designator and description (tar1090-db style).
    typealias AircraftType = (code: String, description: String)

    static let b738: AircraftType = ("B738", "BOEING 737-800")
    static let b38m: AircraftType = ("B38M", "BOEING 737 MAX 8")
    static let b739: AircraftType = ("B739", "BOEING 737-900")
    static let b772: AircraftType = ("B772", "BOEING 777-200")
    static let b77w: AircraftType = ("B77W", "BOEING 777-300ER")
    static let b789: AircraftType = ("B789", "BOEING 787-9 Dreamliner")
    static let b763: AircraftType = ("B763", "BOEING 767-300")
    static let b748: AircraftType = ("B748", "BOEING 747-8")
    static let a319: AircraftType = ("A319", "AIRBUS A-319")
    static let a320: AircraftType = ("A320", "AIRBUS A-320")
    static let a20n: AircraftType = ("A20N", "AIRBUS A-320neo")
    static let a321: AircraftType = ("A321", "AIRBUS A-321")
    static let a333: AircraftType = ("A333", "AIRBUS A-330-300")
    static let a339: AircraftType = ("A339", "AIRBUS A-330-900neo")
    static let a359: AircraftType = ("A359", "AIRBUS A-350-900")
    static let a388: AircraftType = ("A388", "AIRBUS A-380-800")
    static let bcs3: AircraftType = ("BCS3", "AIRBUS A220-300")
    static let e190: AircraftType = ("E190", "EMBRAER ERJ-190")
    static let e195: AircraftType = ("E195", "EMBRAER ERJ-195")

    /// Per airline designator: its country's registration prefix and the letters after it,
    /// and its types (the first is its most common, drawn half the time).
    static let airlines: [String: (prefix: String, letters: Int, types: [AircraftType])] = [
        "KLM": ("PH-", 3, [b738, b772, e190, b789]),
        "TRA": ("PH-", 3, [b738, b38m]),
        "DLH": ("D-A", 3, [a320, a321, a359, b748]),
        "EWG": ("D-A", 3, [a320, a319]),
        "BAW": ("G-", 4, [a320, a319, b772, a388]),
        "EZY": ("G-E", 3, [a320, a319, a20n]),
        "AFR": ("F-G", 3, [a320, a359, b77w]),
        "RYR": ("EI-", 3, [b738, b38m]),
        "SAS": ("SE-", 3, [a20n, a320, a359]),
        "IBE": ("EC-", 3, [a320, a321, a359]),
        "SWR": ("HB-J", 2, [a320, bcs3, b77w]),
        "AUA": ("OE-L", 2, [a320, e195, b763]),
        "TAP": ("CS-T", 2, [a320, a321, a339]),
        "THY": ("TC-J", 2, [a321, b738, b77w]),
        "UAE": ("A6-E", 2, [a388, b77w]),
        "UAL": ("N", 0, [b738, b739, b772, b789]),
        "DAL": ("N", 0, [a321, b739, a333]),
        "AAL": ("N", 0, [b738, a321, b772]),
    ]

    /// Light aircraft types.
    static let light: [AircraftType] = [("C172", "CESSNA 172 Skyhawk"), ("PA28", "PIPER PA-28 Cherokee"),
                                        ("SR22", "CIRRUS SR-22"), ("C182", "CESSNA 182 Skylane")]

    /// The identity of a simulated aircraft.
    public static func identity(of aircraft: SimulatedAircraft) -> SimulatedIdentity {
        identity(address: aircraft.address, callsign: aircraft.callsign, light: aircraft.kind == .light)
    }

    /// The identity of the aircraft with this address and callsign (`light`: a GA single).
    public static func identity(address: UInt32, callsign: String, light isLight: Bool) -> SimulatedIdentity {
        var rng = SplitMix64(seed: UInt64(address) &* 0x9E37_79B9_7F4A_7C15 ^ 0xF1EE7)
        let computed = Registration.fromAddress(address)
        if isLight {
            let type = light[Int(rng.next() % UInt64(light.count))]
            return SimulatedIdentity(registration: computed ?? "N\(address % 99_999 + 1)", typeCode: type.code,
                                     typeDescription: type.description)
        }
        let airline = airlines[String(callsign.prefix(3))] ?? ("N", 0, [b738, a320])
        let types = airline.types
        let draw = rng.next()
        let type = draw % 2 == 0 ? types[0] : types[Int((draw >> 1) % UInt64(types.count))]
        var registration: String
        if let computed {
            registration = computed
        } else if airline.letters == 0 {
            registration = "N\(100 + address % 900)\(Character(UnicodeScalar(UInt8(65 + rng.next() % 26))))\(Character(UnicodeScalar(UInt8(65 + rng.next() % 26))))"
        } else {
            registration = airline.prefix
            for _ in 0..<airline.letters { registration.append(Character(UnicodeScalar(UInt8(65 + rng.next() % 26)))) }
        }
        return SimulatedIdentity(registration: registration, typeCode: type.code, typeDescription: type.description)
    }
}
