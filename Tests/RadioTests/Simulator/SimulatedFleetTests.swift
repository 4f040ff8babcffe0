import ModeS
import Testing
@testable import Radio

/// The simulator's built-in fleet (issues 26 and 27): every simulated aircraft has a
/// registration and a type its airline really flies, the same for the same sky.
struct SimulatedFleetTests {
    static let sky = Sky(configuration: SkyConfiguration(seed: 11, aircraftCount: 200))

    @Test("every aircraft of a sky has a registration, a type code and a description")
    func everyAircraftHasAnIdentity() {
        for plane in Self.sky.aircraft {
            let id = SimulatedFleet.identity(of: plane)
            #expect(!id.registration.isEmpty && id.typeCode.count == 4 && !id.typeDescription.isEmpty, "\(plane.callsign)")
        }
    }

    @Test("airliners fly their airline's types under their country's prefix; light aircraft are GA singles with their N-number")
    func typesFitTheOperator() throws {
        var seenTypes = Set<String>()
        for plane in Self.sky.aircraft {
            let id = SimulatedFleet.identity(of: plane)
            seenTypes.insert(id.typeCode)
            if plane.kind == .light {
                #expect(SimulatedFleet.light.map(\.code).contains(id.typeCode))
                #expect(id.registration == Registration.fromAddress(plane.address), "the N-number the address encodes")
                #expect(plane.callsign == id.registration.replacingOccurrences(of: "-", with: ""))
                continue
            }
            let airline = try #require(SimulatedFleet.airlines[String(plane.callsign.prefix(3))], "\(plane.callsign)")
            #expect(airline.types.map(\.code).contains(id.typeCode), "\(plane.callsign) flies \(id.typeCode)")
            if let computed = Registration.fromAddress(plane.address) {
                #expect(id.registration == computed, "the registration the address encodes")
            } else {
                #expect(id.registration.hasPrefix(airline.prefix), "\(plane.callsign) \(id.registration)")
            }
        }
        #expect(seenTypes.isSuperset(of: ["B738", "A320"]), "a 200-aircraft sky has 737-800s and A320s to count")
    }

    @Test("the identity follows from the aircraft alone: the same sky gives the same fleet")
    func deterministic() {
        let again = Sky(configuration: SkyConfiguration(seed: 11, aircraftCount: 200))
        #expect(again.aircraft.map(SimulatedFleet.identity(of:)) == Self.sky.aircraft.map(SimulatedFleet.identity(of:)))
    }
}
