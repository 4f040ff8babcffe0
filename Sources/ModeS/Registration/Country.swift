/// The State of registry an ICAO 24-bit aircraft address was allocated to.
public struct Country: Hashable, Sendable {
    /// Short English name, such as "United Kingdom".
    public let name: String
    /// ISO 3166-1 alpha-2 code, such as "GB".
    public let iso2: String

    public init(name: String, iso2: String) {
        self.name = name
        self.iso2 = iso2
    }
}
