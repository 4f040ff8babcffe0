import ModeS
import Tracking

/// Counts of network (Beast/AVR) input for stats.json's `remote` block.
public struct RemoteStatistics: Sendable, Equatable {
    public var modeac: UInt64 = 0
    /// Mode S frames received.
    public var modes: UInt64 = 0
    /// Frames that failed parity.
    public var bad: UInt64 = 0
    /// Address/parity frames whose address no aircraft heard in the clear has (rejected).
    public var unknownICAO: UInt64 = 0
    /// Frames accepted with 0, 1 and 2 bits corrected.
    public var accepted: (UInt64, UInt64, UInt64) = (0, 0, 0)

    public init() {}

    public static func == (a: RemoteStatistics, b: RemoteStatistics) -> Bool {
        a.modeac == b.modeac && a.modes == b.modes && a.bad == b.bad && a.unknownICAO == b.unknownICAO && a.accepted == b.accepted
    }

    public mutating func add(_ o: RemoteStatistics) {
        modeac &+= o.modeac
        modes &+= o.modes
        bad &+= o.bad
        unknownICAO &+= o.unknownICAO
        accepted.0 &+= o.accepted.0
        accepted.1 &+= o.accepted.1
        accepted.2 &+= o.accepted.2
    }
}

/// Processor time for stats.json's `cpu` block, milliseconds.
public struct CPUStatistics: Sendable, Equatable {
    /// Demodulating.
    public var demod: Double = 0
    /// Reading samples (USB or file).
    public var reader: Double = 0
    /// Everything else (decoding, table, outputs).
    public var background: Double = 0

    public init(demod: Double = 0, reader: Double = 0, background: Double = 0) {
        self.demod = demod
        self.reader = reader
        self.background = background
    }

    public mutating func add(_ o: CPUStatistics) {
        demod += o.demod
        reader += o.reader
        background += o.background
    }
}

/// One period of stats.json: everything counted between `start` and `end` (Unix seconds).
public struct StatsPeriod: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var local = ReceptionStatistics()
    public var remote = RemoteStatistics()
    public var cpu = CPUStatistics()
    /// The table's counts during the period (messages, by DF, CPR outcomes, tracks).
    public var table = TableCounters()
    /// The farthest position from the receiver seen during the period, metres (readsb's
    /// `max_distance`); 0 when none was, or the receiver's position is unknown.
    public var maxDistance: Double = 0

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Adds another period's counts (the span becomes the union).
    public mutating func add(_ o: StatsPeriod) {
        start = min(start, o.start)
        end = max(end, o.end)
        local.add(o.local)
        remote.add(o.remote)
        cpu.add(o.cpu)
        table.add(o.table)
        maxDistance = max(maxDistance, o.maxDistance)
    }
}
