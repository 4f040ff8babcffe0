/// IATA ↔ ICAO airline designators, so a flight number written the passenger way (`BA283`)
/// matches the callsign aircraft transmit (`BAW283`). A built-in table of major airlines
/// (IATA codes per IATA's airline coding directory, ICAO per Doc 8585); users extend it with
/// rows of the `airlineCode` table (`WatchlistRepository.addAirlineCode`).
public struct AirlineCodes: Sendable {
    /// IATA → ICAO.
    public private(set) var icaoForIATA: [String: String]

    public init(extra: [String: String] = [:]) {
        icaoForIATA = Self.builtIn.merging(extra) { _, new in new }
    }

    /// A flight number's airline part and number. ICAO form: three letters then a digit
    /// (`BAW283`); IATA form: two letters/digits (one at least a letter) then 1–4 digits and
    /// an optional letter (`BA283`, `U21234`).
    public static func flightNumber(_ text: String) -> (airline: String, number: String, isICAO: Bool)? {
        let s = Array(text.uppercased().unicodeScalars)
        func letter(_ c: Unicode.Scalar) -> Bool { ("A"..."Z").contains(c) }
        func digit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        if s.count >= 4, s.count <= 8, s[0..<3].allSatisfy(letter), digit(s[3]), s[3...].allSatisfy({ letter($0) || digit($0) }) {
            return (String(String.UnicodeScalarView(s[0..<3])), String(String.UnicodeScalarView(s[3...])), true)
        }
        guard s.count >= 3, s.count <= 7, letter(s[0]) || letter(s[1]), s[0..<2].allSatisfy({ letter($0) || digit($0) }) else { return nil }
        let rest = s[2...]
        let digits = rest.prefix(while: digit)
        guard (1...4).contains(digits.count), rest.count - digits.count <= 1, rest.dropFirst(digits.count).allSatisfy(letter) else { return nil }
        return (String(String.UnicodeScalarView(s[0..<2])), String(String.UnicodeScalarView(rest)), false)
    }

    /// The ICAO callsign of a flight number: `BA283` → `BAW283`, `BA0283` → `BAW283`,
    /// `BAW283` unchanged; nil when the IATA airline is unknown or the text is no flight number.
    public func callsign(forFlight text: String) -> String? {
        guard let f = Self.flightNumber(text) else { return nil }
        let number = String(f.number.drop(while: { $0 == "0" }))
        guard !number.isEmpty, number.first?.isNumber == true else { return nil }
        if f.isICAO { return f.airline + number }
        guard let icao = icaoForIATA[f.airline] else { return nil }
        return icao + number
    }

    /// The IATA code of an ICAO designator, if known.
    public func iata(forICAO icao: String) -> String? {
        icaoForIATA.first { $0.value == icao }?.key
    }

    /// Major airlines, IATA → ICAO.
    public static let builtIn: [String: String] = [
        "AA": "AAL", "AC": "ACA", "A3": "AEE", "AF": "AFR", "AI": "AIC", "NH": "ANA", "NZ": "ANZ",
        "AS": "ASA", "OS": "AUA", "AZ": "ITY", "BA": "BAW", "SN": "BEL", "BT": "BTI", "CI": "CAL",
        "CA": "CCA", "MU": "CES", "DE": "CFG", "WK": "EDW", "CX": "CPA", "CZ": "CSN", "DL": "DAL",
        "LH": "DLH", "EI": "EIN", "EC": "EJU", "LY": "ELY", "EY": "ETD", "ET": "ETH", "BR": "EVA",
        "EW": "EWG", "LS": "EXS", "DS": "EZS", "U2": "EZY", "FX": "FDX", "AY": "FIN", "IB": "IBE",
        "D8": "IBK", "FI": "ICE", "JL": "JAL", "B6": "JBU", "KE": "KAL", "KL": "KLM", "LO": "LOT",
        "MS": "MSR", "DY": "NAX", "NK": "NKS", "QF": "QFA", "QR": "QTR", "AT": "RAM", "FR": "RYR",
        "SK": "SAS", "SQ": "SIA", "OO": "SKW", "WN": "SWA", "LX": "SWR", "TP": "TAP", "TK": "THY",
        "BY": "TOM", "HV": "TRA", "TO": "TVF", "EK": "UAE", "UA": "UAL", "5X": "UPS", "VS": "VIR",
        "VY": "VLG", "Y4": "VOI", "WS": "WJA", "W6": "WZZ", "MQ": "ENY", "YX": "RPA", "YV": "ASH",
        "9E": "EDV", "PT": "PDT", "QX": "QXE", "F9": "FFT", "G4": "AAY", "HA": "HAL", "SY": "SCX",
        "LA": "LAN", "AM": "AMX", "AV": "AVA", "CM": "CMP", "G3": "GLO", "JJ": "TAM", "SA": "SAA",
        "SV": "SVA", "GF": "GFA", "WY": "OMA", "KQ": "KQA", "MH": "MAS", "TG": "THA", "GA": "GIA",
        "PR": "PAL", "VN": "HVN", "OZ": "AAR", "3U": "CSC", "HU": "CHH", "VA": "VOZ", "JQ": "JST",
        "6E": "IGO", "UK": "TVJ", "PC": "PGT", "X3": "TUI", "EN": "DLA", "A5": "HOP", "4U": "GWI",
    ]
}

/// One row of `airlineCode`: a user addition to the IATA ↔ ICAO table.
public struct AirlineCodeRecord: Codable, Sendable, Hashable {
    public var iata: String
    public var icao: String
    public var name: String?

    public init(iata: String, icao: String, name: String? = nil) {
        self.iata = iata.uppercased()
        self.icao = icao.uppercased()
        self.name = name
    }
}
