import Foundation
import GRDB
import ModeS
import Testing
@testable import Store

/// Importing aircraft database files (FORMATS.md) into SQLite, from fixtures the tests write.
@Suite("Aircraft database import")
struct AircraftImportTests {
    /// A temporary directory removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let tar1090 = """
        3c66b0;D-AIUP;A320;00;AIRBUS A-320;2009;Lufthansa;
        4840d6;PH-BXA;B738;00;BOEING 737-800;1999;KLM;
        ae1234;;C30J;1000;LOCKHEED C-130J HERCULES;;United States Air Force;
        A061D9;N12345;C172;0001;CESSNA 172 SKYHAWK;1976;Private\\; owner;
        zz1234;N1;C172;00;;;;
        4840d7;PH-BXB;B738;00;BOEING 737-800
        4840d8;PH-BXC;B738;0x;BOEING 737-800;;;

        400f01;G-EUPA;A319;00;AIRBUS A-319;nineteen;British Airways;\r

        """

    @Test("tar1090-db rows are stored; bad rows are counted with their reasons")
    func tar1090Plain() async throws {
        let db = try AppDatabase.inMemory()
        let report = try await AircraftImporter(database: db.aircraft, batchSize: 2).importData(Array(Self.tar1090.utf8))
        #expect(report.format == .tar1090)
        #expect(report.imported == 5)
        #expect(report.rejected == 3)
        #expect(report.reasons == ["bad address": 1, "wrong column count": 1, "bad flags": 1])
        #expect(report.examples.map(\.line) == [5, 6, 7])
        #expect(report.examples[0].reason == "bad address: 'zz1234'")
        #expect(try await db.aircraft.count() == 5)

        let d = try #require(try await db.aircraft.aircraft(address: 0x3C66B0))
        #expect(d.registration == "D-AIUP")
        #expect(d.typeCode == "A320")
        #expect(d.typeDescription == "AIRBUS A-320")
        #expect(d.year == 2009)
        #expect(d.ownerOperator == "Lufthansa")
        #expect(d.flags == [])
        let mil = try #require(try await db.aircraft.aircraft(address: 0xAE1234))
        #expect(mil.isMilitary)
        #expect(mil.registration == nil)
        let n = try #require(try await db.aircraft.aircraft(address: 0xA061D9))
        #expect(n.flags == .ladd)                        // 4th flag: LADD
        #expect(n.ownerOperator == "Private; owner")  // escaped ';'
        let g = try #require(try await db.aircraft.aircraft(address: 0x400F01))
        #expect(g.year == nil)                       // unreadable year: row kept, year left out
        #expect(g.ownerOperator == "British Airways")
    }

    @Test("lookups by registration ignore case and dashes and use the index")
    func registrationLookup() async throws {
        let db = try AppDatabase.inMemory()
        _ = try await AircraftImporter(database: db.aircraft).importData(Array(Self.tar1090.utf8))
        #expect(try await db.aircraft.aircraft(registration: "daiup").map(\.address) == [0x3C66B0])
        #expect(try await db.aircraft.aircraft(registration: "PH-BXA").map(\.address) == [0x4840D6])
        #expect(try await db.aircraft.aircraft(registration: "N-12345").map(\.address) == [0xA061D9])
        #expect(try await db.aircraft.aircraft(registration: "G-XXXX").isEmpty)
        let plan = try await db.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM aircraft WHERE registrationKey = 'DAIUP'")
                .map { $0["detail"] as String? ?? "" }.joined(separator: " ")
        }
        #expect(plan.contains("USING INDEX"))
    }

    @Test("a gzip-compressed tar1090-db file is decompressed")
    func tar1090Gzip() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("aircraft.csv")
        try Data(Self.tar1090.utf8).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -c '\(plain.path)' > '\(plain.path).gz'"]
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        let db = try AppDatabase.inMemory()
        let report = try await AircraftImporter(database: db.aircraft).importFile(atPath: plain.path + ".gz")
        #expect(report.imported == 5)
        #expect(report.rejected == 3)
        #expect(try await db.aircraft.aircraft(address: 0x4840D6)?.registration == "PH-BXA")
    }

    @Test("a damaged gzip file is an error, not an empty import")
    func brokenGzip() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.csv.gz")
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02, 0x03]).write(to: file)
        let db = try AppDatabase.inMemory()
        await #expect(throws: AircraftImportError.self) { try await AircraftImporter(database: db.aircraft).importFile(atPath: file.path) }
    }

    @Test("a missing file is an error naming the path")
    func missingFile() async throws {
        let db = try AppDatabase.inMemory()
        await #expect(throws: AircraftImportError.cannotRead(path: "/nonexistent/aircraft.csv", reason: "no such file")) {
            try await AircraftImporter(database: db.aircraft).importFile(atPath: "/nonexistent/aircraft.csv")
        }
    }

    static let openSky = """
        "icao24","registration","manufacturericao","manufacturername","model","typecode","serialnumber","linenumber","icaoaircrafttype","operator","operatorcallsign","operatoricao","operatoriata","owner","testreg","registered","reguntil","status","built","firstflightdate","seatconfiguration","engines","modes","adsb","acars","notes","categoryDescription"
        "4840d6","PH-BXA","BOEING","Boeing","737-8K2","B738","29131","","L2J","KLM","KLM","KLM","KL","KLM Royal Dutch Airlines","","","","","1999-01-01","","","","false","false","false","","No ADS-B Emitter Category Information"
        "a061d9","N12345","CESSNA","Cessna","Cessna 172N","C172","","","L1P","","","","","John Doe","","","","","1976","","","","false","false","false","Notes with, a comma
        and a line break","Light (< 15500 lbs)"
        "xyz","N1","","","","","","","","","","","","","","","","","","","","","false","false","false","",""
        "3c66b0","D-AIUP","AIRBUS","Airbus","A320 214","A320","","","L2J","Lufthansa","","DLH","LH","","","","","","2009-10-12","","","","false","false","false",""

