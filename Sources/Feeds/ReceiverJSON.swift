import ModeS

/// `receiver.json` (FORMATS.md): `version`, `refresh` (ms between aircraft.json updates),
/// `history` (history files written, `JSONHistory`), `lat`/`lon` when the receiver position
/// is known, and readsb's `outlineJson` when outline.json is written.
public enum ReceiverJSON {
    /// - Parameters:
    ///   - position: the receiver (configured, or estimated).
    ///   - decimals: decimals of lat/lon written (2, about 1 km, by default: the file is
    ///     public on most feeders; dump1090-fa's "approximate" location accuracy).
    ///   - outline: whether outline.json is written beside it.
    public static func document(version: String, refresh: Int = 1000, history: Int = 0,
                                position: Coordinate?, decimals: Int = 2, outline: Bool = false) -> String {
        var w = JSONWriter()
        w.add("version", version)
        w.add("refresh", refresh)
        w.add("history", history)
        if let position {
            w.add("lat", position.latitude, decimals: decimals)
            w.add("lon", position.longitude, decimals: decimals)
        }
        if outline { w.add("outlineJson", true) }
        return w.finish()
    }
}
