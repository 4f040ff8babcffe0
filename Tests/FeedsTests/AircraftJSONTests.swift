import Foundation
import ModeS
import Testing
import Tracking
@testable import Feeds

/// aircraft.json, receiver.json and stats.json in the shapes of FORMATS.md (the key names
/// and value types tar1090 and graphs1090 read).
@Suite("JSON documents")
struct AircraftJSONTests {
    static let receiver = Coordinate(latitude: 52.3, longitude: 4.76)

    static func feed(_ table: inout AircraftTable, _ frame: Frame, at time: Double, signal: Double? = -12) throws {
        let message = try #require(ModeSMessage.decode(frame))
        table.apply(message, received: ReceivedFrame(frame: frame, signal: signal), at: time)
    }

    /// A sky with: an airliner with everything (ADS-B, database entry), an aircraft on the
    /// ground, a TIS-B target with a non-ICAO address, a Mode S-only aircraft, a ghost.
    static func snapshot() throws -> TableSnapshot {
        let database = DictionaryAircraftDatabase([
            0x4840D6: AircraftInfo(address: 0x4840D6, registration: "PH-BXA", typeCode: "B738", typeDescription: "BOEING 737-800",
                                   ownerOperator: "KLM", year: 1999, flags: [.interesting]),
        ])
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver), database: database)
        let klm = Geodesy.destination(from: receiver, bearing: 45, distance: 30)
        try feed(&table, SyntheticFrames.identification(address: 0x4840D6, callsign: "KLM1023"), at: 0)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x4840D6, position: klm, altitude: 35000, format: .even), at: 0.5)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x4840D6, position: klm, altitude: 35000, format: .odd), at: 1)
        try feed(&table, SyntheticFrames.velocity(address: 0x4840D6, groundSpeed: 450, track: 45, verticalRate: 640), at: 1.2)
        try feed(&table, SyntheticFrames.surveillanceIdentity(address: 0x4840D6, squawk: 0o1000), at: 1.4)
        // The ME field of the published target state frame 8DA05629EA21485CBF3F8CADAEEB.
        try feed(&table, SyntheticFrames.squitter(address: 0x4840D6, me: 0xEA21485CBF3F8C), at: 1.5)
        // On the ground at the receiver.
        try feed(&table, SyntheticFrames.surfacePosition(address: 0x3C66B0, position: receiver, format: .even, movement: 1), at: 0.5)
        try feed(&table, SyntheticFrames.surfacePosition(address: 0x3C66B0, position: receiver, format: .odd, movement: 1), at: 1)
        // TIS-B, non-ICAO (DF18 CF5, fine TIS-B with a track file number).
        let tisb = Geodesy.destination(from: receiver, bearing: 200, distance: 10)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x00ABCD, position: tisb, altitude: 2500, format: .even, df: 18, cf: 5), at: 0.5)
        try feed(&table, SyntheticFrames.airbornePosition(address: 0x00ABCD, position: tisb, altitude: 2500, format: .odd, df: 18, cf: 5), at: 1)
        // Mode S only.
        try feed(&table, SyntheticFrames.surveillanceAltitude(address: 0xA061D9, altitude: 12000), at: 0.5, signal: nil)
        try feed(&table, SyntheticFrames.surveillanceIdentity(address: 0xA061D9, squawk: 0o7700, flightStatus: 4), at: 1, signal: nil)
        // A ghost.
        try feed(&table, SyntheticFrames.allCall(address: 0x777777), at: 1)
        return table.snapshot(at: 2)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Every aircraft key FORMATS.md names, plus readsb's r_dst/r_dir, ws/wd/oat, alert/spi
    /// and rr_lat/rr_lon.
    static let allowedKeys: Set<String> = [
        "hex", "type", "flight", "alt_baro", "alt_geom", "gs", "ias", "tas", "mach", "track", "track_rate", "roll",
        "mag_heading", "true_heading", "baro_rate", "geom_rate", "squawk", "emergency", "category", "nav_qnh",
        "nav_altitude_mcp", "nav_altitude_fms", "nav_heading", "nav_modes", "lat", "lon", "nic", "rc", "seen_pos",
        "version", "nic_baro", "nac_p", "nac_v", "sil", "sil_type", "gva", "sda", "mlat", "tisb", "messages", "seen",
        "rssi", "r", "t", "desc", "ownOp", "year", "dbFlags", "r_dst", "r_dir", "ws", "wd", "oat",
        "alert", "spi", "rr_lat", "rr_lon",
    ]
    static let numberKeys: Set<String> = [
        "alt_geom", "gs", "ias", "tas", "mach", "track", "track_rate", "roll", "mag_heading", "true_heading", "baro_rate",
        "geom_rate", "nav_qnh", "nav_altitude_mcp", "nav_altitude_fms", "nav_heading", "lat", "lon", "nic", "rc",
        "seen_pos", "version", "nic_baro", "nac_p", "nac_v", "sil", "gva", "sda", "messages", "seen", "rssi", "year",
        "dbFlags", "r_dst", "r_dir", "ws", "wd", "oat", "alert", "spi", "rr_lat", "rr_lon",
    ]
    static let stringKeys: Set<String> = ["hex", "type", "flight", "squawk", "emergency", "category", "sil_type", "r", "t", "desc", "ownOp"]

    @Test("aircraft.json has the FORMATS.md shape: top level, keys, value types")
    func aircraftShape() throws {
        let snapshot = try Self.snapshot()
        let doc = try Self.object(AircraftJSON.document(snapshot, now: 1_700_000_000.25))
        #expect(doc["now"] as? Double == 1_700_000_000.3)
        #expect(doc["messages"] as? Int == 13)
        let aircraft = try #require(doc["aircraft"] as? [[String: Any]])
        #expect(aircraft.map { $0["hex"] as? String } == ["3c66b0", "4840d6", "a061d9", "~00abcd"])
        for a in aircraft {
            #expect(Set(a.keys).isSubset(of: Self.allowedKeys), "\(Set(a.keys).subtracting(Self.allowedKeys))")
            for key in a.keys where Self.numberKeys.contains(key) { #expect(a[key] is NSNumber, "\(key)") }
            for key in a.keys where Self.stringKeys.contains(key) { #expect(a[key] is String, "\(key)") }
            let hex = try #require(a["hex"] as? String)
            #expect(hex.range(of: "^~?[0-9a-f]{6}$", options: .regularExpression) != nil)
            let type = try #require(a["type"] as? String)
            #expect(["adsb_icao", "adsb_icao_nt", "adsr_icao", "tisb_icao", "adsb_other", "tisb_other", "mode_s", "mlat"].contains(type))
            if let flight = a["flight"] as? String { #expect(flight.count == 8) }
            if let alt = a["alt_baro"] { #expect(alt is NSNumber || (alt as? String) == "ground") }
            if let squawk = a["squawk"] as? String { #expect(squawk.range(of: "^[0-7]{4}$", options: .regularExpression) != nil) }
            #expect(a["mlat"] is [Any])
            #expect(a["tisb"] is [Any])
            #expect(a["messages"] is NSNumber)
            #expect(a["seen"] is NSNumber)
            if a["lat"] != nil { #expect(a["lon"] != nil && a["seen_pos"] != nil) }
        }
    }

    @Test("aircraft.json values: flight padding, ground, database fields, non-ICAO, TIS-B")
    func aircraftValues() throws {
        let aircraft = try #require(try Self.object(AircraftJSON.document(try Self.snapshot(), now: 0))["aircraft"] as? [[String: Any]])
        let byHex = Dictionary(uniqueKeysWithValues: aircraft.map { ($0["hex"] as! String, $0) })
        let klm = try #require(byHex["4840d6"])
        #expect(klm["flight"] as? String == "KLM1023 ")
        #expect(klm["type"] as? String == "adsb_icao")
        #expect(klm["alt_baro"] as? Int == 35000)
        #expect(klm["squawk"] as? String == "1000")
        #expect(klm["r"] as? String == "PH-BXA")
        #expect(klm["t"] as? String == "B738")
        #expect(klm["desc"] as? String == "BOEING 737-800")
        #expect(klm["ownOp"] as? String == "KLM")
        #expect(klm["year"] as? Int == 1999)
        #expect(klm["dbFlags"] as? Int == 2)
        #expect(klm["category"] as? String == "A3")
        #expect(klm["baro_rate"] as? Int == 640)
        #expect(klm["nav_qnh"] as? Double == 1012.8)
        #expect(((klm["r_dst"] as? Double ?? 0) - 30).magnitude < 0.01)
        #expect(klm["messages"] as? Int == 6)
        #expect(klm["seen"] as? Double == 0.5)
        #expect(klm["seen_pos"] as? Double == 1)
        #expect(((klm["rssi"] as? Double ?? 0) - -12).magnitude < 0.05)
        #expect(klm["alert"] as? Int == 0 && klm["spi"] as? Int == 0, "flight status 0 of its identity reply")
        #expect(klm["rr_lat"] == nil, "it has a position of its own")
        let ground = try #require(byHex["3c66b0"])
        #expect(ground["alt_baro"] as? String == "ground")
        #expect(ground["r"] as? String == "D-AIUP")   // computed from the address
        #expect(ground["t"] == nil)
        let modeS = try #require(byHex["a061d9"])
        #expect(modeS["type"] as? String == "mode_s")
        #expect(modeS["emergency"] as? String == "general")
        #expect(modeS["rssi"] == nil)
        #expect(modeS["lat"] == nil)
        #expect(modeS["alert"] as? Int == 1 && modeS["spi"] as? Int == 1, "flight status 4: alert and SPI")
        #expect(modeS["rr_lat"] as? Double == 52.3 && modeS["rr_lon"] as? Double == 4.8, "the receiver's position, to 0.1°")
        let tisb = try #require(byHex["~00abcd"])
        #expect(tisb["type"] as? String == "tisb_other")
        #expect(tisb["r"] == nil)
        #expect((tisb["tisb"] as? [String])?.contains("lat") == true)
    }

    @Test("aircraft.json is deterministic")
    func deterministic() throws {
        let snapshot = try Self.snapshot()
        #expect(AircraftJSON.document(snapshot, now: 5) == AircraftJSON.document(snapshot, now: 5))
        #expect(AircraftJSON.paddedCallsign("ABCDEFGHIJ") == "ABCDEFGH")
    }

    @Test("receiver.json has version, refresh, history and a rounded position")
    func receiverJSON() throws {
        let doc = try Self.object(ReceiverJSON.document(version: "flytracker 0.1.0", position: Coordinate(latitude: 52.3456, longitude: 4.7654)))
        #expect(doc["version"] as? String == "flytracker 0.1.0")
        #expect(doc["refresh"] as? Int == 1000)
        #expect(doc["history"] as? Int == 0)
        #expect(doc["lat"] as? Double == 52.35)
        #expect(doc["lon"] as? Double == 4.77)
        let none = try Self.object(ReceiverJSON.document(version: "x", position: nil))
        #expect(none["lat"] == nil)
    }

    @Test("stats.json has the five periods with every block of FORMATS.md")
    func statsShape() throws {
        var history = StatsHistory(start: 1000)
        var local = ReceptionStatistics()
        local.samplesProcessed = 2_400_000
        local.preambles = 500
        local.accepted = (90, 9, 1)
        local.signalPowerSum = 10      // mean 0.1 → −10 dBFS
        local.peakSignalPower = 0.5
        let snapshot = try Self.snapshot()
        history.record(local: local, table: snapshot.counters, at: 1001)
        let doc = try Self.object(history.document(at: 1002))
        #expect(Set(doc.keys) == ["now", "latest", "last1min", "last5min", "last15min", "total"])
        #expect(doc["now"] as? Double == 1002)
        for (name, value) in doc where name != "now" {
            let period = try #require(value as? [String: Any])
            #expect(Set(period.keys) == ["start", "end", "local", "remote", "cpr", "altitude_suppressed", "cpu", "tracks", "messages",
                                         "messages_by_df", "position_count_total", "max_distance"])
            let cpr = try #require(period["cpr"] as? [String: Any])
            #expect(Set(cpr.keys) == ["surface", "airborne", "global_ok", "global_bad", "global_range", "global_speed", "global_skipped",
                                      "local_ok", "local_aircraft_relative", "local_receiver_relative", "local_skipped", "local_range",
                                      "local_speed", "filtered"])
            let local = try #require(period["local"] as? [String: Any])
            #expect(Set(local.keys).isSubset(of: ["samples_processed", "samples_dropped", "modeac", "modes", "bad", "unknown_icao",
                                                  "accepted", "signal", "noise", "peak_signal", "strong_signals", "gain_db"]))
            #expect((local["accepted"] as? [Int])?.count == 3)
            let remote = try #require(period["remote"] as? [String: Any])
            #expect(Set(remote.keys) == ["modeac", "modes", "bad", "unknown_icao", "accepted"])
            let cpu = try #require(period["cpu"] as? [String: Any])
            #expect(Set(cpu.keys) == ["demod", "reader", "background"])
            let tracks = try #require(period["tracks"] as? [String: Any])
            #expect(Set(tracks.keys) == ["all", "single_message", "unreliable"])
            #expect((period["messages_by_df"] as? [Int])?.count == 32)
        }
        let total = try #require(doc["total"] as? [String: Any])
        #expect(total["start"] as? Double == 1000)
        #expect(total["end"] as? Double == 1002)
        // 13 messages: 7 DF17, 2 DF18, 1 DF4, 2 DF5, 1 DF11.
        #expect(total["messages"] as? Int == 13)
        let byDF = try #require(total["messages_by_df"] as? [Int])
        #expect(byDF[17] == 7 && byDF[18] == 2 && byDF[4] == 1 && byDF[5] == 2 && byDF[11] == 1)
        #expect((total["tracks"] as? [String: Any])?["all"] as? Int == 5)
        #expect((total["cpr"] as? [String: Any])?["global_ok"] as? Int == 3)
        let totalLocal = try #require(total["local"] as? [String: Any])
        #expect(totalLocal["signal"] as? Double == -10)
        #expect(totalLocal["peak_signal"] as? Double == -3)
        #expect(totalLocal["noise"] == nil)
        #expect(totalLocal["accepted"] as? [Int] == [90, 9, 1])
    }

    @Test("stats periods: minutes close on the minute; last5min merges the last five")
    func statsPeriods() {
        var history = StatsHistory(start: 0)
        var counters = TableCounters()
        for second in 1...430 {
            counters.messages += 10
            history.record(table: counters, at: Double(second))
        }
        // 430 s: 7 complete minutes, the current one runs from 420 s.
        #expect(history.completed.count == 7)
        #expect(history.current.start == 420)
        #expect(history.current.table.messages == 110)          // 420…430
        #expect(history.lastMinutes(1).table.messages == 600)
        #expect(history.lastMinutes(1).start == 360 && history.lastMinutes(1).end == 420)
        #expect(history.lastMinutes(5).table.messages == 3000)
        #expect(history.lastMinutes(5).start == 120)
        #expect(history.lastMinutes(15).table.messages == 4190)   // all 7 minutes (1…419 s)
        #expect(history.total.table.messages == 4300)
    }

    @Test("the directory writer replaces the three files atomically and leaves no temporary files")
    func directoryWriter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-json-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try JSONDirectoryWriter(directory: directory)
        let snapshot = try Self.snapshot()
        for round in 0..<3 {
            try writer.write(aircraft: AircraftJSON.document(snapshot, now: Double(round)),
                             receiver: ReceiverJSON.document(version: "t", position: Self.receiver),
                             stats: StatsHistory(start: 0).document(at: 1))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["aircraft.json", "receiver.json", "stats.json"])
        let aircraft = try Self.object(String(contentsOfFile: directory + "/aircraft.json", encoding: .utf8))
        #expect(aircraft["now"] as? Double == 2)
        #expect(throws: JSONDirectoryError.self) { try JSONDirectoryWriter(directory: directory + "/aircraft.json") }
    }
}

