import ModeS

/// The live aircraft table: decoded messages in, aircraft out.
///
/// A plain value owned by one task (the decoder): `apply` every message, `snapshot(at:)`
/// whenever readers need a view (each second), and hand the immutable snapshot to readers
/// (see `SnapshotPublisher`). Time is always a parameter, seconds on any one time base.
///
/// Aircraft are keyed by address and kind of address (`AircraftKey`): non-ICAO addresses
/// are kept apart. Each field keeps its value, time and source (`Tracked`, `DataSource`),
/// expires on its own (`FieldExpiry`), and positions go through `PositionDecoder`. An
/// aircraft shows in snapshots once reliable (`reliableAfter` messages in a row, each within
/// `reliabilityWindow` of the previous) and is removed after `removeAfter` seconds of
/// silence (`removeUnreliableAfter` if it never became reliable). Housekeeping runs inside
/// `apply` once per second of message time, so memory stays bounded by the aircraft heard
/// in the last few minutes (and by `capacity`).
public struct AircraftTable: Sendable {
    public var configuration: TableConfiguration {
        didSet { decoder = PositionDecoder(configuration: configuration) }
    }
    /// Asked once per aircraft when it becomes reliable.
    public var database: (any AircraftDatabase)?
    /// Whether an ICAO aircraft that `database` does not know (or every one, without a
    /// database) waits for a lookup the table cannot make itself, such as a store's, which
    /// is async: its address joins `pendingLookups`, and the owner answers with `supply`
    /// (`ReceiverLoop` does it once a second, before the snapshot).
    public var defersLookups = false
    /// Addresses waiting for that lookup, oldest first (at most `pendingLookupLimit`; an
    /// aircraft past the limit stays unknown).
    public private(set) var pendingLookups: [UInt32] = []
    public static let pendingLookupLimit = 4096
    public private(set) var counters = TableCounters()
    /// The receiver position estimated from decoded positions (used when none is configured).
    public private(set) var receiverEstimator = ReceiverEstimator()
    /// The latest message time seen.
    public private(set) var latestTime: Double = -.infinity
    /// The latest landings seen (at most `Landing.kept`), oldest first.
    public private(set) var landings: [Landing] = []

    var aircraft: ContiguousArray<Aircraft> = []
    var index: [UInt32: Int] = [:]
    var decoder: PositionDecoder
    var nextHousekeeping: Double = -.infinity

    public init(configuration: TableConfiguration = TableConfiguration(), database: (any AircraftDatabase)? = nil) {
        self.configuration = configuration
        self.database = database
        decoder = PositionDecoder(configuration: configuration)
    }

    /// Aircraft currently held (reliable or not).
    public var count: Int { aircraft.count }

    /// The stored record of an aircraft (reliable or not, expired fields included).
    public func record(_ key: AircraftKey) -> Aircraft? {
        index[key.packed].map { aircraft[$0] }
    }

    /// The position `message`, applied at `time` seconds, gave its aircraft; nil when it gave
    /// none (what the SBS output prints on the message's line).
    public func position(givenBy message: ModeSMessage, at time: Double) -> Coordinate? {
        var type = AddressType.modeS
        if case .extendedSquitter(let es) = message.content { type = es.addressType }
        return record(AircraftKey(address: message.address, type: type))?.position
            .flatMap { $0.time == time ? $0.value : nil }
    }

    /// The NIC of a position message of an aircraft in the table, from its type code and the
    /// aircraft's ADS-B version and NIC supplements (nil before an operational status, for
    /// version 0, and for other messages).
    public func nic(of message: ModeSMessage) -> Int? {
        guard case .extendedSquitter(let es) = message.content,
              let a = record(AircraftKey(address: es.address, type: es.addressType)) else { return nil }
        switch es.message {
        case .airbornePosition(let p)?: return a.positionNIC(typeCode: p.typeCode, supplementB: p.nicSupplementB)
        case .surfacePosition(let p)?: return a.positionNIC(typeCode: p.typeCode, supplementB: false)
        default: return nil
        }
    }

    /// The receiver position in use: the configured one, else the estimate (if any).
    public var receiver: Coordinate? { configuration.receiver ?? receiverEstimator.estimate }

    // MARK: Applying messages

