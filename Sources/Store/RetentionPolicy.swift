/// How long the bulky tables keep rows, and a bound on the track points (the biggest table),
/// so the database stays bounded on an SD card. Nil = keep forever.
public struct RetentionPolicy: Sendable, Equatable {
    /// Track points older than this many days are deleted.
    public var trackPointDays: Double? = 30
    /// Closed visits (and their points) older than this many days are deleted.
    public var visitDays: Double? = 730
    /// Journal events older than this many days are deleted.
    public var journalDays: Double? = 365
    /// Alert delivery log rows older than this many days are deleted.
    public var deliveryDays: Double? = 90
    /// At most this many track points are kept (the oldest go first).
    public var maxTrackPoints: Int? = 20_000_000

    public init(trackPointDays: Double? = 30, visitDays: Double? = 730, journalDays: Double? = 365,
                deliveryDays: Double? = 90, maxTrackPoints: Int? = 20_000_000) {
        self.trackPointDays = trackPointDays
        self.visitDays = visitDays
        self.journalDays = journalDays
        self.deliveryDays = deliveryDays
        self.maxTrackPoints = maxTrackPoints
    }
}

/// Rows deleted by `SightingLogRepository.prune`.
public struct PruneReport: Sendable, Equatable {
    public var trackPoints = 0
    public var visits = 0
    public var journalEvents = 0
    public var deliveries = 0

    public init() {}
}
