import RealModule

/// Converts raw I/Q samples to magnitudes: `UInt16`, 32767 = full scale (an I or Q value at
/// its format's maximum), the unit every later stage of the demodulator works in. Fifteen
/// bits leave room to add two magnitudes in a `UInt16` lane (the SIMD preamble gate).
///
/// Each conversion has a SIMD path (`SIMD4<Float>` lanes: SSE on x86, NEON on the Pi) and a
/// scalar twin in this file; tests check they agree. uc8 uses a 64 K-entry table instead:
/// one load per sample beats any arithmetic (the benchmark compares both).
public enum MagnitudeConverter {
    /// The magnitude of a full-scale signal.
    public static let fullScale: UInt16 = 32767

    /// Magnitude table for uc8, indexed by `I << 8 | Q`.
    public static let uc8Table: [UInt16] = (0..<65536).map { index in
        let i = (Double(index >> 8) - 127.5) / 127.5
        let q = (Double(index & 0xFF) - 127.5) / 127.5
        return scale((i * i + q * q).squareRoot())
    }

    /// Full-scale magnitude 1.0 → 32767, clamped.
    @inline(__always)
    static func scale(_ magnitude: Double) -> UInt16 {
        let v = magnitude * 32767 + 0.5
        return v >= 32767 ? 32767 : UInt16(v)
    }

    /// Converts `count` samples from `input` (raw bytes in `format`) into `output`.
    public static func convert(_ input: UnsafeRawBufferPointer, format: SampleFormat, count: Int, into output: UnsafeMutablePointer<UInt16>) {
        switch format {
        case .uc8: convertUC8(input, count: count, into: output)
        case .sc16: convertSC16SIMD(input, count: count, fullScale: 32768, into: output)
        case .sc16q11: convertSC16SIMD(input, count: count, fullScale: 2048, into: output)
        case .cf32: convertCF32SIMD(input, count: count, into: output)
        }
    }

