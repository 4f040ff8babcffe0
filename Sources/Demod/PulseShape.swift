/// How the receive chain turns a pulse into samples: its step response S(x), x in samples from
/// the filter's centre, tabulated at `resolution` entries a sample over [−`reach`, `reach`]
/// (0 before, 1 after). A rectangular pulse [a, b) gives S(t − a) − S(t − b) at time t.
///
/// A `ReceiveFilter` gives the shape the simulator renders through; `PulseLearner` estimates it
/// from the replies a receiver decodes, and the coherent pass (`CoherentSlicer`) fits with it.
public struct PulseShape: Sendable, Hashable {
    /// Half the table's span, samples.
    public let reach: Double
    /// Table entries per sample.
    public let resolution: Int
    /// S at (i / resolution − reach) samples.
    let step: [Float]

    /// The step response of `filter` at `sampleRate`.
    public init(filter: ReceiveFilter, sampleRate: SampleRate) {
        let reach = filter.halfLength * Double(sampleRate.hertz) / 1e6
        self.init(reach: reach, resolution: 512, step: filter.stepResponse(reach: reach, resolution: 512))
    }

    init(reach: Double, resolution: Int, step: [Float]) {
        self.reach = reach
        self.resolution = resolution
        self.step = step
    }

    /// S(x), x in samples from the filter's centre: linear between table entries.
    @inline(__always)
    public func stepResponse(at x: Double) -> Float {
        let position = (x + reach) * Double(resolution)
        if position <= 0 { return 0 }
        let i = Int(position)
        if i >= step.count - 1 { return 1 }
        let fraction = Float(position - Double(i))
        return step[i] + (step[i + 1] - step[i]) * fraction
    }
}
