/// Pairs even and odd CPR messages per aircraft and turns each new position message into a
/// coordinate when it can (DO-260B §A.1.7.7–8 for the pair, §A.1.7.5–6 for local decoding).
/// A plain value with no clock: every call passes the message time in seconds (any epoch;
/// nil when unknown).
///
/// For each message `resolve` tries, in order:
/// 1. Global decoding with the latest message of the other format from the same address,
///    when it is of the same kind (airborne/surface) and was received within 10 s airborne or
///    50 s surface (when either time is unknown the two are paired anyway). Surface decoding
///    needs a reference: the given one, else the aircraft's last decoded position. A pair
///    whose latitudes fall in different NL zones is rejected and its older half dropped.
/// 2. Local decoding against the aircraft's own last decoded position (when it is at most
///    `lastPositionMaxAge` seconds old, or either time is unknown), else against `reference`
///    (the receiver: valid for aircraft within 180 NM airborne / 45 NM surface of it).
///
/// Memory is bounded: at most `capacity` addresses are kept; when a new address would exceed
/// it, the least recently updated sixteenth (at least one) is forgotten.
public struct CPRPairing: Sendable {
    /// Longest time between an airborne even and odd message that are decoded together, s.
    public static let airbornePairWindow = 10.0
    /// Longest time between a surface even and odd message that are decoded together, s.
    public static let surfacePairWindow = 50.0
    /// Oldest own position used as the reference for local decoding, s (300 s at 600 kt is
    /// 50 NM, well inside the 180 NM airborne limit; on the surface 45 NM is out of reach).
    public static let lastPositionMaxAge = 300.0

    /// One received half of a pair.
    struct Half: Sendable {
        var position: CPRPosition
        var surface: Bool
        var time: Double?
    }

    /// What is remembered per address.
    struct State: Sendable {
        var even: Half?
        var odd: Half?
        var last: Coordinate?
        var lastTime: Double?
        /// Update counter value of the latest message, for eviction.
        var touched: UInt64
    }

    /// Most addresses remembered at once.
    public let capacity: Int
    private var states: [UInt32: State] = [:]
    private var updates: UInt64 = 0

    /// An empty pairing table holding at most `capacity` addresses (at least 1).
    public init(capacity: Int = 10_000) {
        self.capacity = max(capacity, 1)
    }

    /// Number of addresses currently remembered.
    public var count: Int { states.count }

    /// The last position decoded for an address, if it is still remembered.
    public func lastPosition(of address: UInt32) -> Coordinate? { states[address]?.last }

    /// Remembers `position` for `address` and returns its decoded coordinate, or nil when it
    /// cannot be decoded yet (no usable partner and no usable reference) or is inconsistent.
    public mutating func resolve(
        address: UInt32, position: CPRPosition, surface: Bool, at time: Double?, reference: Coordinate?
    ) -> Coordinate? {
        updates &+= 1
        if states[address] == nil && states.count >= capacity { evictOldest() }
        var state = states[address] ?? State(touched: updates)
        state.touched = updates
        defer { states[address] = state }

        let half = Half(position: position, surface: surface, time: time)
        let partner = position.format == .even ? state.odd : state.even
        switch position.format {
        case .even: state.even = half
        case .odd: state.odd = half
        }

        if let partner, partner.surface == surface,
           Self.withinWindow(partner.time, time, surface ? Self.surfacePairWindow : Self.airbornePairWindow)
        {
            let even = position.format == .even ? position : partner.position
            let odd = position.format == .odd ? position : partner.position
            var solved: Coordinate?
            var attempted = true
            if surface {
                if let surfaceReference = reference ?? state.last {
                    solved = CPR.globalSurface(even: even, odd: odd, latest: position.format, reference: surfaceReference)
                } else {
                    attempted = false
                }
            } else {
                solved = CPR.globalAirborne(even: even, odd: odd, latest: position.format)
            }
            let own = state.last.flatMap { last in
                Self.withinWindow(state.lastTime, time, Self.lastPositionMaxAge) ? last : nil
            }
            if let solved, Self.agrees(solved, withLocalDecodingOf: position, surface: surface, around: own) {
                state.last = solved
                state.lastTime = time
                return solved
            }
            if attempted {
                // The pair disagrees: forget the older half so it cannot spoil the next pair.
                switch position.format {
                case .even: state.odd = nil
                case .odd: state.even = nil
                }
            }
        } else if partner != nil {
            // Too old or of the other kind: it can never pair with anything newer.
            switch position.format {
            case .even: state.odd = nil
            case .odd: state.even = nil
            }
        }

        let own = state.last.flatMap { last in
            Self.withinWindow(state.lastTime, time, Self.lastPositionMaxAge) ? last : nil
        }
        guard let localReference = own ?? reference else { return nil }
        let solved = surface
            ? CPR.localSurface(position, reference: localReference)
            : CPR.localAirborne(position, reference: localReference)
        if let solved {
            state.last = solved
            state.lastTime = time
        }
        return solved
    }

    /// A global result must match the local decoding of the same message around the
    /// aircraft's own recent position, when there is one. A pair whose halves are too far
    /// apart in time (unknown timestamps let that through) decodes into the wrong zone, a jump
    /// of at least one zone (3° or more); the local decoding cannot make that error.
    static func agrees(_ global: Coordinate, withLocalDecodingOf position: CPRPosition, surface: Bool, around own: Coordinate?) -> Bool {
        guard let own else { return true }
        let local = surface ? CPR.localSurface(position, reference: own) : CPR.localAirborne(position, reference: own)
        guard let local else { return true }
        let dLat = (global.latitude - local.latitude).magnitude
        var dLon = (global.longitude - local.longitude).magnitude
        if dLon > 180 { dLon = 360 - dLon }
        return dLat < 0.1 && dLon < 0.1
    }

    /// Forgets everything about one address.
    public mutating func remove(address: UInt32) {
        states[address] = nil
    }

    /// True when the two times are within `window` seconds of each other, or either is unknown.
    static func withinWindow(_ a: Double?, _ b: Double?, _ window: Double) -> Bool {
        guard let a, let b else { return true }
        return (a - b).magnitude <= window
    }

    /// Drops the least recently updated sixteenth of the addresses (at least one).
    private mutating func evictOldest() {
        let victims = max(capacity / 16, 1)
        let oldest = states.map { (touched: $0.value.touched, address: $0.key) }
            .sorted { $0.touched < $1.touched }
            .prefix(victims)
        for entry in oldest { states[entry.address] = nil }
    }
}
