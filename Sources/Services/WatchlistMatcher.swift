import ModeS
import Store
import Tracking

/// Every user's watchlist rules indexed by kind and value, so matching one aircraft costs a
/// fixed number of dictionary look-ups however many rules there are: address, registration,
/// callsign (flight rules become ICAO callsigns), operator, squawk and exact type each one;
/// a type pattern `A32*` is found by looking up the prefixes of the aircraft's type (at most
/// 5); emergencies and military are lists consulted only when the aircraft qualifies.
public struct WatchlistMatcher: Sendable {
    private var byAddress: [String: [WatchRule]] = [:]
    private var byRegistration: [String: [WatchRule]] = [:]
    private var byCallsign: [String: [WatchRule]] = [:]
    private var byType: [String: [WatchRule]] = [:]
    private var byTypePrefix: [String: [WatchRule]] = [:]
    private var bySquawk: [String: [WatchRule]] = [:]
    private var byOperator: [String: [WatchRule]] = [:]
    private var emergencies: [WatchRule] = []
    private var military: [WatchRule] = []
    public let ruleCount: Int

    /// Indexes `rules`; flight rules in IATA form are translated with `airlines` (a flight
    /// whose airline is unknown matches nothing).
    public init(rules: [WatchRule], airlines: AirlineCodes = AirlineCodes()) {
        ruleCount = rules.count
        for rule in rules {
            let v = rule.value
            switch rule.kind {
            case .address: byAddress[v.lowercased(), default: []].append(rule)
            case .registration: byRegistration[RegistrationKey.normalize(v), default: []].append(rule)
            case .callsign: byCallsign[v.uppercased(), default: []].append(rule)
            case .flight:
                if let callsign = airlines.callsign(forFlight: v) { byCallsign[callsign, default: []].append(rule) }
            case .type:
                if v.hasSuffix("*") { byTypePrefix[String(v.dropLast()).uppercased(), default: []].append(rule) }
                else { byType[v.uppercased(), default: []].append(rule) }
            case .squawk: bySquawk[v, default: []].append(rule)
            case .emergencies: emergencies.append(rule)
            case .military: military.append(rule)
            case .operator: byOperator[v.uppercased(), default: []].append(rule)
            }
        }
    }

    /// The rules `o` matches, each once, in rule-id order.
    public func matches(_ o: Observation) -> [WatchRule] {
        var found: [WatchRule] = []
        func add(_ rules: [WatchRule]?) { if let rules { found.append(contentsOf: rules) } }
        add(byAddress[o.hex])
        if let r = o.registration { add(byRegistration[RegistrationKey.normalize(r)]) }
        if let c = o.callsign?.uppercased() {
            add(byCallsign[c])
            if let designator = Airlines.designator(ofCallsign: c) {
                add(byOperator[designator])
                if let name = Airlines.names[designator]?.uppercased(), name != o.operatorName?.uppercased() { add(byOperator[name]) }
            }
        }
        if let op = o.operatorName?.uppercased() { add(byOperator[op]) }
        if let t = o.typeCode?.uppercased() {
            add(byType[t])
            if !byTypePrefix.isEmpty {
                for length in 0...min(t.count, 4) { add(byTypePrefix[String(t.prefix(length))]) }
            }
        }
        if let s = o.squawk { add(bySquawk[s]) }
        if o.isEmergency { add(emergencies) }
        if o.military { add(military) }
        guard found.count > 1 else { return found }
        var seen = Set<Int64>()
        return found.filter { seen.insert($0.id ?? -1).inserted }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
    }
}
