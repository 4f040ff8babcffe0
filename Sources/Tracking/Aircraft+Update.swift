import ModeS

extension Aircraft {
    /// Counts one message and its signal level; tracks reliability.
    @inline(__always)
    mutating func count(at time: Double, signal: Double?, configuration c: TableConfiguration) {
        messages &+= 1
        if time - lastSeen > c.reliabilityWindow { recentMessages = 0 }
        recentMessages &+= 1
        if recentMessages >= c.reliableAfter { reliable = true }
        if time > lastSeen { lastSeen = time }
        if let signal {
            signalPowers[Int(signalNext & 7)] = Decibels.power(dBFS: signal)
            signalNext = (signalNext &+ 1) & 7
            if signalCount < 8 { signalCount += 1 }
        }
    }

    /// Receivers of a network kept per aircraft (`heardBy`): beyond it, the one that heard
    /// it least recently is dropped, so frames under many receiver ids cannot grow one entry.
    static let maxHearers = 64

    /// Records that network receiver `receiver` delivered a frame of this aircraft.
    @inline(__always)
    mutating func hear(_ receiver: ReceiverID, signal: Double?, at time: Double) {
        if heardBy[receiver] == nil, heardBy.count >= Self.maxHearers,
           let stalest = heardBy.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
            heardBy[stalest] = nil
        }
        heardBy[receiver, default: ReceiverHearing(lastSeen: time)].add(signal: signal, at: time)
    }

    /// Records the kind of address of a message: the best recent source's kind is shown.
    @inline(__always)
    mutating func noteAddressType(_ type: AddressType, source: DataSource, time: Double, staleAfter: Double) {
        if addressType.value == type && addressType.source == source {
            if time > addressType.time { addressType.time = time }
            return
        }
        if time < addressType.time { return }
        if source < addressType.source && time - addressType.time < staleAfter { return }
        addressType = Tracked(type, time: time, source: source)
    }

    /// Merges the values of one message (all from `source`) into the fields, each under the
    /// rule of `Tracked.put`. Callsigns come separately (`packedCallsign`), positions through
    /// the CPR logic.
    mutating func absorb(_ f: FieldSet, source: DataSource, time t: Double, staleAfter s: Double) {
        // Optional-wrapped slots: `Tracked.put` keeps the better source while it is fresh.
        if let v = f.squawk { Tracked.put(&squawk, v, source: source, time: t, staleAfter: s) }
        if let v = f.category { Tracked.put(&category, v, source: source, time: t, staleAfter: s) }
        if let v = f.emergency { Tracked.put(&emergency, v, source: source, time: t, staleAfter: s) }
        if let v = f.altBaro { Tracked.put(&altBaro, v, source: source, time: t, staleAfter: s) }
        if let v = f.altGeom { Tracked.put(&altGeom, v, source: source, time: t, staleAfter: s) }
        if let v = f.geomDelta { Tracked.put(&geomDelta, v, source: source, time: t, staleAfter: s) }
        if let v = f.onGround { Tracked.put(&onGround, v, source: source, time: t, staleAfter: s) }
        if let v = f.gs { Tracked.put(&gs, v, source: source, time: t, staleAfter: s) }
        if let v = f.ias { Tracked.put(&ias, v, source: source, time: t, staleAfter: s) }
        if let v = f.tas { Tracked.put(&tas, v, source: source, time: t, staleAfter: s) }
        if let v = f.mach { Tracked.put(&mach, v, source: source, time: t, staleAfter: s) }
        if let v = f.track { Tracked.put(&track, v, source: source, time: t, staleAfter: s) }
        if let v = f.trackRate { Tracked.put(&trackRate, v, source: source, time: t, staleAfter: s) }
        if let v = f.roll { Tracked.put(&roll, v, source: source, time: t, staleAfter: s) }
        if let v = f.magHeading { Tracked.put(&magHeading, v, source: source, time: t, staleAfter: s) }
        if let v = f.trueHeading { Tracked.put(&trueHeading, v, source: source, time: t, staleAfter: s) }
        if let v = f.baroRate { Tracked.put(&baroRate, v, source: source, time: t, staleAfter: s) }
        if let v = f.geomRate { Tracked.put(&geomRate, v, source: source, time: t, staleAfter: s) }
        if let v = f.navQNH { Tracked.put(&navQNH, v, source: source, time: t, staleAfter: s) }
        if let v = f.navAltitudeMCP { Tracked.put(&navAltitudeMCP, v, source: source, time: t, staleAfter: s) }
        if let v = f.navAltitudeFMS { Tracked.put(&navAltitudeFMS, v, source: source, time: t, staleAfter: s) }
        if let v = f.navHeading { Tracked.put(&navHeading, v, source: source, time: t, staleAfter: s) }
        if let v = f.navModes { Tracked.put(&navModes, v, source: source, time: t, staleAfter: s) }
        if let v = f.alert { Tracked.put(&alert, v, source: source, time: t, staleAfter: s) }
        if let v = f.spi { Tracked.put(&spi, v, source: source, time: t, staleAfter: s) }
        if let v = f.nicBaro { Tracked.put(&nicBaro, v, source: source, time: t, staleAfter: s) }
        if let v = f.nacP { Tracked.put(&nacP, v, source: source, time: t, staleAfter: s) }
        if let v = f.nacV { Tracked.put(&nacV, v, source: source, time: t, staleAfter: s) }
        if let v = f.sil { Tracked.put(&sil, v, source: source, time: t, staleAfter: s) }
        if let v = f.silType { Tracked.put(&silType, v, source: source, time: t, staleAfter: s) }
        if let v = f.gva { Tracked.put(&gva, v, source: source, time: t, staleAfter: s) }
        if let v = f.sda { Tracked.put(&sda, v, source: source, time: t, staleAfter: s) }
        if let v = f.version { Tracked.put(&version, v, source: source, time: t, staleAfter: s) }
        if let v = f.windSpeed { Tracked.put(&windSpeed, v, source: source, time: t, staleAfter: s) }
        if let v = f.windDirection { Tracked.put(&windDirection, v, source: source, time: t, staleAfter: s) }
        if let v = f.oat { Tracked.put(&oat, v, source: source, time: t, staleAfter: s) }
        if let v = f.staticPressure { Tracked.put(&staticPressure, v, source: source, time: t, staleAfter: s) }
        if let v = f.humidity { Tracked.put(&humidity, v, source: source, time: t, staleAfter: s) }
    }

    /// Stores a callsign (packed as `Callsign.pack` does).
    @inline(__always)
    mutating func noteCallsign(_ packed: UInt64, source: DataSource, time: Double, staleAfter: Double) {
        Tracked.put(&packedCallsign, packed, source: source, time: time, staleAfter: staleAfter)
    }

    /// Remembers the NIC supplements of an operational status message (for NIC).
    mutating func note(_ status: OperationalStatus) {
        guard status.version == 1 || status.version == 2, let a = status.nicSupplementA else { return }
        nicSupplementA = a
        if case .surface(let surface)? = status.capabilities { nicSupplementC = surface.nicSupplementC }
    }

    /// NIC of a position message, from its type code and the aircraft's version and
    /// supplements (nil until an operational status was received, and for version 0).
    func nic(typeCode: Int, supplementB: Bool) -> Int? {
        guard let version = version?.value, let a = nicSupplementA else { return nil }
        return NavigationIntegrity.nic(typeCode: typeCode, version: version, supplementA: a,
                                       supplementB: supplementB, supplementC: nicSupplementC ?? false)
    }

    /// Radius of containment in metres for a NIC (DO-260B Table 2-14; for NIC 6, which
    /// covers 0.3, 0.5 and 0.6 NM, the common 0.5 NM).
    static func containmentRadius(nic: Int) -> Int? {
        switch nic {
        case 11: 8
        case 10: 25
        case 9: 75
        case 8: 185
        case 7: 370
        case 6: 926
        case 5: 1852
        case 4: 3704
        case 3: 7408
        case 2: 14816
        case 1: 37040
        default: nil
        }
    }
}