    /// Applies one decoded message received at `time` seconds. The message should have
    /// passed the receiver's acceptance rule (`AddressFilter.accept`): address/parity replies
    /// are trusted to carry a real address.
    ///
    /// `hearing` names the receiver of a network that delivered the frame (nil for the local
    /// radio): it is recorded in `Aircraft.heardBy`, and its position, when known, is the
    /// reference for decoding a lone CPR message and the centre of the range check in place
    /// of the configured receiver.
    ///
    /// `timeKnown` false: the frame carried no time of its own (`flytracker decode` of bare
    /// hex) and `time` is only the latest one known. Every window then holds (no time has
    /// passed), and a position's speed check, which needs the time between two positions, is
    /// not made.
    public mutating func apply(_ message: ModeSMessage, received: ReceivedFrame, at time: Double, via hearing: Hearing? = nil,
                               timeKnown: Bool = true) {
        let df = message.downlinkFormat
        counters.messages &+= 1
        counters.messagesByDF[df & 31] &+= 1
        if time >= nextHousekeeping { housekeep(at: time) }
        if time > latestTime { latestTime = time }
        let stale = configuration.staleAfter

        switch message.content {
        case .extendedSquitter(let es):
            // DF18 CF 4 (TIS-B/ADS-R management) and 7 (reserved) describe no aircraft.
            if let cf = es.controlField, cf == 4 || cf == 7 { return }
            let source = DataSource(es)
            let i = slot(AircraftKey(address: es.address, type: es.addressType), type: es.addressType, source: source, time: time)
            aircraft[i].count(at: time, signal: received.signal, configuration: configuration)
            if let hearing { aircraft[i].hear(hearing.receiver, signal: received.signal, at: time) }
            aircraft[i].noteAddressType(es.addressType, source: source, time: time, staleAfter: stale)
            // Read before the message's fields land: a surface position after airborne ones is a landing.
            let wasAirborne: Bool
            if case .surfacePosition? = es.message { wasAirborne = aircraft[i].onGround.map { !$0.value } ?? false } else { wasAirborne = false }
            var fields = FieldSet()
            es.contribute(to: &fields)
            aircraft[i].absorb(fields, source: source, time: time, staleAfter: stale)
            switch es.message {
            case .airbornePosition(let p)?:
                Tracked.put(&aircraft[i].onGround, false, source: source, time: time, staleAfter: stale)
                let nic = aircraft[i].positionNIC(typeCode: p.typeCode, supplementB: p.nicSupplementB)
                decoder.process(&aircraft[i], cpr: p.cpr, surface: false, nic: nic, source: source, time: time,
                                timeKnown: timeKnown, station: hearing?.position, counters: &counters.cpr, estimator: &receiverEstimator)
            case .surfacePosition(let p)?:
                if wasAirborne { noteLanding(i, at: time) }
                let nic = aircraft[i].positionNIC(typeCode: p.typeCode, supplementB: false)
                decoder.process(&aircraft[i], cpr: p.cpr, surface: true, nic: nic, source: source, time: time,
                                timeKnown: timeKnown, station: hearing?.position, counters: &counters.cpr, estimator: &receiverEstimator)
            case .operationalStatus(let status)?:
                aircraft[i].note(status)
            default:
                break
            }
            if !aircraft[i].infoLooked && aircraft[i].reliable { lookUp(i) }

        case .commBAltitude(let reply, let register), .commBIdentity(let reply, let register):
            let key = AircraftKey(address: message.address, isICAO: true)
            let i = slot(key, type: .modeS, source: .modeS, time: time)
            aircraft[i].count(at: time, signal: received.signal, configuration: configuration)
            if let hearing { aircraft[i].hear(hearing.receiver, signal: received.signal, at: time) }
            aircraft[i].noteAddressType(.modeS, source: .modeS, time: time, staleAfter: stale)
            var fields = FieldSet()
            reply.contribute(to: &fields)
            countSuppressedAltitude(fields, of: i, at: time)
            aircraft[i].absorb(fields, source: .modeS, time: time, staleAfter: stale)
            if let register {
                var commB = FieldSet()
                register.contribute(to: &commB)
                aircraft[i].absorb(commB, source: .commB, time: time, staleAfter: stale)
            }
            if !aircraft[i].infoLooked && aircraft[i].reliable { lookUp(i) }

        case .shortAirAir, .longAirAir, .surveillanceAltitude, .surveillanceIdentity, .allCall:
            let key = AircraftKey(address: message.address, isICAO: true)
            let i = slot(key, type: .modeS, source: .modeS, time: time)
            aircraft[i].count(at: time, signal: received.signal, configuration: configuration)
            if let hearing { aircraft[i].hear(hearing.receiver, signal: received.signal, at: time) }
            aircraft[i].noteAddressType(.modeS, source: .modeS, time: time, staleAfter: stale)
            let fields = message.fields
            countSuppressedAltitude(fields, of: i, at: time)
            aircraft[i].absorb(fields, source: .modeS, time: time, staleAfter: stale)
            if !aircraft[i].infoLooked && aircraft[i].reliable { lookUp(i) }

        case .militaryExtendedSquitter, .commD, .unknown:
            // No address in the clear (DF19, DF24) or nothing decodable: counted only.
            break
        }
    }

    /// Counts a Mode S reply's altitude that the aircraft's fresher, better-sourced altitude
    /// (ADS-B) will keep out (`TableCounters.altitudeSuppressed`).
    @inline(__always)
    mutating func countSuppressedAltitude(_ fields: FieldSet, of i: Int, at time: Double) {
        guard fields.altBaro != nil, let current = aircraft[i].altBaro, current.source > .modeS,
              time >= current.time, time - current.time < configuration.staleAfter else { return }
        counters.altitudeSuppressed &+= 1
    }

