import Demod
import Foundation
import ModeS

/// `--gain auto`: decides tuner gain steps from what the demodulator saw in each period.
///
/// Pure: no clock, no device. Feed it one `Observation` per period (e.g. every 10 s, from that
/// period's `ReceptionStatistics`); apply a changed decision with `RTLSDRCapture.setGain`, log
/// `decision.description`, and report `gainDB` as stats.json's `gain_db`.
///
/// The aim is the one hobbyists tune for by hand: a small share of frames (1–5 %) arriving
/// above −3 dBFS, which means the strongest nearby aircraft just reach full scale while weak
/// distant ones still clear the noise, and a noise floor that leaves headroom.
///
/// Rules, first match wins:
/// 1. Strong share above the target (with at least `minimumFrames` frames): one step down,
///    and do not climb back to the gain that overloaded for `holdPeriods` periods.
/// 2. Noise floor above `noiseCeilingDBFS`: one step down.
/// 3. Strong share below the target, or too few frames to tell (a quiet sky): one step up
///    after `raisePatience` such periods in a row, if the noise floor would stay below the
///    ceiling and the next gain is not held off by rule 1.
/// 4. Otherwise hold.
public struct AutoGainController: Sendable, Equatable {
    /// What the demodulator saw in one period.
    public struct Observation: Sendable, Equatable {
        /// Frames accepted in the period.
        public var frames: UInt64
        /// Of those, frames above −3 dBFS.
        public var strongFrames: UInt64
        /// Mean noise power in dBFS, when measured.
        public var noiseFloorDBFS: Double?

        public init(frames: UInt64, strongFrames: UInt64, noiseFloorDBFS: Double?) {
            self.frames = frames
            self.strongFrames = strongFrames
            self.noiseFloorDBFS = noiseFloorDBFS
        }

        /// From one period's statistics: `acceptedTotal`, `strongSignals`, and the mean of
        /// the noise power estimates.
        public init(period stats: ReceptionStatistics) {
            frames = stats.acceptedTotal
            strongFrames = stats.strongSignals
            if stats.noiseSamples > 0, stats.noisePowerSum > 0 {
                noiseFloorDBFS = 10 * log10(stats.noisePowerSum / Double(stats.noiseSamples))
            } else {
                noiseFloorDBFS = nil
            }
        }

        /// Share of frames above −3 dBFS (0…1); nil without frames.
        public var strongShare: Double? { frames > 0 ? Double(strongFrames) / Double(frames) : nil }
    }

    /// Tuning knobs; the defaults suit an RTL-SDR at a typical home site.
    public struct Configuration: Sendable, Equatable {
        /// Wanted share of frames above −3 dBFS.
        public var strongShareTarget: ClosedRange<Double> = 0.01...0.05
        /// Step down when the noise floor is above this (keeps ~30 dB below full scale).
        public var noiseCeilingDBFS: Double = -30
        /// Fewer frames than this: the strong share is not trusted.
        public var minimumFrames: UInt64 = 50
        /// Periods in a row that must ask for more gain before it is raised.
        public var raisePatience: Int = 3
        /// Periods during which the gain that overloaded is not tried again.
        public var holdPeriods: Int = 30

        public init() {}
    }

    /// Why the controller decided what it did.
    public enum Reason: Sendable, Equatable {
        case tooManyStrong(share: Double)
        case noiseTooHigh(dBFS: Double)
        case tooFewStrong(share: Double)
        case quietSky(frames: UInt64)
        /// Wants more gain, but not yet (patience), or the noise or a hold-off forbids it.
        case waiting(periods: Int)
        case noiseWouldRise(dBFS: Double)
        case heldOff(untilPeriod: Int)
        case inTarget(share: Double)
        case atLimit
    }

    /// One period's outcome: gains in tenths of a dB.
    public struct Decision: Sendable, Equatable, CustomStringConvertible {
        public var from: Int
        public var to: Int
        public var reason: Reason
        public var changed: Bool { from != to }

        public var description: String {
            let f = RTLSDRDeviceInfo.format(dB: Double(from) / 10), t = RTLSDRDeviceInfo.format(dB: Double(to) / 10)
            let head = changed ? "gain \(f) → \(t) dB" : "gain stays \(f) dB"
            switch reason {
            case .tooManyStrong(let s): return "\(head): \(Self.percent(s)) of frames above −3 dBFS (aim 1–5 %)"
            case .noiseTooHigh(let n): return "\(head): noise floor \(Self.dB(n)) dBFS is too high"
            case .tooFewStrong(let s): return "\(head): \(Self.percent(s)) of frames above −3 dBFS (aim 1–5 %)"
            case .quietSky(let n): return "\(head): only \(n) frames, more gain for range"
            case .waiting(let p): return "\(head): wants more gain (\(p) period\(p == 1 ? "" : "s") so far)"
            case .noiseWouldRise(let n): return "\(head): more gain would lift the noise floor (\(Self.dB(n)) dBFS) too high"
            case .heldOff(let p): return "\(head): the next gain overloaded recently (held off until period \(p))"
            case .inTarget(let s): return "\(head): \(Self.percent(s)) of frames above −3 dBFS is in the target"
            case .atLimit: return "\(head): already at the tuner's limit"
            }
        }

