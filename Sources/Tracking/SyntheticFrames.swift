import Foundation
import ModeS

/// Builds valid Mode S frames from values (the inverse of the decoders), for the table
/// benchmark and for tests: extended squitters (identification, airborne and surface
/// position, velocity) and surveillance replies, with correct parity. A convenience layer
/// over the encoders in `ModeS` (`Sources/ModeS/Encoding`), taking plain numbers.
///
/// Field layouts as the decoders document them (DO-260B §2.2.3.2, Annex 10 Vol IV
/// §3.1.2.6); ME/MB bits are numbered 1…56.
public enum SyntheticFrames {
    /// A BDS 2,0 (aircraft identification) MB field for a callsign.
    public static func bds20(_ callsign: String) -> UInt64 {
        let me = identification(address: 0, callsign: callsign).messageField.value
        return (me & 0x0000_FFFF_FFFF_FFFF) | (0x20 << 48)
    }

    /// A DF17 (or DF18 with control field `cf`) frame around a 56-bit ME field
    /// (`Frame.extendedSquitter`; DF18 has the same layout with CF in place of CA).
    public static func squitter(address: UInt32, me: UInt64, df: Int = 17, ca: Int = 5) -> Frame {
        if df == 17 { return Frame.extendedSquitter(address: address, capability: ca, me: MessageField(me)) }
        var data = UInt128(df & 31) << 123
        data |= UInt128(ca & 7) << 120
        data |= UInt128(address & 0xFF_FFFF) << 96
        data |= UInt128(MessageField(me).value) << 40
        return Frame.sealing(data, bitCount: Frame.longBits, overlay: 0)
    }

    /// Sets ME bits `first…last` (1-based, MSB first) of `field` to `value`
    /// (`MessageField.setting`).
    static func set(_ field: inout UInt64, _ first: Int, _ last: Int, _ value: UInt64) {
        field = MessageField(field).setting(first, last, to: value).value
    }

    /// TC 1–4 identification: callsign (up to 8 of A–Z, 0–9, space) and category.
    public static func identification(address: UInt32, callsign: String, typeCode: Int = 4, category: Int = 3, df: Int = 17, ca: Int = 5) -> Frame {
        var me: UInt64 = 0
        set(&me, 1, 5, UInt64(typeCode))
        set(&me, 6, 8, UInt64(category))
        // Eight characters; any the callsign alphabet lacks become spaces (`Callsign.encode`).
        let chars = Array(callsign.utf8.prefix(8)).map { Callsign.code($0) == nil ? UInt8(ascii: " ") : $0 }
        let padded = String(decoding: chars + Array(repeating: UInt8(ascii: " "), count: 8 - chars.count), as: UTF8.self)
        set(&me, 9, 56, Callsign.encode(padded) ?? 0)
        return squitter(address: address, me: me, df: df, ca: ca)
    }

    /// The AC12 altitude code (`Altitude.ac12(feet:)`: 25 ft steps to 50175 ft, Gillham
    /// above); 0 ("no altitude") where none exists.
    public static func ac12(altitude: Int) -> UInt64 { UInt64(Altitude.ac12(feet: altitude) ?? 0) }

    /// The AC13 altitude code (`Altitude.ac13(feet:)`); 0 where none exists.
    public static func ac13(altitude: Int) -> UInt64 { UInt64(Altitude.ac13(feet: altitude) ?? 0) }

    /// TC 9–18 airborne position with barometric altitude.
    public static func airbornePosition(address: UInt32, position: Coordinate, altitude: Int, format: CPRFormat,
                                        typeCode: Int = 11, df: Int = 17, cf: Int = 5) -> Frame {
        let cpr = CPR.encode(position, format: format, surface: false) ?? CPRPosition(format: format, lat: 0, lon: 0)
        return airbornePosition(address: address, cpr: cpr, altitude: altitude, typeCode: typeCode, df: df, cf: cf)
    }

