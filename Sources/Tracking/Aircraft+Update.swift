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

    /// Merges the values of one message (all from `source`) into the fields the table keeps
    /// from messages (`FieldKeeping.fromMessages`), each under the rule of `Tracked.put`: a
    /// value replaces the current one unless it is older, or from a worse source while the
    /// current one is younger than `staleAfter` s. Positions come through the CPR logic.
    @inline(__always)
    mutating func absorb(_ f: FieldSet, source: DataSource, time t: Double, staleAfter s: Double) {
        var fields = f.present & FieldMasks.fromMessages
        while fields != 0 {
            let i = fields.trailingZeroBitCount
            let bit: UInt64 = 1 &<< UInt64(i)
            fields &= fields &- 1
            if fieldPresence & bit != 0 {
                let current = fieldSlots.span[i].time
                if t < current { continue }
                if source < fieldSources.span[i] && t - current < s { continue }
            }
            fieldSlots[i] = FieldSlot(bits: f.slot(i), time: t)
            fieldSources[i] = source
            presence |= bit
        }
    }

    /// Remembers the NIC supplements of an operational status message (for NIC).
    mutating func note(_ status: OperationalStatus) {
        guard status.version == 1 || status.version == 2, let a = status.nicSupplementA else { return }
        nicSupplementA = a
        if case .surface(let surface)? = status.capabilities { nicSupplementC = surface.nicSupplementC }
    }

    /// NIC of a position message, from its type code and the aircraft's version and
    /// supplements (nil until an operational status was received, and for version 0).
    @inline(__always)
    func positionNIC(typeCode: Int, supplementB: Bool) -> Int? {
        guard let version = self.version?.value, let a = nicSupplementA else { return nil }
        return NavigationIntegrity.nic(typeCode: typeCode, version: version, supplementA: a,
                                       supplementB: supplementB, supplementC: nicSupplementC ?? false)
    }

    /// Radius of containment in metres for a NIC (DO-260B Table 2-14; for NIC 6, which
    /// covers 0.3, 0.5 and 0.6 NM, the common 0.5 NM).
    @usableFromInline static func containmentRadius(nic: Int) -> Int? {
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
