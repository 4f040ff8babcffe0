/// What a receiver counted while demodulating, for stats.json's `local` block (FORMATS.md):
/// samples, preambles, frames accepted by bits corrected, rejections, signal and noise levels.
/// The demodulator fills it; the JSON writers read it (so `Feeds` needs no `Demod`). Counters
/// add up over a period; levels are in dBFS.
public struct ReceptionStatistics: Sendable, Equatable {
    /// Samples examined.
    public var samplesProcessed: UInt64 = 0
    /// Samples the source dropped before they reached the demodulator.
    public var samplesDropped: UInt64 = 0
    /// Mode S preambles detected (`modes`).
    public var preambles: UInt64 = 0
    /// Candidates that failed parity and could not be corrected (`bad`).
    public var bad: UInt64 = 0
    /// Address/parity replies rejected because their address was not known (`unknown_icao`).
    public var unknownAddress: UInt64 = 0
    /// Frames accepted with 0, 1 and 2 bits corrected (`accepted`).
    public var accepted: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// Sum of accepted frames' signal power (linear, 0…1 of full scale) for the mean `signal`.
    public var signalPowerSum: Double = 0
    /// Sum of noise power estimates and how many were summed, for the mean `noise`.
    public var noisePowerSum: Double = 0
    public var noiseSamples: UInt64 = 0
    /// Strongest accepted frame's power (linear) for `peak_signal`.
    public var peakSignalPower: Double = 0
    /// Accepted frames above −3 dBFS (`strong_signals`).
    public var strongSignals: UInt64 = 0
    /// Tuner gain in dB, when a dongle reports it.
    public var gainDB: Double?

    public init() {}

    /// Frames accepted in total.
    public var acceptedTotal: UInt64 { accepted.0 + accepted.1 + accepted.2 }

    public static func == (a: ReceptionStatistics, b: ReceptionStatistics) -> Bool {
        a.samplesProcessed == b.samplesProcessed && a.samplesDropped == b.samplesDropped
            && a.preambles == b.preambles && a.bad == b.bad && a.unknownAddress == b.unknownAddress
            && a.accepted == b.accepted && a.signalPowerSum == b.signalPowerSum
            && a.noisePowerSum == b.noisePowerSum && a.noiseSamples == b.noiseSamples
            && a.peakSignalPower == b.peakSignalPower && a.strongSignals == b.strongSignals
            && a.gainDB == b.gainDB
    }

    /// Adds another period's counts (levels: sums add, the peak is the larger).
    public mutating func add(_ other: ReceptionStatistics) {
        samplesProcessed += other.samplesProcessed
        samplesDropped += other.samplesDropped
        preambles += other.preambles
        bad += other.bad
        unknownAddress += other.unknownAddress
        accepted.0 += other.accepted.0
        accepted.1 += other.accepted.1
        accepted.2 += other.accepted.2
        signalPowerSum += other.signalPowerSum
        noisePowerSum += other.noisePowerSum
        noiseSamples += other.noiseSamples
        peakSignalPower = max(peakSignalPower, other.peakSignalPower)
        strongSignals += other.strongSignals
        if let g = other.gainDB { gainDB = g }
    }
}

extension ReceptionStatistics {
    /// Removes an earlier snapshot of the same counters (what happened since `earlier`).
    /// The peak and the gain stay as they are now.
    public mutating func subtract(_ earlier: ReceptionStatistics) {
        samplesProcessed &-= earlier.samplesProcessed
        samplesDropped &-= earlier.samplesDropped
        preambles &-= earlier.preambles
        bad &-= earlier.bad
        unknownAddress &-= earlier.unknownAddress
        accepted.0 &-= earlier.accepted.0
        accepted.1 &-= earlier.accepted.1
        accepted.2 &-= earlier.accepted.2
        signalPowerSum -= earlier.signalPowerSum
        noisePowerSum -= earlier.noisePowerSum
        noiseSamples &-= earlier.noiseSamples
        strongSignals &-= earlier.strongSignals
    }
}
