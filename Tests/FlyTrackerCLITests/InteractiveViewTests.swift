import Foundation
import ModeS
import Store
import Synchronization
import Testing
import Tracking
@testable import FlyTrackerCLI

/// The interactive table renderer and the aircraft import command's pieces.
@Suite("Interactive view")
struct InteractiveViewTests {
    static let receiver = Coordinate(latitude: 52.3, longitude: 4.76)

    static func feed(_ table: inout AircraftTable, _ frame: Frame, at time: Double, signal: Double? = -15) throws {
        let message = try #require(ModeSMessage.decode(frame))
        table.apply(message, received: ReceivedFrame(frame: frame, signal: signal), at: time)
    }

    /// KLM1023 (B738) 20 NM out at 35000 ft; EZY85MH 5 NM out at 3000 ft; a Mode S-only
    /// aircraft without position.
    static func snapshot() throws -> TableSnapshot {
        let database = DictionaryAircraftDatabase([0x4840D6: AircraftInfo(address: 0x4840D6, registration: "PH-BXA", typeCode: "B738")])
        var table = AircraftTable(configuration: TableConfiguration(receiver: receiver), database: database)
        for (address, callsign, distance, altitude) in [(UInt32(0x4840D6), "KLM1023", 20.0, 35000), (0x406B90, "EZY85MH", 5.0, 3000)] {
            let p = Geodesy.destination(from: receiver, bearing: 90, distance: distance)
            try feed(&table, SyntheticFrames.identification(address: address, callsign: callsign), at: 0)
            try feed(&table, SyntheticFrames.airbornePosition(address: address, position: p, altitude: altitude, format: .even), at: 0.5)
            try feed(&table, SyntheticFrames.airbornePosition(address: address, position: p, altitude: altitude, format: .odd), at: 1)
            try feed(&table, SyntheticFrames.velocity(address: address, groundSpeed: Double(altitude / 100 + 100), track: 271), at: 1.5)
        }
        try feed(&table, SyntheticFrames.surveillanceAltitude(address: 0xA061D9, altitude: 12000), at: 0.5)
        try feed(&table, SyntheticFrames.surveillanceIdentity(address: 0xA061D9, squawk: 0o7700), at: 1)
        return table.snapshot(at: 3)
    }

    @Test("a wide terminal shows every column: header, one line per aircraft, status")
    func wide() throws {
        let lines = InteractiveView.lines(try Self.snapshot(), sort: .distance, width: 120)
        #expect(lines.count == 5)
        #expect(lines[0] == "Hex     Reg      Flight   Type Sqwk    Alt  Spd Trk   Dist  RSSI   Msgs Age")
        #expect(lines[1] == "406b90           EZY85MH              3000  130 271    5.0 -15.0      4   1")
        #expect(lines[2] == "4840d6  PH-BXA   KLM1023  B738       35000  450 271   20.0 -15.0      4   1")
        #expect(lines[3] == "a061d9  N12345                 7700  12000                 -15.0      2   2")
        #expect(lines[4] == "3 aircraft, sorted by distance, 10 messages")
    }

