/// Outcomes of CPR position decoding, named as stats.json's `cpr` block (FORMATS.md).
public struct CPRCounters: Sendable, Equatable {
    /// Position messages received, by kind.
    public var surface: UInt64 = 0
    public var airborne: UInt64 = 0
    /// Global (even/odd pair) decoding: accepted; failed (inconsistent pair); rejected as out
    /// of range; rejected by the speed check; not attempted (no usable partner, or a surface
    /// pair with no reference position).
    public var globalOK: UInt64 = 0
    public var globalBad: UInt64 = 0
    public var globalRange: UInt64 = 0
    public var globalSpeed: UInt64 = 0
    public var globalSkipped: UInt64 = 0
    /// Local (single message) decoding: accepted, of which relative to the aircraft's own
    /// last position and relative to the receiver; not possible (no reference); rejected as
    /// out of range; rejected by the speed check.
    public var localOK: UInt64 = 0
    public var localAircraftRelative: UInt64 = 0
    public var localReceiverRelative: UInt64 = 0
    public var localSkipped: UInt64 = 0
    public var localRange: UInt64 = 0
    public var localSpeed: UInt64 = 0
    /// Position messages ignored before decoding: no position (all-zero CPR fields) or a
    /// worse source while a better one's position is fresh.
    public var filtered: UInt64 = 0

    public init() {}

    /// Field-wise `self − other` (wrapping), for the counts of a period.
    public func subtracting(_ o: CPRCounters) -> CPRCounters {
        var r = CPRCounters()
        r.surface = surface &- o.surface
        r.airborne = airborne &- o.airborne
        r.globalOK = globalOK &- o.globalOK
        r.globalBad = globalBad &- o.globalBad
        r.globalRange = globalRange &- o.globalRange
        r.globalSpeed = globalSpeed &- o.globalSpeed
        r.globalSkipped = globalSkipped &- o.globalSkipped
        r.localOK = localOK &- o.localOK
        r.localAircraftRelative = localAircraftRelative &- o.localAircraftRelative
        r.localReceiverRelative = localReceiverRelative &- o.localReceiverRelative
        r.localSkipped = localSkipped &- o.localSkipped
        r.localRange = localRange &- o.localRange
        r.localSpeed = localSpeed &- o.localSpeed
        r.filtered = filtered &- o.filtered
        return r
    }

    /// Field-wise sum.
    public mutating func add(_ o: CPRCounters) {
        surface &+= o.surface
        airborne &+= o.airborne
        globalOK &+= o.globalOK
        globalBad &+= o.globalBad
        globalRange &+= o.globalRange
        globalSpeed &+= o.globalSpeed
        globalSkipped &+= o.globalSkipped
        localOK &+= o.localOK
        localAircraftRelative &+= o.localAircraftRelative
        localReceiverRelative &+= o.localReceiverRelative
        localSkipped &+= o.localSkipped
        localRange &+= o.localRange
        localSpeed &+= o.localSpeed
        filtered &+= o.filtered
    }
}

/// Everything the table counts, cumulative since it started (stats.json `cpr`, `tracks`,
/// `messages`, `messages_by_df`).
public struct TableCounters: Sendable, Equatable {
    /// Messages applied.
    public var messages: UInt64 = 0
    /// Messages applied, by downlink format 0–31.
    public var messagesByDF = [UInt64](repeating: 0, count: 32)
    public var cpr = CPRCounters()
    /// Aircraft created (`tracks.all`).
    public var tracks: UInt64 = 0
    /// Aircraft removed after a single message (`tracks.single_message`).
    public var singleMessageTracks: UInt64 = 0
    /// Aircraft removed without ever becoming reliable (`tracks.unreliable`).
    public var unreliableTracks: UInt64 = 0
    /// Mode S (non-ES) altitudes not taken because the aircraft's ADS-B altitude was fresh
    /// (dump1090-fa's `altitude_suppressed`).
    public var altitudeSuppressed: UInt64 = 0

    public init() {}

    /// Field-wise `self − other`, for the counts of a period.
    public func subtracting(_ o: TableCounters) -> TableCounters {
        var r = TableCounters()
        r.messages = messages &- o.messages
        for i in 0..<32 { r.messagesByDF[i] = messagesByDF[i] &- o.messagesByDF[i] }
        r.cpr = cpr.subtracting(o.cpr)
        r.tracks = tracks &- o.tracks
        r.singleMessageTracks = singleMessageTracks &- o.singleMessageTracks
        r.unreliableTracks = unreliableTracks &- o.unreliableTracks
        r.altitudeSuppressed = altitudeSuppressed &- o.altitudeSuppressed
        return r
    }

    /// Field-wise sum.
    public mutating func add(_ o: TableCounters) {
        messages &+= o.messages
        for i in 0..<32 { messagesByDF[i] &+= o.messagesByDF[i] }
        cpr.add(o.cpr)
        tracks &+= o.tracks
        singleMessageTracks &+= o.singleMessageTracks
        unreliableTracks &+= o.unreliableTracks
        altitudeSuppressed &+= o.altitudeSuppressed
    }
}
