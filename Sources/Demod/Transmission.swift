import ModeS
import RealModule

/// One Mode S reply on the air as the modulator renders it: the frame, when it starts, and
/// how it reaches the receiver (complex baseband: level, carrier phase, frequency offset).
public struct Transmission: Sendable, Hashable {
    public var frame: Frame
    /// Start of the first preamble pulse, in 12 MHz ticks since sample 0 (sample n covers
    /// ticks n·t …< (n+1)·t, t = `SampleRate.ticksPerSample`: 6 at 2.0 MS/s, 5 at 2.4 MS/s).
    /// Ticks let a frame start between samples (a fifth or sixth of a sample).
    public var startTick: UInt64
    /// Pulse amplitude (the envelope while a pulse is on), linear, 1 = full scale.
    public var amplitude: Double
    /// Carrier phase at the start of the preamble, radians.
    public var phase: Double
    /// Carrier frequency offset from the tuned frequency, Hz.
    public var frequencyOffset: Double
    /// A fraction of a tick, [0, 1), added to `startTick` by the band-limited channel
    /// (`BandLimitedModulator`) so frames start at any real time; the box model (`Modulator`)
    /// renders on whole ticks and ignores it.
    public var subTick: Double

    public init(frame: Frame, startTick: UInt64, amplitude: Double, phase: Double = 0, frequencyOffset: Double = 0,
                subTick: Double = 0) {
        self.frame = frame
        self.startTick = startTick
        self.amplitude = amplitude
        self.phase = phase
        self.frequencyOffset = frequencyOffset
        self.subTick = subTick
    }

    /// A transmission with its pulse level given in dBFS (20·log10 amplitude).
    public init(frame: Frame, startTick: UInt64, levelDBFS: Double, phase: Double = 0, frequencyOffset: Double = 0,
                subTick: Double = 0) {
        self.init(frame: frame, startTick: startTick, amplitude: Transmission.amplitude(dBFS: levelDBFS),
                  phase: phase, frequencyOffset: frequencyOffset, subTick: subTick)
    }

    /// Ticks of the 12 MHz clock per microsecond.
    public static let ticksPerMicrosecond: UInt64 = 12

    /// Ticks from the preamble start to the end of the last bit: 8 µs + 1 µs per bit.
    public var durationTicks: UInt64 { UInt64(8 + frame.bitCount) * Transmission.ticksPerMicrosecond }

    /// The 12 MHz timestamp receivers give a frame: the end of bit 56, 64 µs after the
    /// preamble start (FORMATS.md, Beast).
    public var timestamp: UInt64 { startTick &+ 64 * Transmission.ticksPerMicrosecond }

    /// The pulse level in dBFS.
    public var levelDBFS: Double { Transmission.dBFS(amplitude: amplitude) }

    /// Amplitude of a level in dBFS: 10^(dBFS/20).
    public static func amplitude(dBFS: Double) -> Double { Double.pow(10, dBFS / 20) }
    /// Level in dBFS of an amplitude: 20·log10(amplitude).
    public static func dBFS(amplitude: Double) -> Double { 20 * Double.log10(max(amplitude, 1e-30)) }

    /// Pulse intervals in ticks from the preamble start, adjacent pulses merged: the
    /// preamble's four 0.5 µs pulses at 0, 1.0, 3.5 and 4.5 µs, then for bit i (0-based) a
    /// 0.5 µs pulse at 8 + i µs when the bit is 1, at 8.5 + i µs when it is 0 (pulse position
    /// modulation, Annex 10 Vol IV §3.1.2.2).
    public var pulses: [Range<UInt64>] {
        let half: UInt64 = 6
        var result: [Range<UInt64>] = [0..<6, 12..<18, 42..<48, 54..<60]
        result.reserveCapacity(4 + frame.bitCount)
        for i in 0..<frame.bitCount {
            let bitStart = 96 + UInt64(i) * 12
            let start = frame.bit(i + 1) ? bitStart : bitStart + half
            if let last = result.last, last.upperBound == start {
                result[result.count - 1] = last.lowerBound..<(start + half)
            } else {
                result.append(start..<(start + half))
            }
        }
        return result
    }
}
