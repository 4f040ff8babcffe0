import ModeS
import Store
import Synchronization
import Threads
import Tracking

/// The imported aircraft database of a store (SQLite or PostgreSQL, `AircraftRepository`) as
/// the aircraft table's deferred lookup (`AircraftTable.defersLookups`): once a second the
/// receiver hands over the addresses that became reliable and awaits one query for all of
/// them. After `limit` the lookup is cancelled and the receiver goes on; a call that cannot
/// be cancelled at once ends at the store's own timeout (PostgreSQL's: 5 s for `run`), and
/// while the server is known to be away every call fails at once. Addresses a lookup could
/// not answer (an error, the limit) stay unknown; the failure is told once, until a lookup
/// works again.
final class StoreAircraftLookup: Sendable {
    let aircraft: AircraftRepository
    let limit: Duration
    private let report: @Sendable (String) -> Void
    private let failing = Mutex(false)

    init(_ aircraft: AircraftRepository, limit: Duration = .milliseconds(500), report: @escaping @Sendable (String) -> Void) {
        self.aircraft = aircraft
        self.limit = limit
        self.report = report
    }

    /// What the database knows of `addresses` (the unknown ones are not in the result).
    func info(_ addresses: [UInt32]) async -> [UInt32: AircraftInfo] {
        guard !addresses.isEmpty else { return [:] }
        let aircraft = aircraft, limit = limit
        do {
            guard let found = try await withDeadline(limit, { try await aircraft.aircraft(addresses: addresses) }) else {
                throw StoreError(description: "no answer within \(limit)")
            }
            if failing.withLock({ was in defer { was = false }; return was }) { report("aircraft database lookups work again") }
            return found
        } catch {
            if !failing.withLock({ was in defer { was = true }; return was }) {
                report("aircraft database lookup failed (\(error)); new aircraft are shown without registration and type until it works")
            }
            return [:]
        }
    }
}
