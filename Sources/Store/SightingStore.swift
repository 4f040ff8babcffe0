import Foundation
import GRDB
import ModeS

/// A visit's natural key: the aircraft (`AircraftKey.packed`) and when the visit began.
/// Unique in every store, so a writer that cannot hand ids back at once (PostgreSQL, written
/// asynchronously) still finds the row a later update or track point belongs to.
public struct VisitKey: Hashable, Sendable {
    public var address: Int
    public var firstSeen: Double

    public init(address: Int, firstSeen: Double) {
        self.address = address
        self.firstSeen = firstSeen
    }

    public init(_ visit: VisitRecord) {
        self.init(address: visit.address, firstSeen: visit.firstSeen)
    }
}

/// One second's worth of the sighting log, written in one transaction: the visits that
/// changed (whole rows, inserted or updated), and the track points, journal events and
/// visit receivers that belong to visits by their key (the write finds each visit by it).
public struct SightingBatch: Sendable {
    public var visits: [VisitRecord] = []
    public var points: [(VisitKey, TrackPointRecord)] = []
    public var events: [(VisitKey, JournalEventRecord)] = []
    public var receivers: [(VisitKey, VisitReceiverRecord)] = []

    public init() {}

    public var isEmpty: Bool { visits.isEmpty && points.isEmpty && events.isEmpty && receivers.isEmpty }

    /// Rows in the batch (for queue limits).
    public var rowCount: Int { visits.count + points.count + events.count + receivers.count }
}

/// What a store did with a batch: the ids of the visits it inserted (when it knows them
/// at once), and the journal events as written (with ids when known).
public struct SightingWriteResult: Sendable {
    public var visitIDs: [VisitKey: Int64] = [:]
    public var events: [JournalEventRecord] = []

    public init(visitIDs: [VisitKey: Int64] = [:], events: [JournalEventRecord] = []) {
        self.visitIDs = visitIDs
        self.events = events
    }
}

/// A store: SQLite (`AppDatabase`, the embedded default) or PostgreSQL (`PostgresStore`, for
/// many receivers). Its repositories (`accounts`, `statistics`, …) are written once on the
/// storage seam (`sql`); the requirements below are what each engine does its own way (the
/// batch write, reading the rollup tables, the end of a run), with the same results. The store
/// test suite runs every operation against both.
public protocol SightingStore: AnyObject, Sendable {
    /// `sqlite` or `postgresql`.
    var engine: String { get }
    /// The store through the storage seam: what the repositories written once for both
    /// engines (`SessionRepository`, …) run on.
    var sql: any SQLDatabase { get }
    /// False while the store is known to be away (its writes queued): the recorder then
    /// skips rule reloads and retention instead of waiting for it.
    var isAvailable: Bool { get }

    // The sighting log
    func write(_ batch: SightingBatch) async throws -> SightingWriteResult

    // The end of a run
    /// Writes what is still queued for the database and releases it: the rows left behind
    /// (0 when everything was written). A store that writes at once has nothing to do.
    func finishWriting() async -> Int
}

extension SightingStore {
    /// The sighting log read back, retention, visits left open by a crash.
    public var sightings: SightingLogRepository { SightingLogRepository(sql) }
    /// Statistics of the sighting log.
    public var statistics: StatisticsRepository { StatisticsRepository(self) }
    /// Accounts.
    public var accounts: AccountRepository { AccountRepository(sql) }
    /// Watchlists, the airline table and the journal.
    public var watchlists: WatchlistRepository { WatchlistRepository(sql) }
    /// Login sessions.
    public var loginSessions: SessionRepository { SessionRepository(sql) }
    /// Profiles and pictures.
    public var profiles: ProfileRepository { ProfileRepository(sql) }
    /// Groups, their members and shared watchlists.
    public var groups: GroupRepository { GroupRepository(sql) }
    /// Goals.
    public var goals: GoalRepository { GoalRepository(sql) }
    /// Saved places and reminders.
    public var places: PlaceRepository { PlaceRepository(sql) }
    /// Posts, comments, reports and site admins.
    public var posts: PostRepository { PostRepository(sql) }
    /// Friends and blocks.
    public var social: SocialRepository { SocialRepository(sql) }
    /// The alert delivery log.
    public var deliveryLog: AlertDeliveryLog { AlertDeliveryLog(sql) }

    /// Writes at once: nothing queued, nothing to release.
    public func finishWriting() async -> Int { 0 }

    /// The imported aircraft database.
    public var aircraft: AircraftRepository { AircraftRepository(sql) }
    /// The imported airports, with the built-in list behind them.
    public var airports: AirportRepository { AirportRepository(sql) }
}

extension AppDatabase: SightingStore {
    public var engine: String { "sqlite" }
    public var isAvailable: Bool { true }
    public var sql: any SQLDatabase { seam }

    /// Writes a batch in one transaction (`SightingLogRepository.write`).
    public func write(_ batch: SightingBatch) async throws -> SightingWriteResult {
        try await sightings.write(batch)
    }
}