    /// uc8 through the table: one 16-bit load of the I/Q pair is the table index (the table
    /// is symmetric in I and Q, so byte order does not matter).
    public static func convertUC8(_ input: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<UInt16>) {
        uc8Table.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            guard let base = input.baseAddress else { return }
            // Four pairs per 64-bit load, two loads a step (with one, the loop's own steps are a
            // fifth of its instructions); the table index is each pair's 16 bits.
            @inline(__always) func four(_ n: Int) {
                let pairs = base.loadUnaligned(fromByteOffset: 2 &* n, as: UInt64.self)
                output[n] = t[Int(truncatingIfNeeded: pairs & 0xFFFF)]
                output[n &+ 1] = t[Int(truncatingIfNeeded: (pairs >> 16) & 0xFFFF)]
                output[n &+ 2] = t[Int(truncatingIfNeeded: (pairs >> 32) & 0xFFFF)]
                output[n &+ 3] = t[Int(truncatingIfNeeded: pairs >> 48)]
            }
            var n = 0
            while n &+ 8 <= count {
                four(n)
                four(n &+ 4)
                n &+= 8
            }
            if n &+ 4 <= count {
                four(n)
                n &+= 4
            }
            while n < count {
                output[n] = t[Int(base.loadUnaligned(fromByteOffset: 2 * n, as: UInt16.self))]
                n += 1
            }
        }
    }

    /// uc8 with SIMD arithmetic: 4 samples (one 64-bit load) per step, each `SIMD4<Float>`
    /// filled lane by lane from the word (building lanes from a wider vector instead goes
    /// through the stdlib's lane loops), then the scalar twin for the rest.
    public static func convertUC8SIMD(_ input: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<UInt16>) {
        guard let base = input.baseAddress else { return }
        let centre = SIMD4<Float>(repeating: 127.5)
        let gain = SIMD4<Float>(repeating: 32767 / 127.5)
        var n = 0
        while n &+ 4 <= count {
            let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 2 &* n, as: UInt64.self))
            @inline(__always) func byte(_ k: UInt64) -> Float { Float(UInt8(truncatingIfNeeded: w >> (8 &* k))) }
            let i = SIMD4<Float>(byte(0), byte(2), byte(4), byte(6)) - centre
            let q = SIMD4<Float>(byte(1), byte(3), byte(5), byte(7)) - centre
            store((i * i + q * q).squareRoot() * gain, to: output + n)
            n &+= 4
        }
        if n < count {
            convertUC8Scalar(UnsafeRawBufferPointer(rebasing: input[(2 * n)...]), count: count - n, into: output + n)
        }
    }

    /// uc8, one sample at a time with arithmetic (the scalar twin of `convertUC8SIMD`).
    public static func convertUC8Scalar(_ input: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<UInt16>) {
        let bytes = input.bindMemory(to: UInt8.self)
        for n in 0..<count {
            let i = Float(bytes[2 * n]) - 127.5, q = Float(bytes[2 * n + 1]) - 127.5
            output[n] = clampScaled((i * i + q * q).squareRoot() * (32767 / 127.5))
        }
    }

    /// sc16 / sc16q11 (little-endian), SIMD: 4 samples per step.
    public static func convertSC16SIMD(_ input: UnsafeRawBufferPointer, count: Int, fullScale: Float, into output: UnsafeMutablePointer<UInt16>) {
        let gain = SIMD4<Float>(repeating: 32767 / fullScale)
        var n = 0
        while n + 4 <= count {
            var i = SIMD4<Float>(), q = SIMD4<Float>()
            for lane in 0..<4 {
                i[lane] = Float(Int16(littleEndian: input.loadUnaligned(fromByteOffset: 4 * (n + lane), as: Int16.self)))
                q[lane] = Float(Int16(littleEndian: input.loadUnaligned(fromByteOffset: 4 * (n + lane) + 2, as: Int16.self)))
            }
            store((i * i + q * q).squareRoot() * gain, to: output + n)
            n += 4
        }
        if n < count {
            convertSC16Scalar(UnsafeRawBufferPointer(rebasing: input[(4 * n)...]), count: count - n, fullScale: fullScale, into: output + n)
        }
    }

    /// sc16 / sc16q11, one sample at a time (the scalar twin).
    public static func convertSC16Scalar(_ input: UnsafeRawBufferPointer, count: Int, fullScale: Float, into output: UnsafeMutablePointer<UInt16>) {
        for n in 0..<count {
            let i = Float(Int16(littleEndian: input.loadUnaligned(fromByteOffset: 4 * n, as: Int16.self)))
            let q = Float(Int16(littleEndian: input.loadUnaligned(fromByteOffset: 4 * n + 2, as: Int16.self)))
            output[n] = clampScaled((i * i + q * q).squareRoot() * (32767 / fullScale))
        }
    }

    /// cf32 (little-endian IEEE), SIMD: 4 samples per step. NaN and infinities become 0.
    public static func convertCF32SIMD(_ input: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<UInt16>) {
        let gain = SIMD4<Float>(repeating: 32767)
        var n = 0
        while n + 4 <= count {
            var i = SIMD4<Float>(), q = SIMD4<Float>()
            for lane in 0..<4 {
                i[lane] = Float(bitPattern: UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 8 * (n + lane), as: UInt32.self)))
                q[lane] = Float(bitPattern: UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 8 * (n + lane) + 4, as: UInt32.self)))
            }
            store((i * i + q * q).squareRoot() * gain, to: output + n)
            n += 4
        }
        if n < count {
            convertCF32Scalar(UnsafeRawBufferPointer(rebasing: input[(8 * n)...]), count: count - n, into: output + n)
        }
    }

    /// cf32, one sample at a time (the scalar twin).
    public static func convertCF32Scalar(_ input: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<UInt16>) {
        for n in 0..<count {
            let i = Float(bitPattern: UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 8 * n, as: UInt32.self)))
            let q = Float(bitPattern: UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 8 * n + 4, as: UInt32.self)))
            output[n] = clampScaled((i * i + q * q).squareRoot() * 32767)
        }
    }

    /// Rounds and clamps a scaled magnitude into 0…32767; NaN becomes 0.
    @inline(__always)
    static func clampScaled(_ v: Float) -> UInt16 {
        guard v == v else { return 0 }
        let r = v + 0.5
        return r >= 32767 ? 32767 : (r <= 0 ? 0 : UInt16(r))
    }

    /// Four scaled magnitudes out, each rounded and clamped as `clampScaled` (NaN lanes become
    /// 0). Lane by lane: the vector forms of these steps (`replacing`, `clamped`, the integer
    /// conversions) are generic stdlib code that is not always inlined, and cost far more.
    @inline(__always)
    static func store(_ v: SIMD4<Float>, to out: UnsafeMutablePointer<UInt16>) {
        out[0] = clampScaled(v[0]); out[1] = clampScaled(v[1]); out[2] = clampScaled(v[2]); out[3] = clampScaled(v[3])
    }
}