        static func percent(_ share: Double) -> String {
            let tenths = Int((share * 1000).rounded())
            return "\(tenths / 10).\(tenths % 10) %"
        }

        static func dB(_ value: Double) -> String { RTLSDRDeviceInfo.format(dB: value) }
    }

    /// Supported gains, tenths of a dB, ascending, no duplicates.
    public let gains: [Int]
    public let configuration: Configuration
    /// Position of the current gain in `gains`.
    public private(set) var index: Int
    /// Periods observed so far.
    public private(set) var period = 0
    /// Consecutive periods that asked for more gain.
    public private(set) var raiseRequests = 0
    /// Gains at or above this index are held off until `heldOffUntil`.
    public private(set) var ceilingIndex: Int?
    public private(set) var heldOffUntil = 0
    public private(set) var lastObservation: Observation?
    public private(set) var lastDecision: Decision?

    /// nil when the tuner lists no gains. `initialGain` defaults to `initialGain(in:)`.
    public init?(supportedGains: [Int], initialGain: Int? = nil, configuration: Configuration = Configuration()) {
        let sorted = Array(Set(supportedGains)).sorted()
        guard !sorted.isEmpty else { return nil }
        gains = sorted
        self.configuration = configuration
        let start = initialGain.flatMap { RTLSDRGain.nearest($0, in: sorted) } ?? AutoGainController.initialGain(in: sorted)!
        index = sorted.firstIndex(of: start) ?? sorted.count - 1
    }

    /// Where auto gain starts: the highest gain (the controller steps down from there).
    public static func initialGain(in gains: [Int]) -> Int? { gains.max() }

    /// The current gain, tenths of a dB.
    public var gainTenths: Int { gains[index] }
    /// The current gain in dB (`gain_db`).
    public var gainDB: Double { Double(gains[index]) / 10 }

    /// Takes one period's observation and returns the decision (already applied to `index`).
    @discardableResult
    public mutating func observe(_ o: Observation) -> Decision {
        period += 1
        lastObservation = o
        let from = gains[index]
        let decision = decide(o, from: from)
        lastDecision = decision
        return decision
    }

    private mutating func decide(_ o: Observation, from: Int) -> Decision {
        let c = configuration
        let trusted = o.frames >= c.minimumFrames
        let share = o.strongShare ?? 0
        if ceilingIndex != nil, period >= heldOffUntil { ceilingIndex = nil }

        if trusted, share > c.strongShareTarget.upperBound {
            raiseRequests = 0
            guard index > 0 else { return Decision(from: from, to: from, reason: .atLimit) }
            ceilingIndex = index
            heldOffUntil = period + c.holdPeriods
            index -= 1
            return Decision(from: from, to: gains[index], reason: .tooManyStrong(share: share))
        }
        if let noise = o.noiseFloorDBFS, noise > c.noiseCeilingDBFS {
            raiseRequests = 0
            guard index > 0 else { return Decision(from: from, to: from, reason: .atLimit) }
            index -= 1
            return Decision(from: from, to: gains[index], reason: .noiseTooHigh(dBFS: noise))
        }
        let wantsMore = !trusted || share < c.strongShareTarget.lowerBound
        guard wantsMore else {
            raiseRequests = 0
            return Decision(from: from, to: from, reason: .inTarget(share: share))
        }
        guard index + 1 < gains.count else {
            raiseRequests = 0
            return Decision(from: from, to: from, reason: .atLimit)
        }
        if let ceiling = ceilingIndex, index + 1 >= ceiling {
            raiseRequests = 0
            return Decision(from: from, to: from, reason: .heldOff(untilPeriod: heldOffUntil))
        }
        if let noise = o.noiseFloorDBFS {
            let raised = noise + Double(gains[index + 1] - from) / 10
            if raised > c.noiseCeilingDBFS {
                raiseRequests = 0
                return Decision(from: from, to: from, reason: .noiseWouldRise(dBFS: raised))
            }
        }
        raiseRequests += 1
        guard raiseRequests >= c.raisePatience else {
            return Decision(from: from, to: from, reason: .waiting(periods: raiseRequests))
        }
        raiseRequests = 0
        index += 1
        let reason: Reason = trusted ? .tooFewStrong(share: share) : .quietSky(frames: o.frames)
        return Decision(from: from, to: gains[index], reason: reason)
    }
}
