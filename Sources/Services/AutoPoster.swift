import Foundation
import Store
import Tracking

/// The site's automatic posts, each kind enabled by the owner (`run --auto-posts`):
/// emergency squawks (once per aircraft and code while it is in view), the first sighting of a
/// type at this receiver (when its visit closes), and goals reached (posted as the user, to
/// their friends). Site posts have no author and are public, about their aircraft.
public final class AutoPoster {
    public enum Kind: String, Sendable, CaseIterable {
        case emergency, newType = "new-type", goal
    }

    public let store: any SightingStore
    public let kinds: Set<Kind>
    private var emergencies: [UInt32: String] = [:]
    private var knownTypes: Set<String>?

    public init(store: any SightingStore, kinds: Set<Kind>) {
        self.store = store
        self.kinds = kinds
    }

    static let meanings = ["7500": "unlawful interference", "7600": "radio failure", "7700": "general emergency"]

    /// Posts for one second of the table (emergencies), the visits that closed (new types) and
    /// the goal events written (goals reached); returns the posts written.
    @discardableResult
    public func post(snapshot: TableSnapshot, closed: [VisitRecord], goalEvents: [JournalEventRecord]) async throws -> [PostRecord] {
        var posts: [PostRecord] = []
        let now = snapshot.time
        if kinds.contains(.emergency) {
            var inView: [UInt32: String] = [:]
            for a in snapshot.aircraft {
                let o = Observation(a)
                guard let squawk = o.squawk, let meaning = Self.meanings[squawk] else { continue }
                inView[o.key] = squawk
                guard emergencies[o.key] != squawk else { continue }
                let who = [o.callsign, o.registration].compactMap { $0 }.first ?? o.hex
                let distance = o.distance.map { String(format: ", %.0f NM from the receiver", $0) } ?? ""
                posts.append(PostRecord(userId: nil, audience: .public, text: "Emergency squawk \(squawk) (\(meaning)): \(who)\(o.typeCode.map { " (\($0))" } ?? "")\(distance)",
                                        address: Int(o.key), createdAt: now))
            }
            emergencies = inView
        }
        if kinds.contains(.newType), !closed.isEmpty {
            if knownTypes == nil { knownTypes = try await store.posts.knownTypes(excludingVisits: Set(closed.compactMap(\.id))) }
            for v in closed {
                guard let type = v.typeCode?.uppercased(), knownTypes!.insert(type).inserted else { continue }
                let who = [v.callsign, v.registration].compactMap { $0 }.first ?? Observation.hex(UInt32(truncatingIfNeeded: v.address))
                posts.append(PostRecord(userId: nil, audience: .public, text: "First \(type) seen here: \(who)", address: v.address, visitId: v.id, createdAt: now))
            }
        }
        if kinds.contains(.goal) {
            for e in goalEvents where e.kind == .goal {
                let name = try await store.accounts.user(id: e.userId)?.username ?? "someone"
                posts.append(PostRecord(userId: e.userId, audience: .friends, text: "\(name) reached a goal: \(e.ruleLabel ?? "")", address: e.address,
                                        visitId: e.visitId, createdAt: now))
            }
        }
        var written: [PostRecord] = []
        for post in posts { written.append(try await store.posts.addPost(post)) }
        return written
    }
}
