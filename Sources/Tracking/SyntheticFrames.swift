import Foundation
import ModeS

/// Builds valid Mode S frames from values (the inverse of the decoders), for the table
/// benchmark and for tests: extended squitters (identification, airborne and surface
/// position, velocity) and surveillance replies, with correct parity.
///
/// Field layouts as the decoders document them (DO-260B §2.2.3.2, Annex 10 Vol IV
/// §3.1.2.6); ME/MB bits are numbered 1…56.
public enum SyntheticFrames {
    /// A DF17 (or DF18 with control field `cf`) frame around a 56-bit ME field.
    public static func squitter(address: UInt32, me: UInt64, df: Int = 17, ca: Int = 5) -> Frame {
        var raw = UInt128(df & 31) << 123
        raw |= UInt128(ca & 7) << 120
        raw |= UInt128(address & 0xFF_FFFF) << 96
        raw |= UInt128(me & 0x00FF_FFFF_FFFF_FFFF) << 40
        raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 112)) << 16
        return Frame(raw: raw, bitCount: 112)!
    }

    /// Sets ME bits `first…last` (1-based, MSB first) of `field` to `value`.
    static func set(_ field: inout UInt64, _ first: Int, _ last: Int, _ value: UInt64) {
        let width = UInt64(last - first + 1)
        let mask: UInt64 = width >= 64 ? .max : (1 << width) - 1
        let shift = UInt64(56 - last)
        field = (field & ~(mask << shift)) | ((value & mask) << shift)
    }

    /// TC 1–4 identification: callsign (up to 8 of A–Z, 0–9, space) and category.
    public static func identification(address: UInt32, callsign: String, typeCode: Int = 4, category: Int = 3, df: Int = 17, ca: Int = 5) -> Frame {
        var me: UInt64 = 0
        set(&me, 1, 5, UInt64(typeCode))
        set(&me, 6, 8, UInt64(category))
        let chars = Array(callsign.utf8.prefix(8)) + Array(repeating: UInt8(ascii: " "), count: max(0, 8 - callsign.utf8.count))
        for (i, c) in chars.enumerated() {
            let code: UInt64
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): code = UInt64(c - 64)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): code = UInt64(c)
            default: code = 32
            }
            set(&me, 9 + 6 * i, 14 + 6 * i, code)
        }
        return squitter(address: address, me: me, df: df, ca: ca)
    }

    /// The AC12 altitude code in 25 ft steps (Q = 1), −1000 … 50175 ft.
    public static func ac12(altitude: Int) -> UInt64 {
        let n = UInt64(max(0, min(2047, (altitude + 1000) / 25)))
        return (n >> 4) << 5 | 0x10 | (n & 0xF)
    }

    /// The AC13 altitude code in 25 ft steps (M = 0, Q = 1).
    public static func ac13(altitude: Int) -> UInt64 {
        let n = UInt64(max(0, min(2047, (altitude + 1000) / 25)))
        return (n >> 5) << 7 | ((n >> 4) & 1) << 5 | 0x10 | (n & 0xF)
    }

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
        var raw = UInt128(4) << 123
        raw |= UInt128(flightStatus & 7) << 120
        raw |= UInt128(ac13(altitude: altitude)) << 96
        return shortReply(raw, address: address)
    }

    /// DF5 surveillance identity reply.
    public static func surveillanceIdentity(address: UInt32, squawk: UInt16, flightStatus: Int = 0) -> Frame {
        var raw = UInt128(5) << 123
        raw |= UInt128(flightStatus & 7) << 120
        raw |= UInt128(id13(squawk: squawk)) << 96
        return shortReply(raw, address: address)
    }

    /// DF11 all-call reply (interrogator code 0).
    public static func allCall(address: UInt32, ca: Int = 5) -> Frame {
        var raw = UInt128(11) << 123
        raw |= UInt128(ca & 7) << 120
        raw |= UInt128(address & 0xFF_FFFF) << 96
        raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 56)) << 72
        return Frame(raw: raw, bitCount: 56)!
    }

    /// DF20/21 Comm-B reply with a 56-bit MB field.
    public static func commB(address: UInt32, df: Int = 20, altitude: Int = 0, squawk: UInt16 = 0, mb: UInt64) -> Frame {
        var raw = UInt128(df & 31) << 123
        raw |= UInt128(df == 20 ? ac13(altitude: altitude) : id13(squawk: squawk)) << 96
        raw |= UInt128(mb & 0x00FF_FFFF_FFFF_FFFF) << 40
        raw |= UInt128(CRC24.parity(forDataOf: raw, bitCount: 112) ^ (address & 0xFF_FFFF)) << 16
        return Frame(raw: raw, bitCount: 112)!
    }

    static func shortReply(_ data: UInt128, address: UInt32) -> Frame {
        let parity = CRC24.parity(forDataOf: data, bitCount: 56) ^ (address & 0xFF_FFFF)
        return Frame(raw: data | UInt128(parity) << 72, bitCount: 56)!
    }

    /// The 13-bit identity field C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4 of a 12-bit code.
    public static func id13(squawk code: UInt16) -> UInt64 {
        let a = UInt64(code >> 9 & 7), b = UInt64(code >> 6 & 7), c = UInt64(code >> 3 & 7), d = UInt64(code & 7)
        func bit(_ digit: UInt64, _ weight: UInt64) -> UInt64 { (digit >> weight) & 1 }
        let bits: [UInt64] = [bit(c, 0), bit(a, 0), bit(c, 1), bit(a, 1), bit(c, 2), bit(a, 2), 0,
                              bit(b, 0), bit(d, 0), bit(b, 1), bit(d, 1), bit(b, 2), bit(d, 2)]
        return bits.reduce(0) { $0 << 1 | $1 }
    }
}
