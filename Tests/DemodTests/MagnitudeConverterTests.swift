import Foundation
import Testing
@testable import Demod
import ModeS

/// Every SIMD conversion agrees with its scalar twin, and the uc8 table with both.
struct MagnitudeConverterTests {
    func convert(_ bytes: [UInt8], count: Int, _ f: (UnsafeRawBufferPointer, Int, UnsafeMutablePointer<UInt16>) -> Void) -> [UInt16] {
        var out = [UInt16](repeating: 0, count: count)
        bytes.withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { f(raw, count, $0.baseAddress!) } }
        return out
    }

    @Test func uc8TableSIMDAndScalarAgreeWithinOneStep() {
        // Every I/Q combination once (65536 samples), plus an odd tail for the scalar remainder.
        var bytes: [UInt8] = []
        for i in 0..<256 { for q in 0..<256 { bytes += [UInt8(i), UInt8(q)] } }
        bytes += [0, 255, 128, 127, 3, 250]
        let count = bytes.count / 2
        let table = convert(bytes, count: count) { MagnitudeConverter.convertUC8($0, count: $1, into: $2) }
        let simd = convert(bytes, count: count) { MagnitudeConverter.convertUC8SIMD($0, count: $1, into: $2) }
        let scalar = convert(bytes, count: count) { MagnitudeConverter.convertUC8Scalar($0, count: $1, into: $2) }
        #expect(simd == scalar)
        let worst = zip(table, scalar).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1)
        // Full scale on one axis is 32767; the centre is (almost) zero.
        #expect(table[255 << 8 | 128] >= 32700)
        #expect(table[128 << 8 | 128] < 200)
    }

    @Test func uc8TableGivesExactlyTheMagnitudeOfEveryPair() {
        // Every I/Q combination, in both byte orders of the pair, through the 64-bit path and
        // the one-sample tail: the table must equal the formula exactly.
        var bytes: [UInt8] = []
        for i in 0..<256 { for q in 0..<256 { bytes += [UInt8(i), UInt8(q)] } }
        bytes += [7, 200, 255]
        let count = bytes.count / 2
        let table = convert(bytes, count: count) { MagnitudeConverter.convertUC8($0, count: $1, into: $2) }
        for n in 0..<count {
            let i = (Double(bytes[2 * n]) - 127.5) / 127.5, q = (Double(bytes[2 * n + 1]) - 127.5) / 127.5
            #expect(table[n] == MagnitudeConverter.scale((i * i + q * q).squareRoot()), "I \(bytes[2 * n]) Q \(bytes[2 * n + 1])")
        }
        #expect(Set(table).count > 3000, "a spread of magnitudes, not one value")
    }

    @Test(arguments: [SampleFormat.sc16, .sc16q11])
    func sixteenBitSIMDMatchesScalar(format: SampleFormat) {
        var random = SplitMix64(seed: 7)
        let count = 1001
        let limit: Int16 = format == .sc16 ? .max : 2047
        var bytes: [UInt8] = []
        for _ in 0..<(2 * count) {
            let v = Int16(truncatingIfNeeded: Int(random.next() % UInt64(2 * Int(limit) + 1)) - Int(limit))
            bytes += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
        }
        let scale: Float = format == .sc16 ? 32768 : 2048
        let simd = convert(bytes, count: count) { MagnitudeConverter.convertSC16SIMD($0, count: $1, fullScale: scale, into: $2) }
        let scalar = convert(bytes, count: count) { MagnitudeConverter.convertSC16Scalar($0, count: $1, fullScale: scale, into: $2) }
        #expect(simd == scalar)
    }

    @Test func floatSIMDMatchesScalarAndNonFiniteValuesBecomeZero() {
        var values: [Float] = [0.5, -0.5, 1, 0, .nan, 0.25, .infinity, 2, -1, 0.1, 0.2, 0.3, .nan, .nan, 0.7]
        values += values.reversed()
        let bytes = values.flatMap { v -> [UInt8] in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        let count = values.count / 2
        let simd = convert(bytes, count: count) { MagnitudeConverter.convertCF32SIMD($0, count: $1, into: $2) }
        let scalar = convert(bytes, count: count) { MagnitudeConverter.convertCF32Scalar($0, count: $1, into: $2) }
        #expect(simd == scalar)
        #expect(simd[0] == UInt16((0.5 * 2.0.squareRoot() * 32767).rounded()))
        #expect(simd[2] == 0)           // NaN, 0.25
        // (∞, 2) clamps to full scale.
        #expect(simd[3] == 32767)
    }
}
