import ModeS

/// Merges the copies of one transmission that several receivers of a network deliver:
/// the first copy counts, a copy of the same bits from another receiver within `window`
/// seconds (of arrival time) is a duplicate.
///
/// A copy from a receiver that already delivered these bits within the window is a new
/// transmission (an aircraft repeats identical replies and squitters): one receiver never
/// has its own frames merged. The rule can count a transmission twice when the receivers'
/// network delays differ by more than the aircraft's repetition interval of identical
/// frames; it never drops a transmission no other receiver delivered.
///
/// Memory: two generations of at most `window` seconds each (the older one is dropped
/// when the newer fills), so about two windows of frames; lookups are O(1).
/// Receivers are told apart by a small index (`ReceiverDirectory` assigns them); with more
/// than 64, two receivers can share a bit, and a duplicate between them then counts twice.
struct FrameMerger {
    struct Entry {
        var time: Double
        var receivers: UInt64
    }

    /// Seconds within which copies from different receivers are one transmission.
    let window: Double
    private var current: [Frame: Entry] = [:]
    private var previous: [Frame: Entry] = [:]
    private var generationStart = -Double.infinity

    init(window: Double) {
        self.window = window
    }

    /// True when `frame` from receiver `index`, arriving at `time`, is the first copy of its
    /// transmission; false when it duplicates another receiver's copy.
    mutating func admit(_ frame: Frame, receiver index: Int, at time: Double) -> Bool {
        guard window > 0 else { return true }
        if time - generationStart >= window {
            previous = current
            current.removeAll(keepingCapacity: true)
            generationStart = time
        }
        let bit: UInt64 = 1 << UInt64(index & 63)
        if var e = current[frame] ?? previous[frame], time - e.time <= window, e.receivers & bit == 0 {
            e.receivers |= bit
            current[frame] = e
            return false
        }
        current[frame] = Entry(time: time, receivers: bit)
        return true
    }
}
