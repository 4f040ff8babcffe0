import ModeS

extension FieldSet {
    /// The address as aircraft.json writes it: 6 lowercase hex digits, `~` first for
    /// non-ICAO addresses.
    public var hexKey: String? {
        guard let address else { return nil }
        let digits = Frame.hexString(UInt128(address & 0xFF_FFFF), digits: 6, uppercase: false)
        return (addressType?.isICAO ?? true) ? digits : "~" + digits
    }

    /// The decoded-message JSON object of DESIGN.md (one line of `flytracker decode`).
    /// The header's keys first, then the catalogue's fields in its order, each as its value
    /// is (no rounding); keys are absent when the message does not carry the field.
    public var json: String {
        var w = JSONWriter()
        w.add("hex", hexKey)
        w.add("df", df)
        w.add("tc", tc)
        w.add("bds", bds?.description)
        if let addressType, addressType != .modeS { w.add("addr_type", addressType.rawValue) }
        switch crc {
        case .ok?: w.add("crc", "ok")
        case .parity?: w.add("crc", "parity")
        case .corrected(let bits)?:
            w.add("crc", "corrected")
            w.add("corrected_bits", bits)
        case nil: break
        }
        for field in Field.allCases {
            if let value = json(of: field) { w.add(field.declaration.key, value) }
        }
        return w.finish()
    }
}
