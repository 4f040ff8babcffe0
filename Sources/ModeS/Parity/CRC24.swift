/// The Mode S 24-bit cyclic redundancy check (Annex 10 Vol IV §3.1.2.3.3).
///
/// Generator polynomial G(x) = x²⁴ + x²³ + … = 0x1FFF409 (written 0xFFF409 without the
/// leading term). The parity field of every frame is the CRC of the preceding bits, overlaid
/// (XOR) with the address (AP formats) or with the interrogator identifier (DF11, PI format).
/// The *syndrome* is the CRC recomputed over the data bits XOR the received parity field: 0 for
/// an error-free DF17, the address for DF4/5/20/21, and for a frame with an error pattern `e`
/// it is `syndrome(e)` (the code is linear), which is what the correction tables look up.
public enum CRC24 {
    /// The generator without its x²⁴ term.
    public static let generator: UInt32 = 0xFFF409

    /// Byte-at-a-time table: the CRC of each byte value shifted into an all-zero register.
    public static let table: [UInt32] = (0..<256).map { (byte: Int) -> UInt32 in
        var crc = UInt32(byte) << 16
        for _ in 0..<8 {
            crc = (crc & 0x80_0000) != 0 ? ((crc << 1) ^ generator) : (crc << 1)
        }
        return crc & 0xFF_FFFF
    }

    /// CRC of the first `byteCount` bytes of the frame's bits.
    @inlinable
    public static func checksum(of raw: UInt128, byteCount: Int) -> UInt32 {
        checksum(high: UInt64(truncatingIfNeeded: raw >> 64), low: UInt64(truncatingIfNeeded: raw), byteCount: byteCount)
    }

    /// CRC of the first `byteCount` bytes of bits held as two left-aligned words.
    @inlinable
    public static func checksum(high: UInt64, low: UInt64, byteCount: Int) -> UInt32 {
        table.withUnsafeBufferPointer { t in
            var crc: UInt32 = 0
            var word = high
            for i in 0..<byteCount {
                if i == 8 { word = low }
                let byte = UInt32(truncatingIfNeeded: word &>> 56)
                crc = ((crc &<< 8) ^ t[Int(((crc &>> 16) ^ byte) & 0xFF)]) & 0xFF_FFFF
                word = word &<< 8
            }
            return crc
        }
    }

    /// The syndrome of a frame: CRC of all but the last 24 bits XOR the last 24 bits.
    @inlinable
    public static func syndrome(of frame: Frame) -> UInt32 {
        checksum(high: frame.high, low: frame.low, byteCount: frame.byteCount - 3) ^ frame.parityField
    }

    /// The syndrome of a single 1 at bit `n` (1-based) of a frame of `bitCount` bits (56 or
    /// 112): what inverting that bit does to any frame's syndrome.
    @inlinable
    public static func syndrome(ofBit n: Int, bitCount: Int) -> UInt32 {
        bitCount == Frame.longBits ? longBitSyndromes[n] : shortBitSyndromes[n]
    }

    /// `syndrome(ofBit:)` for 112- and 56-bit frames, index = bit number (entry 0 unused).
    @usableFromInline static let longBitSyndromes = bitSyndromes(Frame.longBits)
    @usableFromInline static let shortBitSyndromes = bitSyndromes(Frame.shortBits)
    static func bitSyndromes(_ bitCount: Int) -> [UInt32] {
        let zero = Frame(raw: 0, bitCount: bitCount)!
        return [0] + (1...bitCount).map { syndrome(of: zero.flipping(bit: $0)) }
    }

    /// The parity field a frame with these bits must carry for a zero syndrome; the data bits
    /// are taken from `raw` (left-aligned), the last 24 bits are ignored.
    @inlinable
    public static func parity(forDataOf raw: UInt128, bitCount: Int) -> UInt32 {
        checksum(of: raw, byteCount: bitCount / 8 - 3)
    }
}
