/// dump1090-fa's history files (`history_0.json` … `history_{count-1}.json`): every
/// `interval` seconds a copy of aircraft.json is written to the next file of a ring, and
/// receiver.json's `history` says how many exist, so tar1090 loads them and draws the
/// aircraft's trails as soon as its page opens.
public struct JSONHistory: Sendable, Equatable {
    /// Files in the ring (dump1090-fa: 120); 0 writes none.
    public let count: Int
    /// Seconds between files (dump1090-fa: 30).
    public let interval: Double
    /// Files written so far, at most `count` (receiver.json's `history`).
    public private(set) var available = 0
    private var next = 0
    private var last: Double?

    public init(count: Int = 120, interval: Double = 30) {
        self.count = max(0, count)
        self.interval = max(1, interval)
    }

    /// The file to write at `time` (seconds), or nil when the last one is younger than
    /// `interval`. The first comes at once.
    public mutating func take(at time: Double) -> String? {
        guard count > 0 else { return nil }
        if let last, time - last < interval, time >= last { return nil }
        last = time
        let name = "history_\(next).json"
        next = (next + 1) % count
        available = min(available + 1, count)
        return name
    }
}
