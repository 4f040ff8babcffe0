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
    /// Keys are absent when the message does not carry the field.
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
        w.add("flight", flight)
        w.add("category", category?.description)
        w.add("alt_baro", altBaro)
        w.add("alt_geom", altGeom)
        w.add("geom_delta", geomDelta)
        w.add("gs", gs)
        w.add("ias", ias)
        w.add("tas", tas)
        w.add("mach", mach)
        w.add("track", track)
        w.add("mag_heading", magHeading)
        w.add("true_heading", trueHeading)
        w.add("roll", roll)
        w.add("track_rate", trackRate)
        w.add("baro_rate", baroRate)
        w.add("geom_rate", geomRate)
        w.add("squawk", squawk.map(Squawk.string))
        w.add("emergency", emergency?.description)
        w.add("alert", alert)
        w.add("spi", spi)
        w.add("nav_qnh", navQNH)
        w.add("nav_altitude_mcp", navAltitudeMCP)
        w.add("nav_altitude_fms", navAltitudeFMS)
        w.add("nav_heading", navHeading)
        w.add("nav_modes", navModes?.names)
        w.add("lat", lat)
        w.add("lon", lon)
        w.add("cpr_format", cprFormat?.rawValue)
        w.add("cpr_lat", cprLat)
        w.add("cpr_lon", cprLon)
        w.add("on_ground", onGround)
        w.add("nic", nic)
        w.add("nac_p", nacP)
        w.add("nac_v", nacV)
        w.add("sil", sil)
        w.add("sil_type", silType?.rawValue)
        w.add("gva", gva)
        w.add("sda", sda)
        w.add("nic_baro", nicBaro)
        w.add("version", version)
        w.add("ws", windSpeed)
        w.add("wd", windDirection)
        w.add("oat", oat)
        w.add("static_pressure", staticPressure)
        w.add("humidity", humidity)
        w.add("ca", ca)
        w.add("fs", fs)
        w.add("dr", dr)
        w.add("um", um)
        w.add("vs", vs)
        w.add("iid", iid)
        w.add("signal", signal)
        return w.finish()
    }
}
