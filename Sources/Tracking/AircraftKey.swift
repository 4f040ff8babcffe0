import ModeS

/// The table's key: a 24-bit address and whether it is an ICAO aircraft address. Non-ICAO
/// addresses (anonymous DF18, TIS-B track numbers) live apart from ICAO addresses with the
/// same digits, and are written with a `~` in front (`~3a2b4c`), as readsb does.
public struct AircraftKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 24-bit address.
    public let address: UInt32
    /// True for ICAO 24-bit aircraft addresses.
    public let isICAO: Bool

    public init(address: UInt32, isICAO: Bool = true) {
        self.address = address & 0xFF_FFFF
        self.isICAO = isICAO
    }

    public init(address: UInt32, type: AddressType) {
        self.init(address: address, isICAO: type.isICAO)
    }

    /// One integer per key: the address with bit 24 set for non-ICAO addresses.
    @inlinable
    public var packed: UInt32 { isICAO ? address : address | 0x100_0000 }

    /// 6 lowercase hex digits, `~` first for a non-ICAO address (aircraft.json `hex`).
    public var hex: String {
        let digits = Frame.hexString(UInt128(address), digits: 6, uppercase: false)
        return isICAO ? digits : "~" + digits
    }

    public var description: String { hex }

    /// Parses `hex` (6 hex digits, either case, optional `~` for non-ICAO). Nil otherwise.
    public init?(hex: some StringProtocol) {
        var text = Substring(hex)
        var icao = true
        if text.first == "~" { icao = false; text = text.dropFirst() }
        guard text.utf8.count == 6,
              text.utf8.allSatisfy({ Frame.hexValue($0) != nil }),
              let value = UInt32(text, radix: 16)
        else { return nil }
        self.init(address: value, isICAO: icao)
    }

    public static func < (a: AircraftKey, b: AircraftKey) -> Bool { a.packed < b.packed }
}
