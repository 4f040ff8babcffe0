import ModeS
import RealModule

/// How the simulator's signals reach the samples: the receiver's filter and the analogue
/// front end's flaws. The transmitter side (level, carrier phase, frequency offset, timing)
/// is the `Transmission`'s; thermal noise is `ThermalNoise`, added between the two.
///
/// - `ideal`: each sample integrates the pulse envelope over its interval (`Modulator`, a box
///   filter), frames start on 12 MHz ticks, the I and Q arms are perfect.
/// - `realistic`: a band-limiting filter (`BandLimitedModulator`; by default the RTL2832U's
///   decimation low-pass, or another `ReceiveFilter` family), frames at any
///   real time (the sky draws a random sub-tick offset), and the mixer's flaws as a cheap
///   dongle has them: the Q arm's gain off by `iqGainDB` and its phase by `iqPhaseDegrees`,
///   and a DC offset on each arm (full scale 1).
public struct ReceiverChannel: Sendable, Hashable {
    /// Band-limited (by `filter`) instead of the box filter.
    public var bandLimited: Bool
    /// The band-limiting filter.
    public var filter: ReceiveFilter
    /// Gain of the Q arm relative to the I arm, dB.
    public var iqGainDB: Double
    /// Phase error of the Q arm, degrees (Q' = g·(Q·cos ψ + I·sin ψ)).
    public var iqPhaseDegrees: Double
    /// DC offsets added to I and Q, full scale 1.
    public var dcI: Double
    public var dcQ: Double

    public init(bandLimited: Bool, filter: ReceiveFilter = .rtl2832u, iqGainDB: Double = 0, iqPhaseDegrees: Double = 0,
                dcI: Double = 0, dcQ: Double = 0) {
        self.bandLimited = bandLimited
        self.filter = filter
        self.iqGainDB = iqGainDB
        self.iqPhaseDegrees = iqPhaseDegrees
        self.dcI = dcI
        self.dcQ = dcQ
    }

    /// The box filter and a perfect front end.
    public static let ideal = ReceiverChannel(bandLimited: false)
    /// The RTL2832U filter and the flaws of a typical dongle: 0.5 dB and 3° of IQ imbalance,
    /// DC offsets of about one uc8 step (0.008 and −0.006 of full scale).
    public static let realistic = ReceiverChannel(bandLimited: true, iqGainDB: 0.5, iqPhaseDegrees: 3, dcI: 0.008, dcQ: -0.006)

    /// The realistic channel through another receive filter.
    public static func realistic(_ filter: ReceiveFilter) -> ReceiverChannel {
        var channel = ReceiverChannel.realistic
        channel.filter = filter
        return channel
    }

    /// Whether the front end changes samples at all (imbalance or DC).
    public var hasFrontEndFlaws: Bool { iqGainDB != 0 || iqPhaseDegrees != 0 || dcI != 0 || dcQ != 0 }

    /// Applies the front end's flaws to every sample of `iq` (interleaved I, Q): each sample
    /// on its own, so the result does not depend on how the stream is cut into blocks.
    public func applyFrontEnd(to iq: UnsafeMutableBufferPointer<Float>) {
        guard hasFrontEndFlaws else { return }
        let g = Float(Double.pow(10, iqGainDB / 20))
        let psi = iqPhaseDegrees * .pi / 180
        let c = g * Float(Double.cos(psi)), s = g * Float(Double.sin(psi))
        let di = Float(dcI), dq = Float(dcQ)
        var i = 0
        while i + 1 < iq.count {
            let x = iq[i], y = iq[i + 1]
            iq[i] = x + di
            iq[i + 1] = c * y + s * x + dq
            i += 2
        }
    }
}

/// Renders transmissions for one `ReceiverChannel` and sample rate: the box `Modulator` or the
/// `BandLimitedModulator` (the front end's flaws are the channel's `applyFrontEnd`, applied
/// after the noise).
public struct ChannelRenderer: Sendable {
    public let channel: ReceiverChannel
    private let box: Modulator
    private let band: BandLimitedModulator?

    public init(channel: ReceiverChannel, sampleRate: SampleRate) {
        self.channel = channel
        box = Modulator(sampleRate: sampleRate)
        band = channel.bandLimited ? BandLimitedModulator(sampleRate: sampleRate, filter: channel.filter) : nil
    }

    /// The samples a transmission touches (absolute indices).
    public func sampleRange(of transmission: Transmission) -> Range<UInt64> {
        band?.sampleRange(of: transmission) ?? box.sampleRange(of: transmission)
    }

    /// Samples before a transmission's start tick that its rendering reaches (the filter's
    /// leading tail): a transmission must be put on the air that much before it starts.
    public var leadSamples: UInt64 { band?.leadSamples ?? 0 }

    /// Adds a transmission's samples that fall in `iq` (`iq[0]`, `iq[1]` are `firstSample`).
    public func add(_ transmission: Transmission, into iq: UnsafeMutableBufferPointer<Float>, firstSample: UInt64) {
        if let band { band.add(transmission, into: iq, firstSample: firstSample) } else { box.add(transmission, into: iq, firstSample: firstSample) }
    }

}

extension ReceiverChannel {
    /// The channel a command-line name chooses: `ideal`, `realistic`, or `realistic-` and a
    /// `ReceiveFilter`'s name (`realistic-butterworth4`: the realistic channel through that
    /// filter).
    public init?(named name: String) {
        let lowered = name.lowercased()
        switch lowered {
        case "ideal": self = .ideal
        case "realistic": self = .realistic
        default:
            guard lowered.hasPrefix("realistic-"), let filter = ReceiveFilter(named: String(lowered.dropFirst("realistic-".count))) else { return nil }
            self = .realistic(filter)
        }
    }
}