/// The frames dump1090 finds in the real recording modes1.bin, through the receiver's
/// acceptance rule and the table, into aircraft.json.
@Suite("aircraft.json from a real recording")
struct RecordingJSONTests {
    @Test("modes1 frames give an aircraft.json with 4d2023 and only FORMATS.md keys")
    func modes1() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Samples/modes1-frames.avr"), encoding: .utf8)
        var filter = AddressFilter()
        var table = AircraftTable()
        var last = 0.0
        for line in text.split(separator: "\n") {
            let received = try #require(try AVRLine.parse(line))
            let time = try #require(received.seconds)
            guard let parity = filter.accept(received.frame, at: time) else { continue }
            table.apply(ModeSMessage(parity), received: received, at: time)
            last = time
        }
        #expect(table.counters.messages > 250)
        let doc = try AircraftJSONTests.object(AircraftJSON.document(table.snapshot(at: last), now: 1_700_000_000))
        let aircraft = try #require(doc["aircraft"] as? [[String: Any]])
        let main = try #require(aircraft.first { $0["hex"] as? String == "4d2023" })
        #expect(main["type"] as? String == "adsb_icao")
        #expect(main["messages"] as? Int ?? 0 > 100)
        for a in aircraft {
            #expect(Set(a.keys).isSubset(of: AircraftJSONTests.allowedKeys))
            #expect(a["messages"] as? Int ?? 0 >= 2)
        }
    }
}
