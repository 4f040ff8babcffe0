/// What kind of 24-bit address a message carries (FORMATS.md aircraft.json `type`).
public enum AddressType: String, Sendable, Hashable {
    /// ADS-B from a Mode S transponder (DF17).
    case adsbICAO = "adsb_icao"
    /// ADS-B from a non-transponder device with an ICAO address (DF18 CF0).
    case adsbICAONonTransponder = "adsb_icao_nt"
    /// ADS-B rebroadcast of a UAT or other-link target with an ICAO address (DF18 CF6 IMF0).
    case adsrICAO = "adsr_icao"
    /// TIS-B target with an ICAO address (DF18 CF2/3 IMF0).
    case tisbICAO = "tisb_icao"
    /// ADS-B or ADS-R with a non-ICAO (anonymous, self-assigned) address.
    case adsbOther = "adsb_other"
    /// TIS-B target with a track-file number or other non-ICAO address.
    case tisbOther = "tisb_other"
    /// A Mode S reply (DF0/4/5/11/16/20/21).
    case modeS = "mode_s"

    /// True when the address is an ICAO 24-bit aircraft address.
    public var isICAO: Bool { self != .adsbOther && self != .tisbOther }
}
