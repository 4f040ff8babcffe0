import Feeds
import Foundation
import Store
import ModeS
import Tracking

/// Gives the web layer the live table: the latest immutable snapshot (`SnapshotPublisher`
/// is one). Called once per request; must be cheap and thread-safe.
public protocol LiveTableSource: Sendable {
    var currentSnapshot: TableSnapshot { get }
}

extension SnapshotPublisher: LiveTableSource {
    public var currentSnapshot: TableSnapshot { current }
}

/// Gives `/data/stats.json`: the whole document, as `Feeds.StatsHistory.document(at:)` writes it.
public protocol StatsSource: Sendable {
    func statsDocument(now: Double) -> String
}

/// Recent positions of an aircraft, oldest first (`/api/aircraft/{hex}`).
public protocol TrackSource: Sendable {
    func track(for key: AircraftKey) -> [TrackPoint]
    /// Every known track (the map draws them all).
    func allTracks() -> [AircraftKey: [TrackPoint]]
}

/// One point of an aircraft's recent track.
public struct TrackPoint: Sendable, Hashable {
    /// Seconds, the table's time base.
    public var time: Double
    public var position: Coordinate
    /// Barometric altitude, ft (0 on the ground), when known.
    public var altitude: Int?

    public init(time: Double, position: Coordinate, altitude: Int?) {
        self.time = time
        self.position = position
        self.altitude = altitude
    }
}

/// What `/data/receiver.json` says about the receiver.
public struct ReceiverInfo: Sendable {
    public var version: String
    /// Milliseconds between aircraft.json updates.
    public var refresh: Int
    /// The configured position; when nil the snapshot's configured or estimated position is used.
    public var position: Coordinate?

    public init(version: String, refresh: Int = 1000, position: Coordinate? = nil) {
        self.version = version
        self.refresh = refresh
        self.position = position
    }
}

/// A stats source with a fixed document (tests; or a server with no statistics yet).
public struct FixedStatsSource: StatsSource {
    public var document: String
    public init(_ document: String) { self.document = document }
    public func statsDocument(now: Double) -> String { document }
}

/// A clock for `now` in the documents (Unix seconds). Injected so tests are deterministic.
public typealias WallClock = @Sendable () -> Double

/// Everything the HTTP layer reads: the live table, statistics, receiver facts, tracks,
/// accounts (optional) and the wall clock.
public struct WebSources: Sendable {
    public var live: any LiveTableSource
    public var stats: any StatsSource
    public var receiver: ReceiverInfo
    public var tracks: (any TrackSource)?
    /// Accounts, watchlists, journal and statistics (the Store); nil: those routes are absent.
    public var accounts: WebAccounts?
    /// Where `/api/stats` counts when it is not the accounts' database (an aggregator's
    /// PostgreSQL sighting log).
    public var statistics: (any SightingStore)?
    /// The receivers feeding an aggregator (`/api/receivers`); nil: an empty list.
    public var network: (any ReceiverNetworkSource)?
    public var clock: WallClock

    /// - Parameters:
    ///   - live: the table (see `recording(_:…)` for one that also records trails).
    ///   - tracks: recent tracks for `/api/aircraft/{hex}` and `/api/trails`; nil: none.
    public init(live: any LiveTableSource, stats: any StatsSource = FixedStatsSource("{}"),
                receiver: ReceiverInfo = ReceiverInfo(version: "FlyTracker"), tracks: (any TrackSource)? = nil,
                accounts: WebAccounts? = nil, clock: @escaping WallClock = { Date().timeIntervalSince1970 }) {
        self.live = live
        self.stats = stats
        self.receiver = receiver
        self.tracks = tracks
        self.accounts = accounts
        self.clock = clock
    }

    /// Sources over a live table whose trails are recorded as snapshots are read.
    public static func recording(_ live: any LiveTableSource, stats: any StatsSource = FixedStatsSource("{}"),
                                 receiver: ReceiverInfo = ReceiverInfo(version: "FlyTracker"), accounts: WebAccounts? = nil,
                                 clock: @escaping WallClock = { Date().timeIntervalSince1970 }) -> WebSources {
        let recorder = TrailRecorder()
        return WebSources(live: RecordingTableSource(live, trails: recorder), stats: stats, receiver: receiver,
                          tracks: recorder, accounts: accounts, clock: clock)
    }
}
