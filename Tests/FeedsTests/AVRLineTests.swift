import Testing
@testable import Feeds
import ModeS

struct AVRLineTests {
    @Test func acceptsBareHexStarAndTimestampForms() throws {
        let bare = try #require(try AVRLine.parse("8D4840D6202CC371C32CE0576098"))
        let star = try #require(try AVRLine.parse("*8d4840d6202cc371c32ce0576098;"))
        let stamped = try #require(try AVRLine.parse("@0123456789AB8D4840D6202CC371C32CE0576098;\r"))
        #expect(bare.frame == star.frame)
        #expect(stamped.frame == bare.frame)
        #expect(bare.timestamp == 0)
        #expect(stamped.timestamp == 0x0123456789AB)
        #expect(stamped.seconds == Double(0x0123456789AB) / 12_000_000)
    }

    @Test func blankLinesAndHeartbeatsCarryNothing() throws {
        #expect(try AVRLine.parse("") == nil)
        #expect(try AVRLine.parse("   \r") == nil)
        #expect(try AVRLine.parse("*0000;") == nil)
    }

    @Test func malformedLinesSayWhy() {
        #expect(throws: FrameLineError.missingTerminator) { try AVRLine.parse("*8D4840D6202CC371C32CE0576098") }
        #expect(throws: FrameLineError.trailingCharacters) { try AVRLine.parse("*5D484FDEA248F5;x") }
        #expect(throws: FrameLineError.badTimestamp) { try AVRLine.parse("@01234567;") }
        #expect(throws: FrameLineError.badTimestamp) { try AVRLine.parse("@01234567890G5D484FDEA248F5;") }
        #expect(throws: FrameLineError.modeAC) { try AVRLine.parse("*7700;") }
        #expect(throws: FrameLineError.frame(.invalidLength(digits: 13))) { try AVRLine.parse("5D484FDEA248F") }
        #expect(throws: FrameLineError.frame(.invalidCharacter(offset: 2))) { try AVRLine.parse("5D\u{0}84FDEA248F5") }
        let long = String(repeating: "A", count: 10_000)
        #expect(throws: FrameLineError.tooLong(bytes: 10_000)) { try AVRLine.parse(Substring(long)) }
    }

    @Test func formatRoundTripsThroughParse() throws {
        let frame = try Frame(hex: "5D484FDEA248F5")
        let withStamp = ReceivedFrame(frame: frame, timestamp: 0xABCDEF012345)
        #expect(AVRLine.format(withStamp) == "@ABCDEF0123455D484FDEA248F5;")
        #expect(try AVRLine.parse(Substring(AVRLine.format(withStamp))) == withStamp)
        #expect(AVRLine.format(ReceivedFrame(frame: frame)) == "*5D484FDEA248F5;")
    }

    @Test func linesThatAreNotWholeCharactersAreRejectedNotTrapped() throws {
        // Multi-byte characters and invalid UTF-8 (replacement characters) around and inside.
        for text in [" é*8D4840D6202CC371C32CE0576098;", "€", " \u{1F6E9} ", "*8D4840D6202CC371C32CE05760€;",
                     String(decoding: [0xE2, 0x82, 0x20, 0x41, 0xFF, 0x2A, 0x3B], as: UTF8.self)] {
            #expect(throws: FrameLineError.self) { try AVRLine.parse(Substring(text)) }
        }
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let count = Int(state >> 58)
            var bytes: [UInt8] = []
            for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: state >> UInt64(i % 56))) }
            _ = try? AVRLine.parse(Substring(String(decoding: bytes, as: UTF8.self)))
        }
        #expect(try AVRLine.parse(" *8d4840d6202cc371c32ce0576098; ")?.frame.hex == "8D4840D6202CC371C32CE0576098")
    }
}
