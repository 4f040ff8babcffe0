import ModeS

extension Aircraft {
    /// The aircraft as a snapshot shows it at `now`: fields older than their expiry removed,
    /// the GNSS altitude derived from baro + difference when not sent, and the derived
    /// values set (airline from the callsign; distance and bearing from `receiver`).
    func presented(at now: Double, expiry e: FieldExpiry, receiver: Coordinate?) -> Aircraft {
        var a = self
        a.packedCallsign = packedCallsign.fresh(at: now, maxAge: e.identity)
        a.squawk = squawk.fresh(at: now, maxAge: e.identity)
        a.category = category.fresh(at: now, maxAge: e.identity)
        a.emergency = emergency.fresh(at: now, maxAge: e.state)
        a.altBaro = altBaro.fresh(at: now, maxAge: e.state)
        a.altGeom = altGeom.fresh(at: now, maxAge: e.state)
        a.geomDelta = geomDelta.fresh(at: now, maxAge: e.state)
        a.onGround = onGround.fresh(at: now, maxAge: e.state)
        a.gs = gs.fresh(at: now, maxAge: e.state)
        a.ias = ias.fresh(at: now, maxAge: e.state)
        a.tas = tas.fresh(at: now, maxAge: e.state)
        a.mach = mach.fresh(at: now, maxAge: e.state)
        a.track = track.fresh(at: now, maxAge: e.state)
        a.trackRate = trackRate.fresh(at: now, maxAge: e.state)
        a.roll = roll.fresh(at: now, maxAge: e.state)
        a.magHeading = magHeading.fresh(at: now, maxAge: e.state)
        a.trueHeading = trueHeading.fresh(at: now, maxAge: e.state)
        a.baroRate = baroRate.fresh(at: now, maxAge: e.state)
        a.geomRate = geomRate.fresh(at: now, maxAge: e.state)
        a.navQNH = navQNH.fresh(at: now, maxAge: e.state)
        a.navAltitudeMCP = navAltitudeMCP.fresh(at: now, maxAge: e.state)
        a.navAltitudeFMS = navAltitudeFMS.fresh(at: now, maxAge: e.state)
        a.navHeading = navHeading.fresh(at: now, maxAge: e.state)
        a.navModes = navModes.fresh(at: now, maxAge: e.state)
        a.alert = alert.fresh(at: now, maxAge: e.state)
        a.spi = spi.fresh(at: now, maxAge: e.state)
        a.position = position.fresh(at: now, maxAge: e.position)
        if !heardBy.isEmpty { a.heardBy = heardBy.filter { now - $0.value.lastSeen <= e.position } }
        a.nic = a.position == nil ? nil : nic
        a.rc = a.position == nil ? nil : rc
        a.nicBaro = nicBaro.fresh(at: now, maxAge: e.state)
        a.nacP = nacP.fresh(at: now, maxAge: e.state)
        a.nacV = nacV.fresh(at: now, maxAge: e.state)
        a.sil = sil.fresh(at: now, maxAge: e.state)
        a.silType = silType.fresh(at: now, maxAge: e.state)
        a.gva = gva.fresh(at: now, maxAge: e.state)
        a.sda = sda.fresh(at: now, maxAge: e.state)
        a.version = version.fresh(at: now, maxAge: e.state)
        a.windSpeed = windSpeed.fresh(at: now, maxAge: e.weather)
        a.windDirection = windDirection.fresh(at: now, maxAge: e.weather)
        a.oat = oat.fresh(at: now, maxAge: e.weather)
        a.staticPressure = staticPressure.fresh(at: now, maxAge: e.weather)
        a.humidity = humidity.fresh(at: now, maxAge: e.weather)

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
