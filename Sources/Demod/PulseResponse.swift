/// What one half-bit pulse (0.5 µs, amplitude 1) puts into the samples: g(x), the in-phase
/// value of a sample whose centre lies x samples after the pulse starts, through the receive
/// chain's filter. Stored as node values every 1/`nodesPerSample` sample from `first`,
/// linear between nodes, 0 outside.
///
/// Through a linear filter a reply is the sum of its pulses' responses, so this is all the
/// coherent pass (`CoherentSlicer`) needs to know about the filter; `PulseLearner` estimates it.
public struct PulseResponse: Sendable, Hashable {
    /// Nodes per sample.
    public static let nodesPerSample = 8
    /// x of the first node, samples (negative: a symmetric filter answers before the pulse).
    public let first: Double
    /// g at the nodes.
    public let values: [Float]

    public init(first: Double, values: [Float]) {
        self.first = first
        self.values = values
    }

    /// The response of a pulse `pulseLength` samples long through `shape`: S(x) − S(x − L).
    public init(shape: PulseShape, pulseLength: Double) {
        let step = 1 / Double(PulseResponse.nodesPerSample)
        let first = -(shape.reach / step).rounded(.up) * step
        let count = Int(((shape.reach + pulseLength - first) / step).rounded(.up)) + 1
        self.init(first: first, values: (0..<count).map { k in
            let x = first + Double(k) * step
            return shape.stepResponse(at: x) - shape.stepResponse(at: x - pulseLength)
        })
    }

    /// The half-bit pulse (0.5 µs) of `filter` at `sampleRate`.
    public init(filter: ReceiveFilter, sampleRate: SampleRate) {
        self.init(shape: PulseShape(filter: filter, sampleRate: sampleRate), pulseLength: PulseResponse.halfBit(at: sampleRate))
    }

    /// A half bit (0.5 µs) in samples: 1.2 at 2.4 MS/s, 1 at 2.0 MS/s.
    public static func halfBit(at sampleRate: SampleRate) -> Double { Double(sampleRate.hertz) / 2e6 }

    /// x of the last node, samples.
    public var last: Double { first + Double(values.count - 1) / Double(PulseResponse.nodesPerSample) }

    /// g(x), linear between nodes.
    public func value(at x: Double) -> Float {
        let position = (x - first) * Double(PulseResponse.nodesPerSample)
        guard position >= 0 else { return 0 }
        let k = Int(position)
        guard k < values.count - 1 else { return k == values.count - 1 && position == Double(k) ? values[k] : 0 }
        let fraction = Float(position - Double(k))
        return values[k] + (values[k + 1] - values[k]) * fraction
    }

    /// The area under g, sample·amplitude: the pulse's length for a filter of gain 1.
    public var area: Double {
        values.reduce(0) { $0 + Double($1) } / Double(PulseResponse.nodesPerSample)
    }
}