    /// TC 9–18 airborne position from raw CPR fields.
    public static func airbornePosition(address: UInt32, cpr: CPRPosition, altitude: Int, typeCode: Int = 11,
                                        df: Int = 17, cf: Int = 5) -> Frame {
        var me: UInt64 = 0
        set(&me, 1, 5, UInt64(typeCode))
        set(&me, 9, 20, ac12(altitude: altitude))
        set(&me, 22, 22, cpr.format == .odd ? 1 : 0)
        set(&me, 23, 39, UInt64(cpr.lat))
        set(&me, 40, 56, UInt64(cpr.lon))
        return squitter(address: address, me: me, df: df, ca: cf)
    }

    /// TC 5–8 surface position. `movement` is the DO-260B movement code (e.g. 1 stopped,
    /// 13 + 2·(kt − 2) for 2–14.5 kt); `track` in degrees or nil.
    public static func surfacePosition(address: UInt32, position: Coordinate, format: CPRFormat, movement: Int = 1,
                                       track: Double? = nil, typeCode: Int = 7) -> Frame {
        let cpr = CPR.encode(position, format: format, surface: true) ?? CPRPosition(format: format, lat: 0, lon: 0)
        var me: UInt64 = 0
        set(&me, 1, 5, UInt64(typeCode))
        set(&me, 6, 12, UInt64(movement))
        if let track {
            set(&me, 13, 13, 1)
            set(&me, 14, 20, UInt64(Int((track / 360 * 128).rounded()) & 127))
        }
        set(&me, 22, 22, format == .odd ? 1 : 0)
        set(&me, 23, 39, UInt64(cpr.lat))
        set(&me, 40, 56, UInt64(cpr.lon))
        return squitter(address: address, me: me, ca: 4)
    }

    /// TC 19 subtype 1 velocity over ground (kt, degrees, ft/min barometric).
    public static func velocity(address: UInt32, groundSpeed: Double, track: Double, verticalRate: Int = 0,
                                df: Int = 17, cf: Int = 5) -> Frame {
        let radians = track * Double.pi / 180
        let east = groundSpeed * sin(radians)
        let north = groundSpeed * cos(radians)
        var me: UInt64 = 0
        set(&me, 1, 5, 19)
        set(&me, 6, 8, 1)
        set(&me, 14, 14, east < 0 ? 1 : 0)
        set(&me, 15, 24, UInt64(min(1022, Int(east.magnitude.rounded()))) + 1)
        set(&me, 25, 25, north < 0 ? 1 : 0)
        set(&me, 26, 35, UInt64(min(1022, Int(north.magnitude.rounded()))) + 1)
        set(&me, 36, 36, 1)
        set(&me, 37, 37, verticalRate < 0 ? 1 : 0)
        set(&me, 38, 46, UInt64(min(510, verticalRate.magnitude / 64)) + 1)
        return squitter(address: address, me: me, df: df, ca: cf)
    }

    /// DF4 surveillance altitude reply (AP = parity ⊕ address).
    public static func surveillanceAltitude(address: UInt32, altitude: Int, flightStatus: Int = 0) -> Frame {
        Frame.surveillanceAltitude(address: address, altitude: altitude, flightStatus: flightStatus)
    }

    /// DF5 surveillance identity reply.
    public static func surveillanceIdentity(address: UInt32, squawk: UInt16, flightStatus: Int = 0) -> Frame {
        Frame.surveillanceIdentity(address: address, squawk: squawk, flightStatus: flightStatus)
    }

    /// DF11 all-call reply (interrogator code 0).
    public static func allCall(address: UInt32, ca: Int = 5) -> Frame {
        Frame.allCall(address: address, capability: ca)
    }

    /// DF20 (altitude) or DF21 (identity) Comm-B reply with a 56-bit MB field.
    public static func commB(address: UInt32, df: Int = 20, altitude: Int = 0, squawk: UInt16 = 0, mb: UInt64) -> Frame {
        df == 20
            ? Frame.commBAltitude(address: address, altitude: altitude, mb: MessageField(mb))
            : Frame.commBIdentity(address: address, squawk: squawk, mb: MessageField(mb))
    }

    /// The 13-bit identity field of a 12-bit code (`Squawk.id13`).
    public static func id13(squawk code: UInt16) -> UInt64 { UInt64(Squawk.id13(code)) }
}
