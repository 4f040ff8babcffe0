import Foundation
import ModeS

/// A local calendar date and time to the millisecond, as SBS lines print it.
public struct SBSTime: Hashable, Sendable {
    public var year, month, day, hour, minute, second, millisecond: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.millisecond = millisecond
    }

    /// The local time (the process's time zone, `TZ`) of a Unix time in seconds.
    public init(unixTime: Double) {
        let safe = unixTime.isFinite ? min(max(unixTime, 0), 32_503_680_000) : 0
        let whole = safe.rounded(.down)
        var ms = Int(((safe - whole) * 1000).rounded(.down))
        if ms > 999 { ms = 999 }
        var t = time_t(whole)
        var parts = tm()
        localtime_r(&t, &parts)
        self.init(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                  hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec), millisecond: max(0, ms))
    }

    /// `YYYY/MM/DD`.
    public var date: String { pad(year, 4) + "/" + pad(month, 2) + "/" + pad(day, 2) }
    /// `HH:MM:SS.mmm`.
    public var time: String { pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3) }

    private func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

/// SBS / BaseStation output lines (FORMATS.md, TCP 30003):
/// `MSG,<type>,1,1,<HEX>,1,<date gen>,<time gen>,<date log>,<time log>,<callsign>,<alt>,<gs>,
/// <track>,<lat>,<lon>,<vrate>,<squawk>,<alert>,<emergency>,<spi>,<onground>` + CRLF.
///
/// | type | message |
/// |---|---|
/// | 1 | DF17/18 TC1–4 identification |
/// | 2 | DF17/18 TC5–8 surface position |
/// | 3 | DF17/18 TC9–18 (and TC20–22) airborne position |
/// | 4 | DF17/18 TC19 velocity |
/// | 5 | DF4/20 surveillance altitude |
/// | 6 | DF5/21 surveillance identity |
/// | 7 | DF0/16 air-air |
/// | 8 | DF11 all-call |
///
/// Altitude ft, gs and track rounded to whole numbers, lat/lon 5 decimals, vrate ft/min,
/// squawk 4 octal digits; flags `-1` true, `0` false, empty unknown.
public enum SBSLine {
    /// The transmission type (1…8) of a decoded message; nil when SBS has no line for it.
    public static func transmissionType(df: Int, tc: Int?) -> Int? {
        switch df {
        case 17, 18:
            guard let tc else { return nil }
            switch tc {
            case 1...4: return 1
            case 5...8: return 2
            case 9...18, 20...22: return 3
            case 19: return 4
            default: return nil
            }
        case 4, 20: return 5
        case 5, 21: return 6
        case 0, 16: return 7
        case 11: return 8
        default: return nil
        }
    }

    /// The SBS line (with CRLF) of a decoded message, or nil when SBS has no line for it.
    /// - Parameters:
    ///   - fields: the message's decoded fields (`ModeSMessage.fields`); must hold `address`.
    ///   - position: the aircraft's position when known (decoded from this message's CPR);
    ///     printed on types 2 and 3 only.
    ///   - generated, logged: local date and time the message was received and written.
    public static func format(_ fields: FieldSet, position: (lat: Double, lon: Double)? = nil,
                              generated: SBSTime, logged: SBSTime) -> String? {
        guard let df = fields.df, let address = fields.address,
              let type = transmissionType(df: df, tc: fields.tc) else { return nil }
        var f = [String](repeating: "", count: 22)
        f[0] = "MSG"
        f[1] = String(type)
        f[2] = "1"; f[3] = "1"
        f[4] = Frame.hexString(UInt128(address & 0xFF_FFFF), digits: 6, uppercase: true)
        f[5] = "1"
        f[6] = generated.date; f[7] = generated.time
        f[8] = logged.date; f[9] = logged.time
        if let flight = fields.flight { f[10] = flight }
        if type != 2, let alt = (type == 3 && fields.tc.map { $0 >= 20 } == true) ? fields.altGeom : fields.altBaro {
            f[11] = String(alt)
        }
        if let gs = fields.gs, gs.isFinite { f[12] = String(Int(gs.rounded())) }
        if let track = fields.track ?? (type == 4 ? fields.trueHeading ?? fields.magHeading : nil), track.isFinite {
            f[13] = String(Int(track.rounded()) % 360)
        }
        let pos = position ?? fields.lat.flatMap { lat in fields.lon.map { (lat, $0) } }
        if type == 2 || type == 3, let (lat, lon) = pos, lat.isFinite, lon.isFinite {
            f[14] = String(format: "%.5f", lat)
            f[15] = String(format: "%.5f", lon)
        }
        if let rate = fields.baroRate ?? fields.geomRate { f[16] = String(rate) }
        if let squawk = fields.squawk { f[17] = Squawk.string(squawk) }
        // Flags: known → -1/0; the ADS-B position and velocity lines carry 0 for what the
        // message does not say (as BaseStation writes them).
        let adsbDefault = (2...4).contains(type) ? "0" : ""
        f[18] = flag(fields.alert) ?? adsbDefault
        if let squawk = fields.squawk {
            f[19] = Emergency(squawk: squawk) != nil ? "-1" : "0"
        } else if let e = fields.emergency {
            f[19] = e == .none ? "0" : "-1"
        } else {
            f[19] = adsbDefault
        }
        f[20] = flag(fields.spi) ?? adsbDefault
        let onGround = fields.onGround ?? (type == 2 ? true : ((type == 3 || type == 4) ? false : nil))
        f[21] = flag(onGround) ?? ""
        return f.joined(separator: ",") + "\r\n"
    }

    /// Same, from a decoded message.
    public static func format(_ message: ModeSMessage, position: (lat: Double, lon: Double)? = nil,
                              generated: SBSTime, logged: SBSTime) -> String? {
        format(message.fields, position: position, generated: generated, logged: logged)
    }

    private static func flag(_ value: Bool?) -> String? {
        value.map { $0 ? "-1" : "0" }
    }
}
