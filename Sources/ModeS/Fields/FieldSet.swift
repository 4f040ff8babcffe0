/// The flat set of decoded values of one message: the message's header (address, format,
/// register, CRC outcome) and the catalogue fields (`Field`) it carries, keyed as DESIGN.md
/// and readsb's `aircraft.json` name them. Every decoder contributes the fields its message
/// carries (`fields.altBaro = 35000`); a field is nil when the message does not carry it.
/// The `decode` command, the HTTP API and the aircraft table all read it.
///
/// Storage is one 64-bit slot a field, numbered as the catalogue numbers fields, plus a
/// presence bit each: a fixed-size plain-old-data value that copies with one memcpy and never
/// allocates. A slot is zeroed when its field is cleared, so equality compares what is set.
@dynamicMemberLookup
public struct FieldSet: Hashable, Sendable {
    /// 24-bit address (ICAO or other, see `addressType`).
    public var address: UInt32?
    /// What kind of address `address` is.
    public var addressType: AddressType?
    /// Downlink format.
    public var df: Int?
    /// ADS-B format type code.
    public var tc: Int?
    /// The register the message carries (ADS-B messages map to their BDS too).
    public var bds: BDS?
    /// How the frame passed its parity check.
    public var crc: CRCOutcome?

    /// The presence bits of the catalogue fields (`Field.bit`).
    @inlinable public var present: UInt64 { presence }
    @usableFromInline var presence: UInt64 = 0
    @usableFromInline var slots = InlineArray<56, UInt64>(repeating: 0)

    public init() {}

    /// A field's value.
    @inlinable
    public subscript<V>(key: FieldKey<V>) -> V? {
        get { present & key.field.bit != 0 ? V(fieldBits: slots.span[Int(key.field.rawValue)]) : nil }
        set {
            let i = Int(key.field.rawValue)
            if let newValue { slots[i] = newValue.fieldBits; presence |= key.field.bit } else { slots[i] = 0; presence &= ~key.field.bit }
        }
    }

    /// A field's value by its name in `FieldKeys` (`fields.altBaro`).
    @inlinable
    public subscript<V>(dynamicMember name: KeyPath<FieldKeys, FieldKey<V>>) -> V? {
        get { self[FieldKeys()[keyPath: name]] }
        set { self[FieldKeys()[keyPath: name]] = newValue }
    }

    /// Whether the message carries `field`.
    @inlinable public func contains(_ field: Field) -> Bool { present & field.bit != 0 }

    /// The slot of a field that is present, as stored (`FieldValue.fieldBits`).
    @inlinable
    public func bits(of field: Field) -> UInt64? { contains(field) ? slots.span[Int(field.rawValue)] : nil }

    /// Slot `index` as stored (0 when its field is absent).
    @inlinable public func slot(_ index: Int) -> UInt64 { slots.span[index] }

    /// Sets a field from its slot's bits (`FieldValue.fieldBits`), for code that handles
    /// every field alike.
    @inlinable
    public mutating func set(_ field: Field, bits: UInt64) {
        slots[Int(field.rawValue)] = bits
        presence |= field.bit
    }

    /// A present field's value as JSON writes it.
    public func json(of field: Field) -> FieldJSON? {
        bits(of: field).map { field.declaration.type.init(fieldBits: $0).fieldJSON }
    }

    /// Sets `flight` from a callsign packed by `Callsign.pack` / `Callsign.decodePacked`.
    @inlinable
    public mutating func setFlight(packed: UInt64) {
        slots[Int(Field.flight.rawValue)] = packed
        presence |= Field.flight.bit
    }

    public static func == (a: FieldSet, b: FieldSet) -> Bool {
        guard a.present == b.present, a.address == b.address, a.addressType == b.addressType, a.df == b.df,
              a.tc == b.tc, a.bds == b.bds, a.crc == b.crc else { return false }
        for i in 0..<Field.capacity where a.slots[i] != b.slots[i] { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(present)
        hasher.combine(address)
        hasher.combine(df)
        hasher.combine(tc)
        for i in 0..<Field.capacity where present & (1 << UInt64(i)) != 0 { hasher.combine(slots[i]) }
    }
}
