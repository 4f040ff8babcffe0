import ModeS

/// readsb's BeastReduce output (`--net-beast-reduce-out-port`, `beast_reduce_out` and
/// `beast_reduce_plus_out` connectors): the Beast stream thinned for an aggregator on a slow
/// or metered link. Of each aircraft's messages of one kind (downlink format; for extended
/// squitters the type code, and a position's CPR format so global decoding keeps its even
/// and odd halves), at most one is passed per `interval`. Frames with no address in the clear
/// (DF19, DF24) are not passed.
///
/// Bounded: at most `capacity` kinds are remembered; past that, those older than the
/// interval are forgotten (and, if that is not enough, all of them: the next of each kind
/// then passes, which is the safe side).
struct BeastReducer: Sendable {
    /// Seconds between two passed messages of one kind (readsb: 0.25).
    let interval: Double
    /// Kinds remembered at most.
    let capacity: Int
    private var last: [UInt64: Double] = [:]

    init(interval: Double = 0.25, capacity: Int = 100_000) {
        self.interval = max(0, interval)
        self.capacity = max(1, capacity)
    }

    /// The kind of a frame from `address`, or nil for a frame the reduced stream never carries.
    static func kind(of frame: Frame, address: UInt32) -> UInt64? {
        let df = frame.downlinkFormat
        var kind = UInt64(address & 0xFF_FFFF) << 16 | UInt64(df & 31) << 8
        switch df {
        case 0, 4, 5, 11, 16, 20, 21:
            break
        case 17, 18:
            let typeCode = Int(frame.bits(33, 37))
            kind |= UInt64(typeCode) << 1
            // Airborne (9–18, 20–22) and surface (5–8) positions: even and odd apart.
            if (5...18).contains(typeCode) || (20...22).contains(typeCode) { kind |= frame.bits(54, 54) }
        default:
            return nil
        }
        return kind
    }

    /// Whether to pass a frame of `kind` at `time` (seconds); remembers it when passed.
    mutating func admit(_ kind: UInt64, at time: Double) -> Bool {
        if let previous = last[kind], time >= previous, time - previous < interval { return false }
        if last[kind] == nil, last.count >= capacity {
            last = last.filter { time - $0.value < interval }
            if last.count >= capacity { last.removeAll(keepingCapacity: true) }
        }
        last[kind] = time
        return true
    }

    /// Kinds remembered now.
    var count: Int { last.count }
}
