/// How I/Q samples are laid out in bytes (one sample = one I and one Q value, interleaved).
public enum SampleFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Unsigned 8-bit I and Q, offset 127.5 (rtl_sdr's output).
    case uc8
    /// Signed 16-bit little-endian I and Q, full scale ±32768.
    case sc16
    /// Signed 16-bit little-endian I and Q holding 12-bit values, full scale ±2048 (bladeRF's SC16 Q11).
    case sc16q11
    /// 32-bit little-endian IEEE float I and Q, full scale ±1.0.
    case cf32

    /// Bytes per complex sample.
    public var bytesPerSample: Int {
        switch self {
        case .uc8: 2
        case .sc16, .sc16q11: 4
        case .cf32: 8
        }
    }

    public var description: String { rawValue }
}

/// Sample rates the demodulator supports.
public enum SampleRate: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// 2.0 MS/s: one sample per half bit (0.5 µs).
    case rate2_0 = 2_000_000
    /// 2.4 MS/s: six samples per five half bits, the rate RTL-SDR receivers usually run at.
    case rate2_4 = 2_400_000

    /// Samples per second.
    public var hertz: Int { rawValue }

    /// 12 MHz timestamp ticks per sample: 6 at 2.0 MS/s, 5 at 2.4 MS/s.
    public var ticksPerSample: UInt64 { UInt64(12_000_000 / rawValue) }

    /// Parses "2.0M", "2.4M", "2M", "2000000", "2.4e6".
    public init?(argument: String) {
        var text = argument.lowercased()
        var scale = 1.0
        if text.hasSuffix("m") { text.removeLast(); scale = 1e6 }
        guard let value = Double(text) else { return nil }
        let hertz = Int((value * scale).rounded())
        guard let rate = SampleRate(rawValue: hertz) else { return nil }
        self = rate
    }

    public var description: String { self == .rate2_0 ? "2.0M" : "2.4M" }
}

/// A block of raw samples as a source delivers it.
public struct SampleBlock: Sendable {
    /// Interleaved I/Q bytes in `format`; a whole number of samples.
    public var bytes: [UInt8]
    public var format: SampleFormat
    /// Index of the first sample since the source started (counts dropped samples too, so
    /// timestamps stay exact across drops).
    public var firstSample: UInt64

    public init(bytes: [UInt8], format: SampleFormat, firstSample: UInt64) {
        self.bytes = bytes
        self.format = format
        self.firstSample = firstSample
    }

    /// Number of complete samples in the block.
    public var sampleCount: Int { bytes.count / format.bytesPerSample }
}

extension SampleFormat {
    /// Converts `count` raw samples in this format to interleaved I/Q floats, full scale 1
    /// (uc8's centre 127.5 is 0; NaN and infinities become 0): what the coherent pass reads.
    func complexSamples(_ raw: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<Float>) {
        switch self {
        case .uc8:
            let b = raw.assumingMemoryBound(to: UInt8.self)
            for i in 0..<(2 * count) { out[i] = (Float(b[i]) - 127.5) / 127.5 }
        case .sc16, .sc16q11:
            let scale: Float = self == .sc16 ? 1 / 32768 : 1 / 2048
            for i in 0..<(2 * count) { out[i] = Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) * scale }
        case .cf32:
            for i in 0..<(2 * count) {
                let v = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                out[i] = v.isFinite ? v : 0
            }
        }
    }
}
