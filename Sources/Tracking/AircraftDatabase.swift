import ModeS
/// An aircraft database the table asks once per aircraft, when the aircraft becomes
/// reliable (the `Store` module's SQLite database is one; the CLI connects them). Lookups
/// run on the table's task: implementations should answer in well under a millisecond.
public protocol AircraftDatabase: Sendable {
    /// The entry for an ICAO address, or nil.
    func info(address: UInt32) -> AircraftInfo?
    /// The ICAO addresses registered as `registration` (compared without `-` and case).
    func addresses(registration: String) -> [UInt32]
}

/// An in-memory database, for tests and benchmarks.
public struct DictionaryAircraftDatabase: AircraftDatabase {
    public var entries: [UInt32: AircraftInfo]

    public init(_ entries: [UInt32: AircraftInfo] = [:]) {
        self.entries = entries
    }

    public func info(address: UInt32) -> AircraftInfo? { entries[address] }

    public func addresses(registration: String) -> [UInt32] {
        let wanted = RegistrationKey.normalize(registration)
        return entries.filter { $0.value.registration.map(RegistrationKey.normalize) == wanted }.map(\.key).sorted()
    }
}

/// Several databases asked in order: the first that knows an address answers (the
/// simulator's fleet before the imported database, say).
public struct StackedAircraftDatabase: AircraftDatabase {
    public let layers: [any AircraftDatabase]

    public init(_ layers: [any AircraftDatabase]) {
        self.layers = layers
    }

    public func info(address: UInt32) -> AircraftInfo? {
        for layer in layers { if let info = layer.info(address: address) { return info } }
        return nil
    }

    public func addresses(registration: String) -> [UInt32] {
        Array(Set(layers.flatMap { $0.addresses(registration: registration) })).sorted()
    }
}
