import ModeS
import RealModule

/// The low-pass filter a receive chain puts in front of the samples: the families the simulator
/// renders through (`ReceiverChannel.filter`) and the learned pulse shape (`PulseLearner`) is
/// checked on. Each is defined relative to the sample rate, as a dongle's decimation filter is.
///
/// - `rtl2832u`: the RTL2832U's decimation low-pass as modelled: a Blackman-windowed sinc,
///   −6 dB at 0.4 × the sample rate, ±3 µs. The coherent pass starts from this shape.
/// - `nyquistSinc`: a Blackman-windowed sinc, −6 dB at the Nyquist frequency (0.5 × the rate):
///   a wider decimator than the RTL2832U's.
/// - `butterworth4`: an analogue 4th-order Butterworth low-pass, −3 dB at 0.4 × the rate: causal,
///   so it delays the pulses (about 1.3 samples) and rings (about 11 % overshoot), unlike the
///   symmetric sincs.
/// - `wideband`: a wide-band front end (an Airspy-class receiver, a dongle with its decimator
///   wide open): a Blackman-windowed sinc, −6 dB at 1.25 × the rate, so the pulses keep
///   edges sharper than a sample.
public enum ReceiveFilter: String, Sendable, Hashable, CaseIterable {
    case rtl2832u
    case nyquistSinc = "nyquist-sinc"
    case butterworth4
    case wideband

    /// How far either side of its centre the filter's response is tabulated, µs.
    var halfLength: Double {
        switch self {
        case .butterworth4: 4
        default: 3
        }
    }

    /// The filter's step response, `resolution` entries a sample from −`reach` to `reach`
    /// samples (`reach` = `halfLength` at the rate), ending at 1.
    func stepResponse(reach: Double, resolution: Int) -> [Float] {
        switch self {
        case .rtl2832u: ReceiveFilter.windowedSincStep(cutoff: 0.4, reach: reach, resolution: resolution)
        case .nyquistSinc: ReceiveFilter.windowedSincStep(cutoff: 0.5, reach: reach, resolution: resolution)
        case .wideband: ReceiveFilter.windowedSincStep(cutoff: 1.25, reach: reach, resolution: resolution)
        case .butterworth4: ReceiveFilter.butterworthStep(order: 4, cutoff: 0.4, reach: reach, resolution: resolution)
        }
    }

    /// The cumulative sum of the windowed sinc h(t) = 2c·sinc(2c·t)·w(t/reach) (t in samples,
    /// c the −6 dB frequency in cycles per sample, w the Blackman window), normalised to end at 1.
    static func windowedSincStep(cutoff c: Double, reach: Double, resolution: Int) -> [Float] {
        let count = Int((2 * reach * Double(resolution)).rounded()) + 1
        let dt = 1 / Double(resolution)
        func h(_ t: Double) -> Double {
            let x = 2 * c * t
            let sinc = abs(x) < 1e-12 ? 1 : Double.sin(.pi * x) / (.pi * x)
            let u = (t + reach) / (2 * reach)
            let window = 0.42 - 0.5 * Double.cos(2 * .pi * u) + 0.08 * Double.cos(4 * .pi * u)
            return 2 * c * sinc * window
        }
        var sums = [Double](repeating: 0, count: count)
        var previous = h(-reach)
        for i in 1..<count {
            let current = h(Double(i) * dt - reach)
            sums[i] = sums[i - 1] + (previous + current) / 2 * dt
            previous = current
        }
        let total = sums[count - 1]
        return sums.map { Float($0 / total) }
    }

    /// The step response of an analogue Butterworth low-pass of even `order`, −3 dB at `cutoff`
    /// cycles per sample, its step at t = 0: the cascade of second-order sections
    /// y'' + (ω/Q)·y' + ω²·y = ω²·x with Q = 1 / (2 sin((2k − 1)π / 2n)), integrated (fourth-order
    /// Runge–Kutta) at the table's spacing. Zero before the step; DC gain 1.
    static func butterworthStep(order: Int, cutoff: Double, reach: Double, resolution: Int) -> [Float] {
        let count = Int((2 * reach * Double(resolution)).rounded()) + 1
        let dt = 1 / Double(resolution)
        let omega = 2 * Double.pi * cutoff
        let qs = (1...(order / 2)).map { k in 1 / (2 * Double.sin(Double(2 * k - 1) * .pi / Double(2 * order))) }
        // State: (y, y') per section; section k's input is section k − 1's output.
        var state = [(Double, Double)](repeating: (0, 0), count: qs.count)
        var table = [Float](repeating: 0, count: count)
        let zero = Int((reach * Double(resolution)).rounded())
        func derivatives(_ s: [(Double, Double)]) -> [(Double, Double)] {
            var input = 1.0
            return s.indices.map { k in
                let (y, v) = s[k]
                defer { input = y }
                return (v, omega * omega * (input - y) - omega / qs[k] * v)
            }
        }
        func step(_ s: [(Double, Double)], _ d: [(Double, Double)], _ h: Double) -> [(Double, Double)] {
            s.indices.map { (s[$0].0 + h * d[$0].0, s[$0].1 + h * d[$0].1) }
        }
        for i in zero..<count {
            table[i] = Float(state.last!.0)
            let k1 = derivatives(state)
            let k2 = derivatives(step(state, k1, dt / 2))
            let k3 = derivatives(step(state, k2, dt / 2))
            let k4 = derivatives(step(state, k3, dt))
            state = state.indices.map { j in
                (state[j].0 + dt / 6 * (k1[j].0 + 2 * k2[j].0 + 2 * k3[j].0 + k4[j].0),
                 state[j].1 + dt / 6 * (k1[j].1 + 2 * k2[j].1 + 2 * k3[j].1 + k4[j].1))
            }
        }
        return table
    }
}

extension ReceiveFilter {
    /// The filter a command-line name chooses (its raw value, or `rtl` for the RTL2832U).
    public init?(named name: String) {
        let lowered = name.lowercased()
        if lowered == "rtl" { self = .rtl2832u; return }
        self.init(rawValue: lowered)
    }
}
