#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ModeS
import Tracking

/// One period of `stats.json` (FORMATS.md), in dump1090-fa/readsb key names:
/// `start`, `end`, `local`, `remote`, `cpr`, `altitude_suppressed`, `cpu`, `tracks`,
/// `messages`, `messages_by_df`, and readsb's `position_count_total` and `max_distance`.
public enum StatsJSON {
    /// `local`: include the `local` block (false for a receiver with no radio).
    public static func period(_ p: StatsPeriod, local hasLocal: Bool = true) -> String {
        var w = JSONWriter()
        w.add("start", p.start, decimals: 1)
        w.add("end", p.end, decimals: 1)
        if hasLocal { w.addRaw("local", local(p.local)) }
        w.addRaw("remote", remote(p.remote))
        w.addRaw("cpr", cpr(p.table.cpr))
        w.add("altitude_suppressed", Int(clamping: p.table.altitudeSuppressed))
        w.addRaw("cpu", cpu(p.cpu))
        var tracks = JSONWriter()
        tracks.add("all", Int(clamping: p.table.tracks))
        tracks.add("single_message", Int(clamping: p.table.singleMessageTracks))
        tracks.add("unreliable", Int(clamping: p.table.unreliableTracks))
        w.addRaw("tracks", tracks.finish())
        w.add("messages", Int(clamping: p.table.messages))
        w.add("messages_by_df", p.table.messagesByDF.map { Int(clamping: $0) })
        w.add("position_count_total", Int(clamping: p.table.cpr.globalOK &+ p.table.cpr.localOK))
        w.add("max_distance", Int(p.maxDistance.rounded()))
        return w.finish()
    }

    /// The `local` block. Levels (dBFS) are left out when nothing was measured.
    public static func local(_ s: ReceptionStatistics) -> String {
        var w = JSONWriter()
        w.add("samples_processed", Int(clamping: s.samplesProcessed))
        w.add("samples_dropped", Int(clamping: s.samplesDropped))
        w.add("modeac", 0)
        w.add("modes", Int(clamping: s.preambles))
        w.add("bad", Int(clamping: s.bad))
        w.add("unknown_icao", Int(clamping: s.unknownAddress))
        w.add("accepted", [Int(clamping: s.accepted.0), Int(clamping: s.accepted.1), Int(clamping: s.accepted.2)])
        if s.acceptedTotal > 0, s.signalPowerSum > 0 {
            w.add("signal", decibels(s.signalPowerSum / Double(s.acceptedTotal)), decimals: 1)
        }
        if s.noiseSamples > 0, s.noisePowerSum > 0 {
            w.add("noise", decibels(s.noisePowerSum / Double(s.noiseSamples)), decimals: 1)
        }
        if s.peakSignalPower > 0 { w.add("peak_signal", decibels(s.peakSignalPower), decimals: 1) }
        w.add("strong_signals", Int(clamping: s.strongSignals))
        w.add("gain_db", s.gainDB, decimals: 1)
        return w.finish()
    }

    public static func remote(_ r: RemoteStatistics) -> String {
        var w = JSONWriter()
        w.add("modeac", Int(clamping: r.modeac))
        w.add("modes", Int(clamping: r.modes))
        w.add("bad", Int(clamping: r.bad))
        w.add("unknown_icao", Int(clamping: r.unknownICAO))
        w.add("accepted", [Int(clamping: r.accepted.0), Int(clamping: r.accepted.1), Int(clamping: r.accepted.2)])
        return w.finish()
    }

    public static func cpr(_ c: CPRCounters) -> String {
        var w = JSONWriter()
        w.add("surface", Int(clamping: c.surface))
        w.add("airborne", Int(clamping: c.airborne))
        w.add("global_ok", Int(clamping: c.globalOK))
        w.add("global_bad", Int(clamping: c.globalBad))
        w.add("global_range", Int(clamping: c.globalRange))
        w.add("global_speed", Int(clamping: c.globalSpeed))
        w.add("global_skipped", Int(clamping: c.globalSkipped))
        w.add("local_ok", Int(clamping: c.localOK))
        w.add("local_aircraft_relative", Int(clamping: c.localAircraftRelative))
        w.add("local_receiver_relative", Int(clamping: c.localReceiverRelative))
        w.add("local_skipped", Int(clamping: c.localSkipped))
        w.add("local_range", Int(clamping: c.localRange))
        w.add("local_speed", Int(clamping: c.localSpeed))
        w.add("filtered", Int(clamping: c.filtered))
        return w.finish()
    }

    public static func cpu(_ c: CPUStatistics) -> String {
        var w = JSONWriter()
        w.add("demod", Int(c.demod.rounded()))
        w.add("reader", Int(c.reader.rounded()))
        w.add("background", Int(c.background.rounded()))
        return w.finish()
    }

    /// 10·log10 of a linear power.
    static func decibels(_ power: Double) -> Double { 10 * log10(power) }
}
