/// Float I/Q (full scale ±1) to the bytes of each `SampleFormat` and back, for the simulator
/// and tests. Values beyond full scale are clipped, as an ADC clips.
///
/// | format | code of x | range |
/// |---|---|---|
/// | uc8 | round(127.5·x + 127.5) | 0…255 |
/// | sc16 | round(32768·x), little endian | −32768…32767 |
/// | sc16q11 | round(2048·x), little endian | −2048…2047 |
/// | cf32 | x, IEEE 754 binary32, little endian | −1…1 |
public enum SampleQuantizer {
    /// Appends the samples of `iq` (interleaved I, Q) to `bytes` in `format`; returns how many
    /// values (I or Q) were clipped. NaN is written as 0.
    @discardableResult
    public static func quantize(_ iq: UnsafeBufferPointer<Float>, to format: SampleFormat, appendingTo bytes: inout [UInt8]) -> Int {
        var clipped = 0
        bytes.reserveCapacity(bytes.count + iq.count / 2 * format.bytesPerSample)
        @inline(__always) func code(_ x: Float, scale: Float, offset: Float, low: Float, high: Float) -> Int {
            let v = x.isNaN ? offset : (x * scale + offset).rounded()
            if v < low { clipped += 1; return Int(low) }
            if v > high { clipped += 1; return Int(high) }
            return Int(v)
        }
        let count = iq.count & ~1
        switch format {
        case .uc8:
            for i in 0..<count {
                bytes.append(UInt8(code(iq[i], scale: 127.5, offset: 127.5, low: 0, high: 255)))
            }
        case .sc16, .sc16q11:
            let scale: Float = format == .sc16 ? 32768 : 2048
            for i in 0..<count {
                let v = UInt16(bitPattern: Int16(code(iq[i], scale: scale, offset: 0, low: -scale, high: scale - 1)))
                bytes.append(UInt8(truncatingIfNeeded: v))
                bytes.append(UInt8(truncatingIfNeeded: v >> 8))
            }
        case .cf32:
            for i in 0..<count {
                var x = iq[i].isNaN ? 0 : iq[i]
                if x < -1 { x = -1; clipped += 1 } else if x > 1 { x = 1; clipped += 1 }
                let bits = x.bitPattern
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
            }
        }
        return clipped
    }

    /// Convenience: the bytes of `iq` in `format`.
    public static func quantize(_ iq: [Float], to format: SampleFormat) -> [UInt8] {
        var bytes: [UInt8] = []
        iq.withUnsafeBufferPointer { _ = quantize($0, to: format, appendingTo: &bytes) }
        return bytes
    }

    /// The inverse: interleaved I/Q floats (full scale ±1) of the whole samples in `bytes`.
    public static func dequantize(_ bytes: [UInt8], format: SampleFormat) -> [Float] {
        let values = bytes.count / format.bytesPerSample * 2
        var out = [Float](repeating: 0, count: values)
        switch format {
        case .uc8:
            for i in 0..<values { out[i] = (Float(bytes[i]) - 127.5) / 127.5 }
        case .sc16, .sc16q11:
            let scale: Float = format == .sc16 ? 32768 : 2048
            for i in 0..<values {
                let v = Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8)
                out[i] = Float(v) / scale
            }
        case .cf32:
            for i in 0..<values {
                let bits = UInt32(bytes[4 * i]) | UInt32(bytes[4 * i + 1]) << 8
                    | UInt32(bytes[4 * i + 2]) << 16 | UInt32(bytes[4 * i + 3]) << 24
                out[i] = Float(bitPattern: bits)
            }
        }
        return out
    }
}
