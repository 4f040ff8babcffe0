import Testing
import ModeS
@testable import Feeds

@Suite struct AVRStreamTests {
    @Test func roundTripWrittenThenReadBackIdentical() throws {
        let hexes = ["8D4840D6202CC371C32CE0576098", "5D4840D6A1B2C3", "8D406B902015A678D4D220AA4BDA",
                     "02E197B00179C3", "A0001838CA3E51F0A8000047A15F"]
        var written: [ReceivedFrame] = []
        var text = ""
        for (i, h) in hexes.enumerated() {
            let r = ReceivedFrame(frame: try Frame(hex: h), timestamp: i % 2 == 0 ? 0 : UInt64(0xABCDEF012345 + i))
            written.append(r)
            text += AVRLine.format(r) + "\n"
        }
        var parser = AVRStreamParser()
        var read: [ReceivedFrame] = []
        for byte in Array(text.utf8) { read += parser.decode([byte]) }
        #expect(read == written)
        #expect(parser.rejectedLines == 0)
    }

    @Test func acceptsLowerCaseCRLFBlankLinesAndSkipsHeartbeatsAndModeAC() throws {
        var parser = AVRStreamParser()
        let frames = parser.decode(Array("\r\n\n*0000;\r\n*1234;\n*8d4840d6202cc371c32ce0576098;\r\n".utf8))
        #expect(frames.map(\.frame.hex) == ["8D4840D6202CC371C32CE0576098"])
        #expect(parser.rejectedLines == 1)
    }

    @Test func randomBytesAndOverlongLinesNeverCrashAndItRecovers() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            var parser = AVRStreamParser()
            _ = parser.decode((0..<Int.random(in: 0...2000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            let frames = parser.decode(Array("\n*8D4840D6202CC371C32CE0576098;\n".utf8))
            #expect(frames.count == 1)
        }
    }
}

@Suite struct SBSLineTests {
    static let time = SBSTime(year: 2008, month: 11, day: 28, hour: 14, minute: 53, second: 50, millisecond: 594)

    func fields(of hex: String) throws -> FieldSet {
        try #require(ModeSMessage.decode(try Frame(hex: hex))).fields
    }

    /// Splits a line and checks the fixed parts every line has.
    func columns(_ line: String?) throws -> [String] {
        let line = try #require(line)
        #expect(line.utf8.suffix(2).elementsEqual([13, 10]))  // "\r\n" is one Character: dropLast(1) below
        let cols = line.dropLast(1).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(cols.count == 22)
        #expect(cols[0] == "MSG" && cols[2] == "1" && cols[3] == "1" && cols[5] == "1")
        #expect(cols[6] == "2008/11/28" && cols[7] == "14:53:50.594")
        return cols
    }

    @Test func formatsExampleShapeOfAnAirbornePosition() throws {
        // FORMATS.md example: MSG,3,…,37000,,,51.45735,-1.02826,,,0,0,0,0
        var f = FieldSet()
        f.df = 17; f.tc = 11; f.address = 0x4CA2D6; f.altBaro = 37000
        let line = SBSLine.format(f, position: (51.45735, -1.02826), generated: Self.time, logged: Self.time)
        #expect(line == "MSG,3,1,1,4CA2D6,1,2008/11/28,14:53:50.594,2008/11/28,14:53:50.594,,37000,,,51.45735,-1.02826,,,0,0,0,0\r\n")
    }

    @Test func identificationCarriesTheCallsign() throws {
        let cols = try columns(SBSLine.format(try fields(of: "8D4840D6202CC371C32CE0576098"), generated: Self.time, logged: Self.time))
        #expect(cols[1] == "1" && cols[4] == "4840D6" && cols[10] == "KLM1023")
    }

    @Test func velocityCarriesWholeSpeedTrackAndRate() throws {
        let cols = try columns(SBSLine.format(try fields(of: "8D485020994409940838175B284F"), generated: Self.time, logged: Self.time))
        #expect(cols[1] == "4")
        #expect(cols[12] == "159" && cols[13] == "183" && cols[16] == "-832")
        #expect(Int(cols[12]) != nil && Int(cols[13]) != nil && Int(cols[16]) != nil)
    }

    @Test func airbornePositionHasAltitudeAndFiveDecimalPosition() throws {
        let cols = try columns(SBSLine.format(try fields(of: "8D40621D58C382D690C8AC2863A7"), position: (52.2572, 3.91937),
                                              generated: Self.time, logged: Self.time))
        #expect(cols[1] == "3" && cols[11] == "38000")
        #expect(cols[14] == "52.25720" && cols[15] == "3.91937")
        #expect(cols[21] == "0")
    }

    @Test(arguments: [(0, nil as Int?, 7), (4, nil, 5), (5, nil, 6), (11, nil, 8), (16, nil, 7), (20, nil, 5),
                      (21, nil, 6), (17, 1, 1), (17, 4, 1), (18, 7, 2), (17, 9, 3), (17, 18, 3), (17, 19, 4),
                      (17, 28, nil), (24, nil, nil)])
    func transmissionTypes(df: Int, tc: Int?, type: Int?) {
        #expect(SBSLine.transmissionType(df: df, tc: tc) == type)
    }

    @Test func identityReplyCarriesSquawkAndEmergencyFlag() throws {
        var f = FieldSet()
        f.df = 5; f.address = 0xABCDEF; f.squawk = 0o7700; f.alert = false; f.spi = true; f.onGround = false
        let cols = try columns(SBSLine.format(f, generated: Self.time, logged: Self.time))
        #expect(cols[1] == "6" && cols[17] == "7700")
        #expect(cols[18] == "0" && cols[19] == "-1" && cols[20] == "-1" && cols[21] == "0")
        #expect(cols[11].isEmpty && cols[14].isEmpty)
    }

    @Test func localTimeFormatting() {
        let t = SBSTime(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5, millisecond: 6)
        #expect(t.date == "2026/01/02" && t.time == "03:04:05.006")
    }
}
