import ModeS

/// One aircraft of the table: every field with its value, time and source, plus
/// bookkeeping and the values derived for display. In a `TableSnapshot` expired fields are
/// already nil and the derived values (distance, bearing, registration, airline) are set.
///
/// Units as DESIGN.md: ft, kt, degrees, ft/min, hPa, °C.
@dynamicMemberLookup
public struct Aircraft: Sendable {
    public let key: AircraftKey
    /// The kind of address of the best recent source (aircraft.json `type`).
    public internal(set) var addressType: Tracked<AddressType>
    public internal(set) var firstSeen: Double
    public internal(set) var lastSeen: Double
    /// Messages received from this aircraft.
    public internal(set) var messages: Int = 0
    /// Enough messages arrived close enough together (see `TableConfiguration.reliableAfter`).
    public internal(set) var reliable = false
    /// The receivers of a network that hear this aircraft, and how (empty for frames of
    /// the local radio, which come with no `Hearing`).
    public internal(set) var heardBy: [ReceiverID: ReceiverHearing] = [:]

    /// The catalogue fields the table keeps (`Field.declaration.kept`), each with the time
    /// and source of its value: one slot a field, numbered as the catalogue numbers them.
    /// Read and written as `aircraft.altBaro` (a `Tracked<Int>?`) through
    /// `subscript(dynamicMember:)`.
    @usableFromInline var presence: UInt64 = 0
    @usableFromInline var fieldSlots = InlineArray<56, FieldSlot>(repeating: FieldSlot())
    @usableFromInline var fieldSources = InlineArray<56, DataSource>(repeating: .commB)

    /// Whether `position` came from a surface position message.
    public internal(set) var positionOnSurface = false

    // Derived (set when the aircraft becomes reliable, and in snapshots)
    /// Aircraft database entry, if the table has a database and it knows the address.
    public internal(set) var info: AircraftInfo?
    /// Registration: the database's, else computed from the ICAO address when possible.
    public internal(set) var registration: String?
    /// Airline name from the callsign's ICAO designator (snapshots only).
    public internal(set) var airline: String?
    /// Great-circle distance (NM) and initial bearing (degrees true) from the receiver
    /// (snapshots only, when the receiver position is configured and a position is known).
    public internal(set) var distance: Double?
    public internal(set) var bearing: Double?

    // Internal state
    var recentMessages: Int32 = 0
    var signalPowers = SIMD8<Float>(repeating: 0)
    var signalCount: UInt8 = 0
    var signalNext: UInt8 = 0
    var cpr = CPRState()
    var nicSupplementA: Bool?
    var nicSupplementC: Bool?
    var infoLooked = false

    init(key: AircraftKey, type: AddressType, source: DataSource, time: Double) {
        self.key = key
        addressType = Tracked(type, time: time, source: source)
        firstSeen = time
        lastSeen = time
    }

    /// The 24-bit address.
    public var address: UInt32 { key.address }

    /// A catalogue field's value, with its time and source; nil when the table has none.
    @inlinable @inline(__always)
    public internal(set) subscript<V>(key: FieldKey<V>) -> Tracked<V>? {
        get {
            let i = Int(key.field.rawValue)
            guard fieldPresence & key.field.bit != 0 else { return nil }
            let slot = fieldSlots.span[i]
            return Tracked(V(fieldBits: slot.bits), time: slot.time, source: fieldSources.span[i])
        }
        set {
            let i = Int(key.field.rawValue)
            if let newValue {
                fieldSlots[i] = FieldSlot(bits: newValue.value.fieldBits, time: newValue.time)
                fieldSources[i] = newValue.source
                presence |= key.field.bit
            } else {
                presence &= ~key.field.bit
            }
        }
    }

    /// The presence bits of the fields the table has (`Field.bit`).
    @inlinable public var fieldPresence: UInt64 { presence }

    /// The slot of a field the table has, as stored (`FieldValue.fieldBits`).
    @inlinable @inline(__always)
    public func bits(of field: Field) -> UInt64? {
        fieldPresence & field.bit != 0 ? fieldSlots.span[Int(field.rawValue)].bits : nil
    }

    /// The fields whose current value came from `source`, as presence bits (`Field.bit`).
    public func fields(from source: DataSource) -> UInt64 {
        var found: UInt64 = 0
        var kept = fieldPresence
        while kept != 0 {
            let i = kept.trailingZeroBitCount
            kept &= kept &- 1
            if fieldSources.span[i] == source { found |= 1 &<< UInt64(i) }
        }
        return found
    }

    /// A catalogue field by its name in `FieldKeys` (`aircraft.altBaro`).
    @inlinable @inline(__always)
    public internal(set) subscript<V>(dynamicMember name: KeyPath<FieldKeys, FieldKey<V>>) -> Tracked<V>? {
        get { self[FieldKeys()[keyPath: name]] }
        set { self[FieldKeys()[keyPath: name]] = newValue }
    }

    /// The last accepted position (decoded, plausible): the `lat` and `lon` fields.
    @inlinable @inline(__always)
    public internal(set) var position: Tracked<Coordinate>? {
        get {
            guard let lat = self.lat, let lon = self.lon else { return nil }
            return Tracked(Coordinate(latitude: lat.value, longitude: lon.value), time: lat.time, source: lat.source)
        }
        set {
            self.lat = newValue.map { Tracked($0.value.latitude, time: $0.time, source: $0.source) }
            self.lon = newValue.map { Tracked($0.value.longitude, time: $0.time, source: $0.source) }
        }
    }

    /// Radius of containment (m) of the accepted position, from its NIC.
    @inlinable
    public var rc: Tracked<Int>? {
        guard let nic = self.nic, let radius = Self.containmentRadius(nic: nic.value) else { return nil }
        return Tracked(radius, time: nic.time, source: nic.source)
    }

    /// Mean signal level of the last (up to 8) messages, dBFS, or nil when none had a level.
    public var rssi: Double? {
        guard signalCount > 0 else { return nil }
        var sum: Float = 0
        for i in 0..<Int(signalCount) { sum += signalPowers[i] }
        let mean = Double(sum) / Double(signalCount)
        guard mean > 0 else { return nil }
        return 10 * Decibels.log10(mean)
    }

    /// Seconds since the last message.
    public func seen(at now: Double) -> Double { now - lastSeen }

    /// Barometric altitude unless the aircraft is on the ground (aircraft.json writes
    /// `"ground"` then).
    @inlinable public var isOnGround: Bool { self.onGround?.value ?? false }

    /// The squawk as 4 octal digits.
    public var squawkString: String? { self.squawk.map { Squawk.string($0.value) } }
}

/// A kept field's value (`FieldValue.fieldBits`) and the time it was received; its
/// source is kept beside the slots (`Aircraft.fieldSources`), one byte each.
@usableFromInline
struct FieldSlot: Sendable {
    @usableFromInline var bits: UInt64 = 0
    @usableFromInline var time: Double = 0
    @usableFromInline init(bits: UInt64 = 0, time: Double = 0) {
        self.bits = bits
        self.time = time
    }
}

/// The even and odd halves waiting for a partner, and the last rejected global position.
struct CPRState: Sendable {
    struct Half: Sendable {
        var position: CPRPosition
        var time: Double
        var surface: Bool
        var source: DataSource
    }

    var even: Half?
    var odd: Half?
    /// A global result that failed the speed check: if the next global result agrees with
    /// it, the track was wrong, not the new positions.
    var rejected: Coordinate?
    var rejectedTime: Double = 0

    mutating func clearHalves() {
        even = nil
        odd = nil
    }
}
