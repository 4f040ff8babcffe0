/// A value the field catalogue can hold: it packs into the 64 bits of one storage slot
/// (so `FieldSet` and the aircraft table store every field alike, without allocating) and
/// says how it is written as JSON.
public protocol FieldValue: Sendable {
    /// The value from its slot's bits (as `fieldBits` wrote them).
    init(fieldBits: UInt64)
    /// The value packed into a slot.
    var fieldBits: UInt64 { get }
    /// The value as JSON writes it (before an output's own style, `AircraftJSONStyle`).
    var fieldJSON: FieldJSON { get }
}

/// A field's value as JSON has it.
public enum FieldJSON: Sendable, Equatable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case strings([String])
}

extension Int: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = Int(truncatingIfNeeded: Int64(bitPattern: fieldBits)) }
    @inlinable public var fieldBits: UInt64 { UInt64(bitPattern: Int64(self)) }
    public var fieldJSON: FieldJSON { .int(self) }
}

extension Double: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = Double(bitPattern: fieldBits) }
    @inlinable public var fieldBits: UInt64 { bitPattern }
    public var fieldJSON: FieldJSON { .double(self) }
}

extension Bool: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = fieldBits != 0 }
    @inlinable public var fieldBits: UInt64 { self ? 1 : 0 }
    public var fieldJSON: FieldJSON { .bool(self) }
}

/// A callsign: its slot holds it packed (`Callsign.pack`), so storing one never allocates.
extension String: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = Callsign.unpack(fieldBits) }
    @inlinable public var fieldBits: UInt64 { Callsign.pack(self) }
    public var fieldJSON: FieldJSON { .string(self) }
}

/// A Mode A code (the catalogue's only `UInt16`): 12 bits, written as 4 octal digits.
extension UInt16: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = UInt16(truncatingIfNeeded: fieldBits) }
    @inlinable public var fieldBits: UInt64 { UInt64(self) }
    public var fieldJSON: FieldJSON { .string(Squawk.string(self)) }
}

extension Emergency: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = Emergency(rawValue: Int(fieldBits & 7)) ?? .reserved }
    @inlinable public var fieldBits: UInt64 { UInt64(rawValue) }
    public var fieldJSON: FieldJSON { .string(description) }
}

extension EmitterCategory: FieldValue {
    public init(fieldBits: UInt64) {
        self = EmitterCategory(typeCode: Int(fieldBits >> 8 & 0xFF), category: Int(fieldBits & 0xFF))
            ?? EmitterCategory(typeCode: 4, category: 0)!
    }
    public var fieldBits: UInt64 { UInt64(typeCode) << 8 | UInt64(number) }
    public var fieldJSON: FieldJSON { .string(description) }
}

extension NavModes: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self.init(rawValue: UInt8(truncatingIfNeeded: fieldBits)) }
    @inlinable public var fieldBits: UInt64 { UInt64(rawValue) }
    public var fieldJSON: FieldJSON { .strings(names) }
}

extension SILType: FieldValue {
    public init(fieldBits: UInt64) {
        switch fieldBits { case 1: self = .perhour; case 2: self = .persample; default: self = .unknown }
    }
    public var fieldBits: UInt64 {
        switch self { case .unknown: 0; case .perhour: 1; case .persample: 2 }
    }
    public var fieldJSON: FieldJSON { .string(rawValue) }
}

extension CPRFormat: FieldValue {
    @inlinable public init(fieldBits: UInt64) { self = fieldBits == 0 ? .even : .odd }
    @inlinable public var fieldBits: UInt64 { self == .even ? 0 : 1 }
    public var fieldJSON: FieldJSON { .string(rawValue) }
}
