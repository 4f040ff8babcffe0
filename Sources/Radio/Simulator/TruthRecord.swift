import Demod
import Foundation
import ModeS

/// One line of the simulator's truth file: a frame that was sent, where it is in the sample
/// stream and what it was. Written as one JSON object per line (JSON Lines):
///
/// | key | value |
/// |---|---|
/// | `hex` | the frame, uppercase hex (as AVR lines print it) |
/// | `df` | downlink format |
/// | `address` | ICAO address, 6 lowercase hex digits |
/// | `kind` | `SimulatedMessage` raw value (`airborne_position`, `all_call`, …) |
/// | `bds` | Comm-B register of DF20/21 (`"6,0"`), absent otherwise |
/// | `sample` | position of the preamble start in samples from the start of the stream (fractional: the start tick, plus the sub-tick offset of the band-limited channel, / ticks per sample, 4 decimals) |
/// | `tick` | preamble start on the 12 MHz clock (sample n starts at tick n·ticks per sample) |
/// | `timestamp` | 12 MHz timestamp a receiver gives the frame: end of bit 56 = `tick` + 768 |
/// | `t` | preamble start, seconds |
/// | `level` | pulse level, dBFS (20·log10 of the pulse amplitude; full scale 1) |
/// | `phase` | carrier phase at the preamble start, radians |
/// | `freq` | carrier frequency offset, Hz |
/// | `lat`, `lon`, `alt` | the aircraft's true position (degrees) and barometric altitude (ft) |
public struct TruthRecord: Sendable, Hashable {
    public var frame: Frame
    public var kind: SimulatedMessage
    public var register: BDS?
    public var address: UInt32
    public var startTick: UInt64
    /// The fraction of a tick after `startTick` where the band-limited channel started it.
    public var subTick: Double
    public var ticksPerSample: UInt64
    public var levelDBFS: Double
    public var phase: Double
    public var frequencyOffset: Double
    public var position: Coordinate
    public var altitude: Double

    public init(_ sent: SkyFrame, sampleRate: SampleRate) {
        frame = sent.frame
        kind = sent.kind
        register = sent.register
        address = sent.address
        startTick = sent.transmission.startTick
        subTick = sent.transmission.subTick
        ticksPerSample = sampleRate.ticksPerSample
        levelDBFS = sent.levelDBFS
        phase = sent.transmission.phase
        frequencyOffset = sent.transmission.frequencyOffset
        position = sent.position
        altitude = sent.altitude
    }

    public var downlinkFormat: Int { frame.downlinkFormat }
    /// Preamble start in samples (fractional).
    public var sampleOffset: Double { (Double(startTick) + subTick) / Double(ticksPerSample) }
    /// End of bit 56 on the 12 MHz clock.
    public var timestamp: UInt64 { startTick + 768 }
    public var seconds: Double { Double(startTick) / 12_000_000 }

    /// The transmission this record describes (to render it again).
    public var transmission: Transmission {
        Transmission(frame: frame, startTick: startTick, levelDBFS: levelDBFS, phase: phase, frequencyOffset: frequencyOffset,
                     subTick: subTick)
    }

    /// The JSON object, one line, no newline.
    public var jsonLine: String {
        var s = "{\"hex\":\"\(frame.hex)\",\"df\":\(downlinkFormat),\"address\":\"\(Frame.hexString(UInt128(address), digits: 6, uppercase: false))\""
        s += ",\"kind\":\"\(kind.rawValue)\""
        if let register { s += ",\"bds\":\"\(register)\"" }
        s += ",\"sample\":\(TruthRecord.format(sampleOffset, decimals: 4)),\"tick\":\(startTick),\"timestamp\":\(timestamp)"
        s += ",\"t\":\(TruthRecord.format(seconds, decimals: 7)),\"level\":\(TruthRecord.format(levelDBFS, decimals: 2))"
        s += ",\"phase\":\(TruthRecord.format(phase, decimals: 4)),\"freq\":\(TruthRecord.format(frequencyOffset, decimals: 1))"
        s += ",\"lat\":\(TruthRecord.format(position.latitude, decimals: 6)),\"lon\":\(TruthRecord.format(position.longitude, decimals: 6))"
        s += ",\"alt\":\(Int(altitude.rounded()))}"
        return s
    }

    /// A number with at most `decimals` decimals, no exponent, no trailing zeros.
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// Reads a line written by `jsonLine`; nil when it is not one. The sample rate is needed
    /// to turn the tick back into a sample offset.
    public init?(jsonLine: some StringProtocol, sampleRate: SampleRate) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(String(jsonLine).utf8)) as? [String: Any],
              let hex = object["hex"] as? String, let frame = try? Frame(hex: hex),
              let kindName = object["kind"] as? String, let kind = SimulatedMessage(rawValue: kindName),
              let addressText = object["address"] as? String, let address = UInt32(addressText, radix: 16),
              let tick = (object["tick"] as? NSNumber)?.uint64Value,
              let level = (object["level"] as? NSNumber)?.doubleValue,
              let lat = (object["lat"] as? NSNumber)?.doubleValue, let lon = (object["lon"] as? NSNumber)?.doubleValue
        else { return nil }
        self.frame = frame
        self.kind = kind
        self.address = address
        startTick = tick
        ticksPerSample = sampleRate.ticksPerSample
        // `sample` carries the sub-tick start (to 4 decimals of a sample).
        let sample = (object["sample"] as? NSNumber)?.doubleValue ?? Double(tick) / Double(sampleRate.ticksPerSample)
        subTick = min(max(sample * Double(sampleRate.ticksPerSample) - Double(tick), 0), 0.9999)
        levelDBFS = level
        phase = (object["phase"] as? NSNumber)?.doubleValue ?? 0
        frequencyOffset = (object["freq"] as? NSNumber)?.doubleValue ?? 0
        position = Coordinate(latitude: lat, longitude: lon)
        altitude = (object["alt"] as? NSNumber)?.doubleValue ?? 0
        if let bds = object["bds"] as? String {
            let parts = bds.split(separator: ",").compactMap { UInt8($0, radix: 16) }
            register = parts.count == 2 ? BDS(parts[0], parts[1]) : nil
        } else {
            register = nil
        }
    }
}
