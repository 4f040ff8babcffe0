import Demod
import ModeS

/// What the synthetic sky looks like and how it is received. Everything the simulator does
/// follows from these values: the same configuration gives the same samples and frames.
public struct SkyConfiguration: Sendable, Hashable {
    /// Seed of every random choice (aircraft, paths, schedules, phases, noise).
    public var seed: UInt64
    /// Number of aircraft (0 gives noise only).
    public var aircraftCount: Int
    /// Receiver position; aircraft fly within `maxRange` of it.
    public var receiver: Coordinate
    public var sampleRate: SampleRate
    public var format: SampleFormat
    /// Signal-to-noise ratio in dB of the weakest level (`levels.lowerBound`): the thermal
    /// noise power per sample is `levels.lowerBound − snr` dBFS. nil: no noise (quantisation
    /// only).
    public var snr: Double?
    /// Pulse levels in dBFS: the strongest (nearest) and weakest (farthest) aircraft.
    public var levels: ClosedRange<Double>
    /// Aircraft stay within this distance of the receiver, km; the farthest are received at
    /// `levels.lowerBound`.
    public var maxRange: Double
    /// Largest carrier frequency offset of a transponder, Hz (each aircraft gets a fixed
    /// offset within ±this, each transmission ±1 kHz more).
    public var maxFrequencyOffset: Double
    /// Whether a ground radar interrogates the aircraft (DF4/5/20/21 replies).
    public var interrogations: Bool
    /// Rotation period of the interrogating radar, s.
    public var radarPeriod: Double
    /// The receiving chain: the ideal box filter (default) or the RTL2832U's band limit with
    /// random sub-sample timing and the front end's IQ imbalance and DC offset.
    public var channel: ReceiverChannel
    /// Arrivals and departures at named airports, besides the `aircraftCount` random aircraft.
    public var routes: [SimulatedRoute] = []

    public init(
        seed: UInt64 = 1, aircraftCount: Int = 20,
        receiver: Coordinate = SkyConfiguration.defaultReceiver,
        sampleRate: SampleRate = .rate2_4, format: SampleFormat = .uc8, snr: Double? = 20,
        levels: ClosedRange<Double> = -30 ... -3, maxRange: Double = 200, maxFrequencyOffset: Double = 30_000,
        interrogations: Bool = true, radarPeriod: Double = 4.8, channel: ReceiverChannel = .ideal
    ) {
        self.channel = channel
        self.seed = seed
        self.aircraftCount = max(aircraftCount, 0)
        self.receiver = receiver
        self.sampleRate = sampleRate
        self.format = format
        self.snr = snr
        self.levels = levels
        self.maxRange = max(maxRange, 20)
        self.maxFrequencyOffset = abs(maxFrequencyOffset)
        self.interrogations = interrogations
        self.radarPeriod = max(radarPeriod, 1)
    }

    /// A receiver near Amsterdam Schiphol.
    public static let defaultReceiver = Coordinate(latitude: 52.30, longitude: 4.76)

    /// Thermal noise power per sample, dBFS (nil without noise).
    public var noisePowerDBFS: Double? { snr.map { levels.lowerBound - $0 } }
}
