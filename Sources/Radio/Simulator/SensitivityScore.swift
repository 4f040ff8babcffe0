import Demod
import ModeS

/// How a demodulator did on a `SensitivityScenario` signal: each decoded frame matched to the
/// frame sent with the same bits that starts within `tolerance` samples of where it was
/// found. A sent frame counts once however often it is decoded; a decoded frame that matches
/// nothing sent is false (noise that passed parity, or a wrong correction).
public struct SensitivityScore: Sendable, Equatable {
    /// Test frames sent and decoded.
    public var tests = 0
    public var testsDecoded = 0
    /// FRUIT frames sent and decoded.
    public var fruit = 0
    public var fruitDecoded = 0
    /// Decoded frames that match no frame sent.
    public var falseFrames = 0
    /// Addresses of the false frames that carry their address in the clear (DF11/17/18): each
    /// would be a false aircraft.
    public var falseAddresses: Set<UInt32> = []
    /// False frames per downlink format.
    public var falseByDF: [Int: Int] = [:]
    /// Decodes of a frame already counted.
    public var duplicates = 0

    /// Samples between a frame's true start and the start the demodulator reports.
    public static let tolerance = 3.0

    public init() {}

    /// Scores `decoded` (each frame with the sample index where it starts) against `sent`.
    public init(sent: [SensitivityScenario.Sent], decoded: [(frame: Frame, sample: UInt64)]) {
        var byFrame: [Frame: [Int]] = [:]
        for (i, s) in sent.enumerated() {
            byFrame[s.transmission.frame, default: []].append(i)
            if s.fruit { fruit += 1 } else { tests += 1 }
        }
        var counted = Set<Int>()
        for d in decoded {
            let match = byFrame[d.frame]?.first { abs(sent[$0].sample - Double(d.sample)) <= SensitivityScore.tolerance }
            guard let match else {
                falseFrames += 1
                falseByDF[d.frame.downlinkFormat, default: 0] += 1
                if [11, 17, 18].contains(d.frame.downlinkFormat) { falseAddresses.insert(UInt32(d.frame.bits(9, 32))) }
                continue
            }
            guard counted.insert(match).inserted else { duplicates += 1; continue }
            if sent[match].fruit { fruitDecoded += 1 } else { testsDecoded += 1 }
        }
    }
}
