/// Building frames to transmit (the simulator, tests): the data fields of each downlink
/// format, then the parity field computed with `CRC24` and overlaid as the format requires
/// (Annex 10 Vol IV §3.1.2.3.3): with nothing (DF17 PI), with the interrogator code (DF11
/// PI), or with the aircraft address (AP formats DF4/5/20/21).
///
/// Numeric fields are masked to their width (an address to 24 bits, CA/FS to 3 bits, DR to
/// 5, UM to 6), so no input can trap.
extension Frame {
    /// A frame from its data bits (`data` left-aligned; its last 24 bits are ignored) with the
    /// parity field set to the CRC of the data bits XOR `overlay` (24 bits).
    /// `bitCount` other than 112 gives a 56-bit frame.
    public static func sealing(_ data: UInt128, bitCount: Int, overlay: UInt32) -> Frame {
        let count = bitCount == longBits ? longBits : shortBits
        let cleared = data & (UInt128.max << UInt128(128 - count + 24))
        let parity = (CRC24.parity(forDataOf: cleared, bitCount: count) ^ overlay) & 0xFF_FFFF
        let raw = cleared | (UInt128(parity) << UInt128(128 - count))
        return Frame(raw: raw, bitCount: count)!
    }

    /// DF11 all-call reply / acquisition squitter (Annex 10 Vol IV §3.1.2.5.2.2): CA (bits
    /// 6–8; 4 on the ground, 5 airborne), AA (9–32), PI = parity XOR the interrogator code
    /// (0 for a spontaneous squitter; the low 7 bits are used).
    public static func allCall(address: UInt32, capability: Int = 5, interrogator: Int = 0) -> Frame {
        var raw = FrameBits()
        raw.put(11, 1, 5)
        raw.put(UInt64(truncatingIfNeeded: capability), 6, 8)
        raw.put(UInt64(address), 9, 32)
        return sealing(raw.value, bitCount: shortBits, overlay: UInt32(truncatingIfNeeded: interrogator) & 0x7F)
    }

    /// DF17 extended squitter (Annex 10 Vol IV §3.1.2.8.6): CA (6–8), AA (9–32), ME (33–88),
    /// PI = parity (89–112).
    public static func extendedSquitter(address: UInt32, capability: Int = 5, me: MessageField) -> Frame {
        var raw = FrameBits()
        raw.put(17, 1, 5)
        raw.put(UInt64(truncatingIfNeeded: capability), 6, 8)
        raw.put(UInt64(address), 9, 32)
        raw.put(me.value, 33, 88)
        return sealing(raw.value, bitCount: longBits, overlay: 0)
    }

    /// DF4 surveillance altitude reply (§3.1.2.6.5): FS (6–8), DR (9–13), UM (14–19), AC
    /// (20–32, `Altitude.ac13(feet:)`; all zero when `altitude` is nil or cannot be coded),
    /// AP = parity XOR address.
    public static func surveillanceAltitude(
        address: UInt32, altitude: Int?, flightStatus: Int = 0, downlinkRequest: Int = 0, utilityMessage: Int = 0
    ) -> Frame {
        let code = altitude.flatMap(Altitude.ac13(feet:)) ?? 0
        return reply(df: 4, fs: flightStatus, dr: downlinkRequest, um: utilityMessage, code: code, mb: nil, address: address)
    }

    /// DF5 surveillance identity reply (§3.1.2.6.7): as DF4 with the ID code (20–32,
    /// `Squawk.id13(_:)`) in place of the altitude.
    public static func surveillanceIdentity(
        address: UInt32, squawk: UInt16, flightStatus: Int = 0, downlinkRequest: Int = 0, utilityMessage: Int = 0
    ) -> Frame {
        reply(df: 5, fs: flightStatus, dr: downlinkRequest, um: utilityMessage, code: Squawk.id13(squawk), mb: nil, address: address)
    }

    /// DF20 Comm-B altitude reply (§3.1.2.6.6): DF4's fields, MB (33–88), AP (89–112).
    public static func commBAltitude(
        address: UInt32, altitude: Int?, mb: MessageField, flightStatus: Int = 0, downlinkRequest: Int = 0,
        utilityMessage: Int = 0
    ) -> Frame {
        let code = altitude.flatMap(Altitude.ac13(feet:)) ?? 0
        return reply(df: 20, fs: flightStatus, dr: downlinkRequest, um: utilityMessage, code: code, mb: mb, address: address)
    }

    /// DF21 Comm-B identity reply: DF5's fields, MB (33–88), AP (89–112).
    public static func commBIdentity(
        address: UInt32, squawk: UInt16, mb: MessageField, flightStatus: Int = 0, downlinkRequest: Int = 0,
        utilityMessage: Int = 0
    ) -> Frame {
        reply(df: 21, fs: flightStatus, dr: downlinkRequest, um: utilityMessage, code: Squawk.id13(squawk), mb: mb, address: address)
    }

    /// The common layout of DF4/5/20/21.
    private static func reply(df: UInt64, fs: Int, dr: Int, um: Int, code: UInt32, mb: MessageField?, address: UInt32) -> Frame {
        var raw = FrameBits()
        raw.put(df, 1, 5)
        raw.put(UInt64(truncatingIfNeeded: fs), 6, 8)
        raw.put(UInt64(truncatingIfNeeded: dr), 9, 13)
        raw.put(UInt64(truncatingIfNeeded: um), 14, 19)
        raw.put(UInt64(code), 20, 32)
        if let mb { raw.put(mb.value, 33, 88) }
        return sealing(raw.value, bitCount: mb == nil ? shortBits : longBits, overlay: address & 0xFF_FFFF)
    }
}

/// Frame bits being assembled, left-aligned in a `UInt128` (bit 1 = MSB), numbered as `Frame`
/// numbers them.
struct FrameBits {
    var value: UInt128 = 0

    /// Sets bits `first…last` (1-based, at most 64 of them) to the low bits of `raw`.
    mutating func put(_ raw: UInt64, _ first: Int, _ last: Int) {
        let width = last - first + 1
        let mask: UInt64 = width >= 64 ? .max : (1 << UInt64(width)) - 1
        let shift = UInt128(128 - last)
        value = (value & ~(UInt128(mask) << shift)) | (UInt128(raw & mask) << shift)
    }
}
