/// A catalogue field with the Swift type of its value: `fields.altBaro` (an `Int?`) is
/// `fields[FieldKeys().altBaro]`, through `@dynamicMemberLookup` on `FieldSet` and on the
/// aircraft table's `Aircraft`.
public struct FieldKey<Value: FieldValue>: Sendable {
    public let field: Field

    /// A key of `field`, whose declared type must be `Value` (checked in debug builds, so a
    /// typed name that disagrees with its declaration fails the first test that uses it).
    @inlinable public init(_ field: Field) {
        assert(field.declaration.type == Value.self, "FieldKeys names \(field) with a type its declaration does not give")
        self.field = field
    }
}

/// The typed name of every catalogue field (the declarations are `Field.declaration`).
public struct FieldKeys: Sendable {
    public init() {}

    public var flight: FieldKey<String> { .init(.flight) }
    public var altBaro: FieldKey<Int> { .init(.altBaro) }
    public var altGeom: FieldKey<Int> { .init(.altGeom) }
    public var geomDelta: FieldKey<Int> { .init(.geomDelta) }
    public var gs: FieldKey<Double> { .init(.gs) }
    public var ias: FieldKey<Int> { .init(.ias) }
    public var tas: FieldKey<Int> { .init(.tas) }
    public var mach: FieldKey<Double> { .init(.mach) }
    public var track: FieldKey<Double> { .init(.track) }
    public var trackRate: FieldKey<Double> { .init(.trackRate) }
    public var roll: FieldKey<Double> { .init(.roll) }
    public var magHeading: FieldKey<Double> { .init(.magHeading) }
    public var trueHeading: FieldKey<Double> { .init(.trueHeading) }
    public var baroRate: FieldKey<Int> { .init(.baroRate) }
    public var geomRate: FieldKey<Int> { .init(.geomRate) }
    public var squawk: FieldKey<UInt16> { .init(.squawk) }
    public var emergency: FieldKey<Emergency> { .init(.emergency) }
    public var category: FieldKey<EmitterCategory> { .init(.category) }
    public var navQNH: FieldKey<Double> { .init(.navQNH) }
    public var navAltitudeMCP: FieldKey<Int> { .init(.navAltitudeMCP) }
    public var navAltitudeFMS: FieldKey<Int> { .init(.navAltitudeFMS) }
    public var navHeading: FieldKey<Double> { .init(.navHeading) }
    public var navModes: FieldKey<NavModes> { .init(.navModes) }
    public var lat: FieldKey<Double> { .init(.lat) }
    public var lon: FieldKey<Double> { .init(.lon) }
    public var nic: FieldKey<Int> { .init(.nic) }
    public var cprFormat: FieldKey<CPRFormat> { .init(.cprFormat) }
    public var cprLat: FieldKey<Int> { .init(.cprLat) }
    public var cprLon: FieldKey<Int> { .init(.cprLon) }
    public var onGround: FieldKey<Bool> { .init(.onGround) }
    public var version: FieldKey<Int> { .init(.version) }
    public var nicBaro: FieldKey<Int> { .init(.nicBaro) }
    public var nacP: FieldKey<Int> { .init(.nacP) }
    public var nacV: FieldKey<Int> { .init(.nacV) }
    public var sil: FieldKey<Int> { .init(.sil) }
    public var silType: FieldKey<SILType> { .init(.silType) }
    public var gva: FieldKey<Int> { .init(.gva) }
    public var sda: FieldKey<Int> { .init(.sda) }
    public var alert: FieldKey<Bool> { .init(.alert) }
    public var spi: FieldKey<Bool> { .init(.spi) }
    public var windSpeed: FieldKey<Int> { .init(.windSpeed) }
    public var windDirection: FieldKey<Double> { .init(.windDirection) }
    public var oat: FieldKey<Double> { .init(.oat) }
    public var staticPressure: FieldKey<Int> { .init(.staticPressure) }
    public var humidity: FieldKey<Double> { .init(.humidity) }
    public var ca: FieldKey<Int> { .init(.ca) }
    public var fs: FieldKey<Int> { .init(.fs) }
    public var dr: FieldKey<Int> { .init(.dr) }
    public var um: FieldKey<Int> { .init(.um) }
    public var vs: FieldKey<Int> { .init(.vs) }
    public var iid: FieldKey<Int> { .init(.iid) }
    public var signal: FieldKey<Double> { .init(.signal) }
}
