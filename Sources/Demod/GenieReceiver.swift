import ModeS

/// The physical limit a practical receiver is measured against (`bench --sensitivity`): a
/// receiver that knows each reply's exact timing, carrier phase and frequency, and the
/// channel's exact pulse shape and front end, decides each bit by the matched filter — is the
/// received signal closer to the reply, or to the reply with that bit flipped? — and repairs
/// one wrong bit with the CRC, as every decoder does. No practical receiver with one-bit repair
/// decodes more on average; a decoder's count divided by this one's is how far from the limit
/// it is.
///
/// Each bit is decided knowing all the others (the genie's advantage), so interference from
/// overlapping replies it does not know (FRUIT) and the quantisation still cost it bits, as
/// they cost a real receiver.
public struct GenieReceiver: Sendable {
    public let renderer: ChannelRenderer

    public init(channel: ReceiverChannel, sampleRate: SampleRate) {
        renderer = ChannelRenderer(channel: channel, sampleRate: sampleRate)
    }

    /// The bits of `transmission`'s frame the matched filter decides wrongly in `received`
    /// (interleaved I, Q, full scale ±1; `received[0]` is sample `firstSample`).
    public func bitErrors(_ transmission: Transmission, in received: UnsafeBufferPointer<Float>, firstSample: UInt64) -> Int {
        let span = renderer.sampleRange(of: transmission)
        let available = firstSample..<(firstSample + UInt64(received.count / 2))
        let lower = max(span.lowerBound, available.lowerBound), upper = min(span.upperBound, available.upperBound)
        guard lower < upper else { return transmission.frame.bitCount }
        let offset = Int(lower - firstSample) * 2
        let count = Int(upper - lower) * 2
        var reference = [Float](repeating: 0, count: count)
        var flipped = [Float](repeating: 0, count: count)
        func render(_ t: Transmission, into buffer: inout [Float]) {
            for i in buffer.indices { buffer[i] = 0 }
            buffer.withUnsafeMutableBufferPointer { b in
                renderer.add(t, into: b, firstSample: lower)
                renderer.channel.applyFrontEnd(to: b)
            }
        }
        func distance(_ model: [Float]) -> Float {
            var sum: Float = 0
            for i in 0..<count {
                let d = received[offset + i] - model[i]
                sum += d * d
            }
            return sum
        }
        render(transmission, into: &reference)
        let own = distance(reference)
        var errors = 0
        for bit in 1...transmission.frame.bitCount {
            var other = transmission
            other.frame = transmission.frame.flipping(bit: bit)
            render(other, into: &flipped)
            if distance(flipped) < own { errors += 1 }
        }
        return errors
    }

    /// Whether the genie decodes the reply: at most one bit wrong (the CRC repairs one).
    public func decodes(_ transmission: Transmission, in received: UnsafeBufferPointer<Float>, firstSample: UInt64) -> Bool {
        bitErrors(transmission, in: received, firstSample: firstSample) <= 1
    }
}