        """

    @Test("OpenSky CSV rows are stored from their header columns, quoted fields spanning lines")
    func openSkyCSV() async throws {
        let db = try AppDatabase.inMemory()
        let report = try await AircraftImporter(database: db.aircraft).importData(Array(Self.openSky.utf8))
        #expect(report.format == .openSky)
        #expect(report.imported == 2)
        #expect(report.rejected == 2)
        #expect(report.reasons == ["bad address": 1, "wrong column count": 1])
        #expect(report.examples.map(\.line) == [5, 6])
        let klm = try #require(try await db.aircraft.aircraft(address: 0x4840D6))
        #expect(klm.registration == "PH-BXA")
        #expect(klm.typeCode == "B738")
        #expect(klm.typeDescription == "Boeing 737-8K2")
        #expect(klm.ownerOperator == "KLM")
        #expect(klm.year == 1999)
        let n = try #require(try await db.aircraft.aircraft(address: 0xA061D9))
        #expect(n.typeDescription == "Cessna 172N")      // the model already names the maker
        #expect(n.ownerOperator == "John Doe")
        #expect(n.year == 1976)
    }

    @Test("OpenSky files quoted with apostrophes are read too")
    func openSkySingleQuotes() async throws {
        let text = "'icao24','registration','typecode','operator','built'\n'4840D6','PH-BXA','B738','KLM','1999-01-01'\n"
        let db = try AppDatabase.inMemory()
        let report = try await AircraftImporter(database: db.aircraft).importData(Array(text.utf8))
        #expect(report.imported == 1)
        #expect(try await db.aircraft.aircraft(address: 0x4840D6)?.typeCode == "B738")
    }

    @Test("a file of neither format is refused")
    func unknownFormat() async throws {
        let db = try AppDatabase.inMemory()
        await #expect(throws: AircraftImportError.self) {
            try await AircraftImporter(database: db.aircraft).importData(Array("hello world\n".utf8))
        }
    }

    @Test("importing again replaces rows with the same address")
    func reimport() async throws {
        let db = try AppDatabase.inMemory()
        _ = try await AircraftImporter(database: db.aircraft).importData(Array("4840d6;PH-BXA;B738;00;;;;\n".utf8))
        _ = try await AircraftImporter(database: db.aircraft).importData(Array("4840d6;PH-BXZ;B739;00;;;;\n".utf8))
        #expect(try await db.aircraft.count() == 1)
        #expect(try await db.aircraft.aircraft(address: 0x4840D6)?.registration == "PH-BXZ")
    }
}

@Suite("Database file")
struct AppDatabaseTests {
    @Test("the default path follows XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(AppDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/pi"]) == "/data/flytracker/flytracker.sqlite")
        #expect(AppDatabase.defaultPath(environment: ["HOME": "/home/pi"]) == "/home/pi/.local/share/flytracker/flytracker.sqlite")
        #expect(AppDatabase.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/pi"]) == "/home/pi/.local/share/flytracker/flytracker.sqlite")
    }

    @Test("a file database is created with its directory, in WAL mode, and migrated")
    func fileDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sub/flytracker.sqlite").path
        let db = try AppDatabase.open(path: path)
        try await db.aircraft.save([AircraftInfo(address: 0x4840D6, registration: "PH-BXA")])
        let mode = try await db.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let applied = try await db.writer.read { try AppDatabase.migrator.appliedMigrations($0) }
        #expect(applied.first == "v1-aircraft-db" && applied == AppDatabase.migrator.migrations)
        // Reopening keeps the data.
        let again = try AppDatabase.open(path: path)
        #expect(try await again.aircraft.aircraft(address: 0x4840D6)?.registration == "PH-BXA")
    }
}
