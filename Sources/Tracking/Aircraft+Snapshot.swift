import ModeS

extension Aircraft {
    /// The aircraft as a snapshot shows it at `now`: fields older than their expiry removed,
    /// the GNSS altitude derived from baro + difference when not sent, and the derived
    /// values set (airline from the callsign; distance and bearing from `receiver`).
    func presented(at now: Double, expiry e: FieldExpiry, receiver: Coordinate?) -> Aircraft {
        var a = self
        var expired: UInt64 = 0
        func expire(_ fields: UInt64, after maxAge: Double) {
            var kept = fieldPresence & fields
            while kept != 0 {
                let i = kept.trailingZeroBitCount
                kept &= kept &- 1
                if now - fieldSlots.span[i].time > maxAge { expired |= 1 &<< UInt64(i) }
            }
        }
        expire(FieldMasks.identity, after: e.identity)
        expire(FieldMasks.state, after: e.state)
        expire(FieldMasks.position, after: e.position)
        expire(FieldMasks.weather, after: e.weather)
        a.presence &= ~expired
        if a.position == nil { a.nic = nil }
        if !heardBy.isEmpty { a.heardBy = heardBy.filter { now - $0.value.lastSeen <= e.position } }

        if a.altGeom == nil, let baro = a.altBaro, let delta = a.geomDelta {
            a.altGeom = Tracked(baro.value + delta.value, time: min(baro.time, delta.time), source: min(baro.source, delta.source))
        }
        a.airline = a.flight.flatMap { Airlines.name(forCallsign: $0.value) }
        if let receiver, let p = a.position?.value {
            a.distance = Geodesy.distance(receiver, p)
            a.bearing = Geodesy.bearing(from: receiver, to: p)
        } else {
            a.distance = nil
            a.bearing = nil
        }
        return a
    }

    // MARK: Convenience for readers

    /// ICAO type designator from the database.
    public var typeCode: String? { info?.typeCode }
    /// Owner/operator from the database, else the airline of the callsign.
    public var operatorName: String? { info?.ownerOperator ?? airline }
    /// Military according to the database.
    public var isMilitary: Bool { info?.isMilitary ?? false }
    /// The State the address is allocated to (ICAO addresses only).
    public var country: Country? { key.isICAO ? Registration.country(of: key.address) : nil }
}

extension AircraftTable {
    /// An immutable view of the reliable aircraft at `now`, sorted by key, with expired
    /// fields removed and derived values set. O(aircraft); call it about once a second.
    public func snapshot(at now: Double) -> TableSnapshot {
        let e = configuration.expiry
        let receiver = configuration.receiver
        var shown: [Aircraft] = []
        shown.reserveCapacity(aircraft.count)
        for a in aircraft where a.reliable && now - a.lastSeen <= configuration.removeAfter {
            shown.append(a.presented(at: now, expiry: e, receiver: receiver))
        }
        shown.sort { $0.key < $1.key }
        var snapshot = TableSnapshot(time: now, aircraft: shown, counters: counters, receiver: receiver,
                                     receiverEstimate: receiverEstimator.estimate, tracked: aircraft.count)
        snapshot.landings = landings
        return snapshot
    }
}
