import ModeS

/// The table's CPR logic for one position message of one aircraft (DO-260B §A.1.7):
///
/// 1. Ignored (`filtered`) when its CPR fields are all zero (no fix) or a better source's
///    position is fresh (younger than `staleAfter`).
/// 2. Global decoding with the aircraft's latest half of the other format, when that half
///    is of the same kind (airborne/surface) and source and within the pair window: 10 s
///    airborne (shorter above `pairingReferenceSpeed`), surface 50 s up to 25 kt and 25 s
///    above. Surface pairs take the reference for choosing among their four solutions from
///    the receiver, else the aircraft's last position, else the estimated receiver.
/// 3. Otherwise, or when the pair fails, local decoding of the message alone relative to
///    the aircraft's own position (at most `localReferenceMaxAge` old), else relative to the
///    configured receiver (surface always; airborne only when `maxRange` ≤ 180 NM, the
///    distance within which a single message is unambiguous).
///
/// Every result must be plausible: within `maxRange` of the receiver (when configured) and
/// reachable from the aircraft's last position in the elapsed time at its speed (ground
/// speed × 1.3 + 100 kt airborne, × 1.5 + 30 kt surface; 1000 / 150 kt when unknown; plus
/// 0.5 NM). Straight-line distance never exceeds the path flown, so real turns pass. A
/// message without a time of its own (`flytracker decode` of bare hex) gets no speed check;
/// its global result must instead agree with the local decoding around the aircraft's own
/// position (`agreesLocally`).
///
/// A pair that fails (inconsistent, out of range or too fast) is dropped entirely, so a
/// corrupted half cannot spoil the next pair. When a global result fails the speed check
/// but the next global result (from fresh messages) agrees with it, the aircraft's track
/// was wrong (for example a first position decoded from a corrupted message): the new
/// position is accepted.
struct PositionDecoder {
    let configuration: TableConfiguration

    /// Why a position was not accepted.
    enum Check { case ok, range, speed }

    /// Processes one position message. `nic` is the message's NIC when known; `station` the
    /// position of the network receiver that heard it, used instead of the configured
    /// receiver (reference and range check) when given; `timeKnown` false: the message had no
    /// time of its own (`time` is the latest known), so no speed check.
    func process(_ a: inout Aircraft, cpr: CPRPosition, surface: Bool, nic: Int?, source: DataSource, time: Double,
                 timeKnown: Bool = true, station: Coordinate? = nil, counters: inout CPRCounters, estimator: inout ReceiverEstimator) {
        let c = configuration
        let receiver = station ?? c.receiver
        if surface { counters.surface &+= 1 } else { counters.airborne &+= 1 }
        if cpr.lat == 0 && cpr.lon == 0 {
            counters.filtered &+= 1
            return
        }
        if let p = a.position, source < p.source, time - p.time < c.staleAfter {
            counters.filtered &+= 1
            return
        }

        let half = CPRState.Half(position: cpr, time: time, surface: surface, source: source)
        let partner = cpr.format == .even ? a.cpr.odd : a.cpr.even
        if cpr.format == .even { a.cpr.even = half } else { a.cpr.odd = half }
        let speed = a.gs.fresh(at: time, maxAge: 30)?.value

        if let partner, partner.surface == surface, partner.source == source,
           (time - partner.time).magnitude <= pairWindow(surface: surface, groundSpeed: speed)
        {
            let even = cpr.format == .even ? cpr : partner.position
            let odd = cpr.format == .odd ? cpr : partner.position
            var result: Coordinate?
            var attempted = true
            if surface {
                if let reference = receiver ?? ownReference(a, at: time) ?? estimator.estimate {
                    result = CPR.globalSurface(even: even, odd: odd, latest: cpr.format, reference: reference)
                } else {
                    attempted = false
                }
            } else {
                result = CPR.globalAirborne(even: even, odd: odd, latest: cpr.format)
            }
            if !attempted {
                counters.globalSkipped &+= 1
            } else if let result {
                // Without a time there is no speed check, but a pair whose halves were far apart
                // decodes into the wrong zone, which the local decoding shows.
                let verdict = timeKnown || agreesLocally(result, cpr, surface: surface, a, time: time)
                    ? check(result, for: a, surface: surface, time: time, receiver: receiver, speed: timeKnown) : .speed
                switch verdict {
                case .ok:
                    counters.globalOK &+= 1
                    accept(result, into: &a, surface: surface, nic: nic, source: source, time: time)
                    a.cpr.rejected = nil
                    if !surface { estimator.add(result, from: a.key.packed) }
                    return
                case .range:
                    counters.globalRange &+= 1
                    a.cpr.clearHalves()
                case .speed:
                    if let previous = a.cpr.rejected, time - a.cpr.rejectedTime <= 3 * c.airbornePairWindow,
                       Geodesy.distance(previous, result) <= allowedDistance(elapsed: time - a.cpr.rejectedTime, surface: surface, groundSpeed: speed)
                    {
                        // Two independent pairs agree: the old track was the wrong one.
                        counters.globalOK &+= 1
                        accept(result, into: &a, surface: surface, nic: nic, source: source, time: time)
                        a.cpr.rejected = nil
                        return
                    }
                    counters.globalSpeed &+= 1
                    a.cpr.rejected = result
                    a.cpr.rejectedTime = time
                    a.cpr.clearHalves()
                }
            } else {
                counters.globalBad &+= 1
                a.cpr.clearHalves()
            }
        } else {
            counters.globalSkipped &+= 1
        }

        // Local decoding of this message alone.
        let reference: Coordinate
        let aircraftRelative: Bool
        if let own = ownReference(a, at: time) {
            reference = own
            aircraftRelative = true
        } else if let receiver, surface || c.maxRange <= 180 {
            reference = receiver
            aircraftRelative = false
        } else {
            counters.localSkipped &+= 1
            return
        }
        let decoded = surface ? CPR.localSurface(cpr, reference: reference) : CPR.localAirborne(cpr, reference: reference)
        guard let result = decoded else {
            counters.localSkipped &+= 1
            return
        }
        switch check(result, for: a, surface: surface, time: time, receiver: receiver, speed: timeKnown) {
        case .ok:
            counters.localOK &+= 1
            if aircraftRelative { counters.localAircraftRelative &+= 1 } else { counters.localReceiverRelative &+= 1 }
            accept(result, into: &a, surface: surface, nic: nic, source: source, time: time)
        case .range: counters.localRange &+= 1
        case .speed: counters.localSpeed &+= 1
        }
    }

