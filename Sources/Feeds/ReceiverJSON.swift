import ModeS

/// `receiver.json` (FORMATS.md): `version`, `refresh` (ms between aircraft.json updates),
/// `history` (number of history files; FlyTracker writes none), and `lat`/`lon` when the
/// receiver position is known.
public enum ReceiverJSON {
    /// - Parameters:
    ///   - position: the receiver (configured, or estimated).
    ///   - decimals: decimals of lat/lon written (2, about 1 km, by default: the file is
    ///     public on most feeders; dump1090-fa's "approximate" location accuracy).
    public static func document(version: String, refresh: Int = 1000, history: Int = 0,
                                position: Coordinate?, decimals: Int = 2) -> String {
        var w = JSONWriter()
        w.add("version", version)
        w.add("refresh", refresh)
        w.add("history", history)
        if let position {
            w.add("lat", position.latitude, decimals: decimals)
            w.add("lon", position.longitude, decimals: decimals)
        }
        return w.finish()
    }
}