    /// Aircraft `i` reports on the surface after flying: a landing, if it had a recent
    /// airborne position and track.
    mutating func noteLanding(_ i: Int, at time: Double) {
        guard let position = aircraft[i].position, let track = aircraft[i].track, time - position.time <= 30 else { return }
        if landings.count >= Landing.kept { landings.removeFirst() }
        landings.append(Landing(address: aircraft[i].key.address, position: position.value, track: track.value, time: time))
    }

    /// Records that the receiver of `hearing` also heard `message`, a copy of a frame another
    /// receiver delivered first (merged, not applied twice). An aircraft the table does not
    /// hold is left alone: the first copy creates aircraft.
    public mutating func hear(_ message: ModeSMessage, received: ReceivedFrame, at time: Double, via hearing: Hearing) {
        let key: AircraftKey
        switch message.content {
        case .extendedSquitter(let es): key = AircraftKey(address: es.address, type: es.addressType)
        case .militaryExtendedSquitter, .commD, .unknown: return
        default: key = AircraftKey(address: message.address, isICAO: true)
        }
        guard let i = index[key.packed] else { return }
        aircraft[i].hear(hearing.receiver, signal: received.signal, at: time)
    }

    /// The index of `key`, creating the aircraft when it is new.
    @inline(__always)
    mutating func slot(_ key: AircraftKey, type: AddressType, source: DataSource, time: Double) -> Int {
        if let i = index[key.packed] { return i }
        if aircraft.count >= max(configuration.capacity, 1) { evictOne() }
        let i = aircraft.count
        aircraft.append(Aircraft(key: key, type: type, source: source, time: time))
        index[key.packed] = i
        counters.tracks &+= 1
        return i
    }

    /// Looks the aircraft up in the database (once) and sets its registration.
    mutating func lookUp(_ i: Int) {
        aircraft[i].infoLooked = true
        let key = aircraft[i].key
        guard key.isICAO else { return }
        let info = database?.info(address: key.address)
        aircraft[i].info = info
        aircraft[i].registration = info?.registration ?? Registration.fromAddress(key.address)
        if info == nil && defersLookups && pendingLookups.count < Self.pendingLookupLimit { pendingLookups.append(key.address) }
    }

    /// The addresses waiting for a lookup (`defersLookups`), handed over once: the list is
    /// emptied.
    public mutating func takePendingLookups() -> [UInt32] {
        defer { pendingLookups.removeAll(keepingCapacity: true) }
        return pendingLookups
    }

    /// The answers to `takePendingLookups`: each ICAO aircraft still held whose address is
    /// in `found` takes that entry and its registration, as if `database` had known it.
    public mutating func supply(_ found: [UInt32: AircraftInfo]) {
        for (address, info) in found {
            guard let i = index[AircraftKey(address: address).packed], aircraft[i].info == nil else { continue }
            aircraft[i].info = info
            if let registration = info.registration { aircraft[i].registration = registration }
        }
    }

    // MARK: Housekeeping

    /// Removes silent aircraft. `apply` calls it once per second of message time; call it
    /// yourself when messages stop arriving (for example before a snapshot).
    public mutating func housekeep(at time: Double) {
        nextHousekeeping = time + 1
        let c = configuration
        var i = 0
        while i < aircraft.count {
            let a = aircraft[i]
            let silence = time - a.lastSeen
            if silence > (a.reliable ? c.removeAfter : c.removeUnreliableAfter) {
                remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// Removes the aircraft at `i` (swapping the last one into its place).
    mutating func remove(at i: Int) {
        let gone = aircraft[i]
        if gone.messages == 1 { counters.singleMessageTracks &+= 1 }
        if !gone.reliable { counters.unreliableTracks &+= 1 }
        index[gone.key.packed] = nil
        let last = aircraft.count - 1
        if i != last {
            aircraft.swapAt(i, last)
            index[aircraft[i].key.packed] = i
        }
        aircraft.removeLast()
    }

    /// Makes room when the table is full: the longest-silent unreliable aircraft, else the
    /// longest-silent of all.
    mutating func evictOne() {
        guard !aircraft.isEmpty else { return }
        var victim = -1
        var oldest = Double.infinity
        for (i, a) in aircraft.enumerated() where !a.reliable && a.lastSeen < oldest {
            victim = i
            oldest = a.lastSeen
        }
        if victim < 0 {
            for (i, a) in aircraft.enumerated() where a.lastSeen < oldest {
                victim = i
                oldest = a.lastSeen
            }
        }
        remove(at: max(victim, 0))
    }

    /// Forgets every aircraft (counters are kept).
    public mutating func removeAll() {
        aircraft.removeAll()
        index.removeAll()
    }
}
