import AsyncAlgorithms
import ModeS
import ServiceLifecycle
import Store
import Tracking

/// The sighting log and what rides on it, for a running receiver, as a service of its
/// `ServiceGroup`: the recorder and watchlist matching (`SightingRecorder`), goals
/// (`GoalService`), automatic posts (`AutoPoster`) and reminders (`ReminderService`); the
/// journal events they write go on to the webhook alerts (`AlertService.queue`).
///
/// The receiver hands over one table snapshot a second (`hand(_:)`, an `AsyncChannel`): the
/// call returns once the service has taken the snapshot, so the receiver goes on decoding the
/// next second while this one is written, and waits only when the log is a whole second
/// behind. A replay faster than real time thus records every second, as a live run does.
///
/// At the start it closes the visits a killed run left open. It ends when the receiver says
/// no more will come (`inputEnded()`), or at the group's graceful shutdown (the receiver,
/// later in the group, has stopped by then): it records what it has taken, closes the
/// visits still open (their closest approach journaled, not queued for delivery: the alert
/// service is stopping, and the next start sends them), and writes what the store still
/// queues (`SightingStore.finishWriting`).
///
/// `@unchecked Sendable`: the recorder, goals, posts and reminders are used by `run` alone;
/// the receiver touches only the channel, which is `Sendable`.
public final class RecorderService: Service, @unchecked Sendable {
    private let store: any SightingStore
    private let recorder: SightingRecorder
    private let goals: GoalService
    private let reminders: ReminderService
    private let autoPoster: AutoPoster?
    private let receiver: Coordinate?
    private let epoch: Double
    private let quiet: Bool
    private let alerts: AsyncStream<[JournalEventRecord]>.Continuation?
    private let report: @Sendable (String) -> Void
    private let snapshots = AsyncChannel<TableSnapshot>()
    /// What failed last, said once until it works again.
    private var failing: Set<Part> = []

    private enum Part { case log, posts, reminders }

    /// Throws when the sighting log cannot start (its rules cannot be read).
    /// - Parameters:
    ///   - receiver: the receiver's position, for reminders' predictions (nil: from the table).
    ///   - epoch: the run's start (Unix seconds): visits open before it were left by a killed run.
    ///   - alerts: where journal events go for delivery (the alert service, which the group
    ///     stops after this one).
    ///   - report: how a failure or a recovery is told to the operator (a line of text).
    public init(store: any SightingStore, autoPosts: Set<AutoPoster.Kind>, receiver: Coordinate?, epoch: Double,
                quiet: Bool, alerts: AsyncStream<[JournalEventRecord]>.Continuation?,
                report: @escaping @Sendable (String) -> Void) async throws {
        self.store = store
        recorder = try await SightingRecorder(store: store)
        goals = GoalService(store: store)
        reminders = ReminderService(store: store)
        autoPoster = autoPosts.isEmpty ? nil : AutoPoster(store: store, kinds: autoPosts)
        self.receiver = receiver
        self.epoch = epoch
        self.quiet = quiet
        self.alerts = alerts
        self.report = report
    }

    /// Hands over the table of one second; returns once the service has taken it.
    public func hand(_ snapshot: TableSnapshot) async {
        await snapshots.send(snapshot)
    }

    /// No more snapshots will come: the service records what it took and ends.
    public func inputEnded() {
        snapshots.finish()
    }

    public func run() async {
        await closeInterruptedVisits()
        var last = epoch
        let snapshots = snapshots
        await withGracefulShutdownHandler {
            for await snapshot in snapshots {
                last = snapshot.time
                await record(snapshot)
            }
        } onGracefulShutdown: {
            snapshots.finish()
        }
        await finish(at: last)
        // A service that returns before the group asks it to (the receiver said it was done)
        // would end the group with an error: wait for the group's turn.
        try? await gracefulShutdown()
    }

    /// Visits a killed run left open: closed at their last sighting, counted once.
    private func closeInterruptedVisits() async {
        do {
            let recovered = try await recorder.closeInterruptedVisits(before: epoch)
            guard !recovered.isEmpty else { return }
            _ = try await goals.apply(recovered, now: epoch)
            if !quiet { report("closed \(recovered.count) visits left open by an interrupted run") }
        } catch {
            report("cannot close the visits an interrupted run left open: \(error)")
        }
    }

    /// One second: the log and journal, goals reached, automatic posts, reminders due.
    private func record(_ snapshot: TableSnapshot) async {
        await attempt(.log, "cannot write the sighting log") {
            var events = try await recorder.record(snapshot)
            let reached = try await goals.apply(recorder.lastClosed, now: snapshot.time)
            events += reached
            if let autoPoster {
                await attempt(.posts, "cannot write automatic posts") {
                    try await autoPoster.post(snapshot: snapshot, closed: recorder.lastClosed, goalEvents: reached)
                }
            }
            if !events.isEmpty { alerts?.yield(events) }
        }
        await attempt(.reminders, "cannot evaluate reminders") {
            let events = try await reminders.evaluate(snapshot, receiver: receiver)
            if !events.isEmpty { alerts?.yield(events) }
        }
    }

    private func finish(at time: Double) async {
        do {
            _ = try await recorder.finish(at: time)
            _ = try await goals.apply(recorder.lastClosed, now: time)
        } catch {
            report("cannot write the sighting log: \(error)")
        }
        let left = await store.finishWriting()
        if left > 0 { report("PostgreSQL did not take the last \(left) queued rows of the sighting log before exit") }
    }

    /// Runs `body`; a failure is told once (`message: error`) until `part` works again.
    private func attempt(_ part: Part, _ message: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            failing.remove(part)
        } catch {
            if failing.insert(part).inserted { report("\(message): \(error)") }
        }
    }
}
