import Foundation

/// How far predictions of an event were off, by how long before the event they were made.
public struct PredictionAccuracy: Sendable {
    /// One prediction: made `lead` seconds before the event, predicting it `error` seconds late
    /// (negative: early); nil error: no prediction then.
    public struct Sample: Sendable {
        public var lead: Double
        public var error: Double?
        public init(lead: Double, error: Double?) {
            self.lead = lead
            self.error = error
        }
    }

    /// Per event, its predictions in time order: (time made, predicted event time or nil).
    public private(set) var events: [(actual: Double, predictions: [(time: Double, predicted: Double?)])] = []

    public init() {}

    public mutating func add(actual: Double, predictions: [(time: Double, predicted: Double?)]) {
        events.append((actual, predictions))
    }

    /// The summary for predictions made `lead` seconds before their event (the one made
    /// nearest that moment, within `window` seconds).
    public func summary(lead: Double, window: Double = 10) -> Summary {
        var errors: [Double] = []
        var missing = 0
        for e in events {
            guard let p = e.predictions.min(by: { abs(e.actual - $0.time - lead) < abs(e.actual - $1.time - lead) }),
                  abs(e.actual - p.time - lead) <= window else { continue }
            if let predicted = p.predicted { errors.append(predicted - e.actual) } else { missing += 1 }
        }
        return Summary(lead: lead, errors: errors, missing: missing)
    }

    public struct Summary: Sendable {
        public var lead: Double
        /// Predicted minus actual, s.
        public var errors: [Double]
        /// Events without a prediction at that lead.
        public var missing: Int

        public var count: Int { errors.count }
        /// Median of |error|, s.
        public var medianAbsolute: Double? { Self.quantile(errors.map(abs), 0.5) }
        /// 90th percentile of |error|, s.
        public var p90Absolute: Double? { Self.quantile(errors.map(abs), 0.9) }
        /// Mean error (bias), s; negative: predicted early.
        public var bias: Double? { errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count) }

        static func quantile(_ values: [Double], _ q: Double) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let position = q * Double(sorted.count - 1)
            let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
    }
}
