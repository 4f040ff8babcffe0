/// Airline names from the three-letter ICAO designator that starts an airline callsign
/// (`KLM1023` → KLM Royal Dutch Airlines). A small built-in table of common airlines;
/// ICAO Doc 8585 designators.
public enum Airlines {
    /// The airline of a callsign: its first three characters when they are letters and a
    /// digit follows (flight numbers), looked up in the table. Nil otherwise.
    public static func name(forCallsign callsign: String) -> String? {
        guard let designator = designator(ofCallsign: callsign) else { return nil }
        return names[designator]
    }

    /// The three-letter designator of an airline-style callsign (three letters, then a digit).
    public static func designator(ofCallsign callsign: String) -> String? {
        let scalars = Array(callsign.unicodeScalars.prefix(4))
        guard scalars.count == 4,
              scalars[0..<3].allSatisfy({ ("A"..."Z").contains($0) }),
              ("0"..."9").contains(scalars[3])
        else { return nil }
        return String(String.UnicodeScalarView(scalars[0..<3]))
    }

    public static let names: [String: String] = [
        "AAL": "American Airlines", "ACA": "Air Canada", "AEE": "Aegean Airlines", "AFR": "Air France",
        "AIC": "Air India", "ANA": "All Nippon Airways", "ANZ": "Air New Zealand", "ASA": "Alaska Airlines",
        "AUA": "Austrian Airlines", "AZA": "ITA Airways", "BAW": "British Airways", "BEL": "Brussels Airlines",
        "BTI": "airBaltic", "CAL": "China Airlines", "CCA": "Air China", "CES": "China Eastern Airlines",
        "CFG": "Condor", "CLH": "Lufthansa CityLine", "CPA": "Cathay Pacific", "CSN": "China Southern Airlines",
        "DAL": "Delta Air Lines", "DLH": "Lufthansa", "EIN": "Aer Lingus", "EJU": "easyJet Europe",
        "ELY": "El Al", "ETD": "Etihad Airways", "ETH": "Ethiopian Airlines", "EVA": "EVA Air",
        "EWG": "Eurowings", "EXS": "Jet2", "EZS": "easyJet Switzerland", "EZY": "easyJet",
        "FDX": "FedEx Express", "FIN": "Finnair", "GEC": "Lufthansa Cargo", "GTI": "Atlas Air",
        "IBE": "Iberia", "IBK": "Norwegian Air International", "ICE": "Icelandair", "JAL": "Japan Airlines",
        "JBU": "JetBlue", "JZA": "Jazz Aviation", "KAL": "Korean Air", "KLM": "KLM Royal Dutch Airlines",
        "LOT": "LOT Polish Airlines", "MSR": "EgyptAir", "NAX": "Norwegian Air Shuttle", "NKS": "Spirit Airlines",
        "NOZ": "Norwegian Air", "QFA": "Qantas", "QTR": "Qatar Airways", "RAM": "Royal Air Maroc",
        "RYR": "Ryanair", "SAS": "Scandinavian Airlines", "SIA": "Singapore Airlines", "SKW": "SkyWest Airlines",
        "SWA": "Southwest Airlines", "SWR": "Swiss", "TAP": "TAP Air Portugal", "THY": "Turkish Airlines",
        "TOM": "TUI Airways", "TRA": "Transavia", "TVF": "Transavia France", "UAE": "Emirates",
        "UAL": "United Airlines", "UPS": "UPS Airlines", "VIR": "Virgin Atlantic", "VLG": "Vueling",
        "VOI": "Volaris", "WJA": "WestJet", "WZZ": "Wizz Air", "ENY": "Envoy Air", "RPA": "Republic Airways",
        "ASH": "Mesa Airlines", "EDV": "Endeavor Air", "PDT": "Piedmont Airlines", "QXE": "Horizon Air",
    ]
}