    /// The aircraft's own last position when it is recent enough to decode against.
    func ownReference(_ a: Aircraft, at time: Double) -> Coordinate? {
        guard let p = a.position, (time - p.time).magnitude <= configuration.localReferenceMaxAge else { return nil }
        return p.value
    }

    /// Whether a global result matches the local decoding of the same message around the
    /// aircraft's own recent position (true without one): the check of a pair whose time is
    /// unknown. Halves too far apart in time decode into the wrong zone, a jump of at least
    /// one zone (3° or more); the local decoding cannot make that error.
    func agreesLocally(_ global: Coordinate, _ cpr: CPRPosition, surface: Bool, _ a: Aircraft, time: Double) -> Bool {
        guard let own = ownReference(a, at: time),
              let local = surface ? CPR.localSurface(cpr, reference: own) : CPR.localAirborne(cpr, reference: own) else { return true }
        var dLon = (global.longitude - local.longitude).magnitude
        if dLon > 180 { dLon = 360 - dLon }
        return (global.latitude - local.latitude).magnitude < 0.1 && dLon < 0.1
    }

    /// Longest time between the two halves of a pair, s.
    func pairWindow(surface: Bool, groundSpeed: Double?) -> Double {
        if surface { return (groundSpeed ?? 0) > 25 ? 25 : 50 }
        let base = configuration.airbornePairWindow
        guard let gs = groundSpeed, gs > configuration.pairingReferenceSpeed else { return base }
        return base * configuration.pairingReferenceSpeed / gs
    }

    /// Range and speed plausibility of a decoded position (`speed` false: range only).
    func check(_ position: Coordinate, for a: Aircraft, surface: Bool, time: Double, receiver: Coordinate?, speed checked: Bool = true) -> Check {
        if let receiver, Geodesy.distance(receiver, position) > configuration.maxRange {
            return .range
        }
        if checked, let last = a.position {
            let speed = a.gs.fresh(at: time, maxAge: 30)?.value
            let allowed = allowedDistance(elapsed: time - last.time, surface: surface, groundSpeed: speed)
            if Geodesy.distance(last.value, position) > allowed { return .speed }
        }
        return .ok
    }

    /// Farthest an aircraft may plausibly move in `elapsed` seconds, NM.
    func allowedDistance(elapsed: Double, surface: Bool, groundSpeed: Double?) -> Double {
        let speed: Double
        if surface {
            speed = groundSpeed.map { $0 * 1.5 + 30 } ?? 150
        } else {
            speed = groundSpeed.map { max($0 * 1.3 + 100, 250) } ?? 1000
        }
        return 0.5 + speed * elapsed.magnitude / 3600
    }

    func accept(_ position: Coordinate, into a: inout Aircraft, surface: Bool, nic: Int?, source: DataSource, time: Double) {
        a.position = Tracked(position, time: time, source: source)
        a.positionOnSurface = surface
        a.nic = nic.map { Tracked($0, time: time, source: source) }
        if surface { Tracked.put(&a.onGround, true, source: source, time: time, staleAfter: configuration.staleAfter) }
    }
}
