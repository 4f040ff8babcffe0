/// One field of an aircraft: its value, when it was received (seconds, the table's time
/// base) and which source sent it.
public struct Tracked<Value: Sendable>: Sendable {
    public var value: Value
    /// Seconds, the time passed to `AircraftTable.apply`.
    public var time: Double
    public var source: DataSource

    public init(_ value: Value, time: Double, source: DataSource) {
        self.value = value
        self.time = time
        self.source = source
    }

    /// Seconds since the value was received.
    @inlinable
    public func age(at now: Double) -> Double { now - time }

    /// The update rule of every field: a value replaces the current one unless it is older
    /// (out-of-order input), or it comes from a worse source while the current value is
    /// younger than `staleAfter` seconds. Returns true when `slot` changed.
    @inline(__always) @discardableResult
    static func put(_ slot: inout Tracked?, _ value: Value, source: DataSource, time: Double, staleAfter: Double) -> Bool {
        if let current = slot {
            if time < current.time { return false }
            if source < current.source && time - current.time < staleAfter { return false }
        }
        slot = Tracked(value, time: time, source: source)
        return true
    }
}

extension Tracked: Equatable where Value: Equatable {}
extension Tracked: Hashable where Value: Hashable {}

extension Optional {
    /// The tracked value when it is younger than `maxAge` seconds at `now`, else nil.
    @inline(__always)
    func fresh<V>(at now: Double, maxAge: Double) -> Tracked<V>? where Wrapped == Tracked<V> {
        guard let t = self, now - t.time <= maxAge else { return nil }
        return t
    }
}