    @Test("narrow terminals drop the least important columns and every line fits", arguments: [80, 60, 40, 20, 7, 3])
    func narrow(width: Int) throws {
        let lines = InteractiveView.lines(try Self.snapshot(), sort: .altitude, width: width)
        for line in lines { #expect(line.count <= width) }
        #expect(lines[0].hasPrefix(String("Hex".prefix(width))))
        // All twelve columns take 75 characters.
        if width >= 75 { #expect(lines[0].hasSuffix("Msgs Age")) }
        if width >= 40 { #expect(lines[0].contains("Flight") && lines[0].contains("Alt") && lines[0].contains("Reg")) }
        if width < 75 { #expect(!lines[0].contains("Msgs")) }
    }

    @Test("sorting by altitude, callsign and messages; nil values last")
    func sorting() throws {
        let s = try Self.snapshot()
        func hexes(_ sort: InteractiveSort) -> [String] {
            InteractiveView.lines(s, sort: sort, width: 120).dropFirst().dropLast().map { String($0.prefix(6)) }
        }
        #expect(hexes(.altitude) == ["406b90", "a061d9", "4840d6"])
        #expect(hexes(.callsign) == ["406b90", "4840d6", "a061d9"])
        #expect(hexes(.messages) == ["406b90", "4840d6", "a061d9"])
        #expect(hexes(.registration) == ["a061d9", "4840d6", "406b90"])
        #expect(hexes(.distance).last == "a061d9")
    }

    @Test("a short terminal shows as many rows as fit and says how many are hidden")
    func height() throws {
        let lines = InteractiveView.lines(try Self.snapshot(), sort: .distance, width: 120, height: 3)
        #expect(lines.count == 3)
        #expect(lines[2] == "3 aircraft (2 not shown), sorted by distance, 10 messages")
    }

    @Test("with the key hint, the header, rows, status and hint fit the height exactly (nothing scrolls the header away)")
    func heightWithHint() throws {
        let lines = InteractiveView.lines(try Self.snapshot(), sort: .distance, width: 120, height: 4, hint: "s/S sort")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("Hex"))
        #expect(lines[2] == "3 aircraft (2 not shown), sorted by distance, 10 messages")
        #expect(lines[3] == "s/S sort")
    }

    @Test("a filter keeps the aircraft whose hex, callsign, registration or type contains it")
    func filter() throws {
        let s = try Self.snapshot()
        func hexes(_ filter: String) -> [String] {
            InteractiveView.lines(s, sort: .address, width: 120, filter: filter).dropFirst().dropLast().map { String($0.prefix(6)) }
        }
        #expect(hexes("klm") == ["4840d6"])
        #expect(hexes("B73") == ["4840d6"])
        #expect(hexes("ph-b") == ["4840d6"])
        #expect(hexes("a061") == ["a061d9"])
        #expect(hexes("zzz").isEmpty)
        #expect(InteractiveView.lines(s, sort: .address, width: 120, filter: "ezy").last == "3 aircraft, 1 matching, sorted by address, 10 messages")
    }

    @Test("keys: s and S step the sort order round, / types a filter (Backspace, Enter keeps, Esc clears), q quits")
    func keys() {
        var k = InteractiveKeys(sort: .distance)
        func type(_ text: String) { for b in text.utf8 { k.press(b) } }
        type("s")
        #expect(k.sort == .rssi)
        type("SS")
        #expect(k.sort == .speed)
        type(String(repeating: "s", count: InteractiveSort.allCases.count))
        #expect(k.sort == .speed, "a whole round comes back")
        type("/KLMX")
        #expect(k.editing && k.filter == "KLMX" && k.hint.hasPrefix("filter: KLMX_"))
        k.press(127)
        k.press(13)
        #expect(!k.editing && k.filter == "KLM")
        type("s")
        #expect(k.sort == .distance && k.filter == "KLM" && !k.quit, "keys act on the view while a filter is kept")
        k.press(27)
        #expect(k.filter.isEmpty)
        type("/ab")
        k.press(27)
        #expect(!k.editing && k.filter.isEmpty, "Esc while typing clears")
        type("/q")
        #expect(!k.quit && k.filter == "q", "q while typing is a letter of the filter")
        k.press(13)
        type("q")
        #expect(k.quit)
    }

    @Test("fixed-point formatting", arguments: [(5.0, 1, "5.0"), (-15.04, 1, "-15.0"), (0.05, 1, "0.1"), (123.456, 2, "123.46"), (-0.04, 1, "0.0")])
    func fixed(value: Double, decimals: Int, expected: String) {
        #expect(InteractiveView.fixed(value, decimals) == expected)
    }

    @Test("the import summary counts rejected rows by reason")
    func importSummary() {
        var report = AircraftImportReport(format: .tar1090)
        report.imported = 10
        report.rejected = 3
        report.reasons = ["bad address": 2, "wrong column count": 1]
        report.examples = [.init(line: 4, reason: "bad address: 'zz'")]
        #expect(ImportAircraftCommand.summary(report, file: "a.csv", database: "db.sqlite") == [
            "imported 10 aircraft from a.csv (tar1090-db CSV) into db.sqlite",
            "rejected 3 rows: 2 bad address, 1 wrong column count",
            "  line 4: bad address: 'zz'",
            "  …",
        ])
    }

    @Test("the store's aircraft database answers the table's deferred lookups in one query, and a failing lookup is told once and leaves the aircraft unknown")
    func storeLookup() async throws {
        let db = try AppDatabase.inMemory()
        try await db.aircraft.save([AircraftInfo(address: 0x3C66B0, registration: "D-AIUP", typeCode: "A320", flags: .military)])
        let reports = Mutex<[String]>([])
        let lookup = StoreAircraftLookup(db.aircraft, report: { line in reports.withLock { $0.append(line) } })
        let found = await lookup.info([0x3C66B0, 0x123456])
        #expect(found.keys.sorted() == [0x3C66B0])
        #expect(found[0x3C66B0]?.typeCode == "A320")
        #expect(found[0x3C66B0]?.isMilitary == true)
        #expect(reports.withLock { $0 }.isEmpty)
        try await db.writer.write { try $0.execute(sql: "ALTER TABLE aircraft RENAME TO aircraftAway") }
        #expect(await lookup.info([0x3C66B0]).isEmpty)
        #expect(await lookup.info([0x3C66B0]).isEmpty)
        #expect(reports.withLock { $0 }.count == 1, "told once")
        #expect(reports.withLock { $0 }.first?.hasPrefix("aircraft database lookup failed") == true)
        try await db.writer.write { try $0.execute(sql: "ALTER TABLE aircraftAway RENAME TO aircraft") }
        #expect(await lookup.info([0x3C66B0]).count == 1)
        #expect(reports.withLock { $0 }.last == "aircraft database lookups work again")
    }
}
