/// The coherent search's least reliable error events (bits and runs of equal bits), for the
/// erasure repair (`ErasureRepair`).
extension CoherentSlicer {
    /// The `count` least reliable error events after the DF, least first: single bits
    /// (`reliability`) and runs of equal bits (`runs`), as 1-based frame bit ranges for
    /// `ErasureRepair`. Equal reliabilities: the earlier, then the shorter event first.
    ///
    /// A partial selection: the chosen few kept in order as the events go by (a dozen of
    /// about two hundred), not a sort of them all.
    static func leastReliableEvents(_ decision: Decision, bitCount: Int, count: Int) -> [ClosedRange<Int>] {
        ratedLeastReliableEvents(decision, bitCount: bitCount, count: count).runs
    }

    /// `leastReliableEvents` with each event's reliability (squared misfit, as `reliability`).
    static func ratedLeastReliableEvents(_ decision: Decision, bitCount: Int, count: Int) -> (runs: [ClosedRange<Int>], reliabilities: [Float]) {
        let chosen = chooseLeastReliable(decision, bitCount: bitCount, count: count)
        return (chosen.map { ($0.first + 1)...($0.first + $0.length) }, chosen.map(\.reliability))
    }

    private static func chooseLeastReliable(_ decision: Decision, bitCount: Int, count: Int) -> [(reliability: Float, first: Int, length: Int)] {
        guard count > 0 else { return [] }
        var chosen: [(reliability: Float, first: Int, length: Int)] = []
        chosen.reserveCapacity(count + 1)
        func offer(_ key: (Float, Int, Int)) {
            if chosen.count == count, key >= chosen[count - 1] { return }
            var j = chosen.count
            while j > 0, key < chosen[j - 1] { j -= 1 }
            chosen.insert(key, at: j)
            if chosen.count > count { chosen.removeLast() }
        }
        for i in 5..<bitCount { offer((decision.reliability[i], i, 1)) }
        for run in decision.runs where run.first >= 5 && run.first + run.length <= bitCount {
            offer((run.reliability, run.first, run.length))
        }
        return chosen
    }

    /// The `count` least reliable bits after the DF (1-based frame bit numbers, least first;
    /// equal reliabilities: the earlier bit first): `leastReliableEvents` without runs.
    static func leastReliable(_ reliability: [Float], bitCount: Int, count: Int) -> [Int] {
        leastReliableEvents(Decision(raw: 0, reliability: reliability), bitCount: bitCount, count: count).map(\.lowerBound)
    }
}
