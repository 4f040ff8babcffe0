import Testing
import ModeS
import Tracking
@testable import Feeds

@Suite struct ReceiverAnnouncementTests {
    let uuid = "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"
    let frame = ReceivedFrame(frame: try! Frame(hex: "8D4840D6202CC371C32CE0576098"), timestamp: 0x1A1A_1A1A, signal: -12)

    /// Decodes `bytes` fed one byte at a time and all at once; both must agree.
    func decode(_ bytes: [UInt8]) -> (frames: [(BeastFrame, ReceiverAnnouncement)], decoder: BeastDecoder) {
        var whole = BeastDecoder()
        var all: [(BeastFrame, ReceiverAnnouncement)] = []
        whole.push(bytes) { all.append(($0, $1)) }
        var split = BeastDecoder()
        var pieces: [(BeastFrame, ReceiverAnnouncement)] = []
        for b in bytes { split.push([b]) { pieces.append(($0, $1)) } }
        #expect(all.map(\.0) == pieces.map(\.0))
        #expect(all.map(\.1) == pieces.map(\.1))
        return (all, whole)
    }

    @Test func announcementRoundTripsThroughTheDecoderWhateverTheChunking() throws {
        let sent = ReceiverAnnouncement(id: ReceiverID.uuid(uuid), name: "Pi in the attic ✈",
                                        position: Coordinate(latitude: 52.3081, longitude: 4.7642))
        let (frames, decoder) = decode(sent.bytes + BeastFrame(frame).bytes)
        #expect(frames.count == 1)
        #expect(frames.first?.1 == sent)
        #expect(frames.first?.0.received == ReceivedFrame(frame: frame.frame, timestamp: frame.timestamp, signal: BeastFrame.dBFS(signalByte: BeastFrame.signalByte(dBFS: -12))))
        #expect(decoder.announcements == 2)
        #expect(decoder.badAnnouncements == 0)
        #expect(decoder.garbageBytes == 0)
    }

    @Test func readsbUUIDMessageNamesTheReceiverInCanonicalForm() {
        // readsb sends the UUID file's text; case and dashes do not matter.
        let text = Array("0A1B2C3D4E5F60718293A4B5C6D7E8F9".utf8)
        let (frames, decoder) = decode([0x1A, 0xE4] + text + BeastFrame(frame).bytes)
        #expect(frames.first?.1.id?.rawValue == uuid)
        #expect(decoder.badAnnouncements == 0)
    }

    @Test func readsbBinaryIDAppliesToTheFramesAfterIt() {
        // 0x1A inside the 8 id bytes is doubled on the wire.
        let idBytes: [UInt8] = [0x1A, 0x1A, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        let second: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
        let bytes = BeastFrame(frame).bytes + [0x1A, 0xE3] + idBytes + BeastFrame(frame).bytes + [0x1A, 0xE3] + second + BeastFrame(frame).bytes
        let (frames, _) = decode(bytes)
        #expect(frames.map { $0.1.id?.rawValue } == [nil, "1a020304-0506-0708-0000-000000000000", "11223344-5566-7788-0000-000000000000"])
    }

    @Test func aNewIDForgetsThePreviousReceiversNameAndPosition() {
        let first = ReceiverAnnouncement(id: ReceiverID(rawValue: "north"), name: "North", position: Coordinate(latitude: 1, longitude: 2))
        let bytes = first.bytes + BeastFrame(frame).bytes + [0x1A, 0xE4] + Array(uuid.utf8) + BeastFrame(frame).bytes
        let (frames, _) = decode(bytes)
        #expect(frames.map(\.1) == [first, ReceiverAnnouncement(id: ReceiverID.uuid(uuid))])
    }

    @Test(arguments: [
        ("not json", #"{"lat": 91, "lon": 0}"#),
        ("latitude out of range", #"{"lat": 91, "lon": 0}"#),
        ("longitude out of range", #"{"lat": 0, "lon": 181}"#),
        ("id with a space", #"{"id": "two words"}"#),
        ("id too long", #"{"id": "\#(String(repeating: "x", count: 65))"}"#),
        ("wrong type", #"{"lat": "north"}"#),
    ])
    func malformedDetailsAreCountedAndIgnored(_ name: String, _ json: String) {
        let body = name == "not json" ? Array("{{{".utf8) : Array(json.utf8)
        let (frames, decoder) = decode([0x1A, 0xE5, UInt8(body.count)] + body + BeastFrame(frame).bytes)
        #expect(decoder.badAnnouncements == 1, "\(name)")
        #expect(frames.count == 1, "the frame after it is still read")
        #expect(frames.first?.1 == ReceiverAnnouncement(), "nothing was taken from it")
    }

    @Test func tooFewUUIDDigitsAreRejectedAndGarbageAfterThemResynchronises() {
        let (frames, decoder) = decode([0x1A, 0xE4] + Array("12ab".utf8) + [0x00, 0xFF] + BeastFrame(frame).bytes)
        #expect(decoder.badAnnouncements == 1)
        #expect(frames.count == 1)
        #expect(frames.first?.1.id == nil)
    }

    @Test func nameIsCutAtACharacterBoundaryAndControlCharactersDropped() throws {
        let long = String(repeating: "é", count: 40)   // 80 bytes of UTF-8
        let sent = ReceiverAnnouncement(id: ReceiverID(rawValue: "r1"), name: long)
        let (frames, _) = decode(sent.bytes + BeastFrame(frame).bytes)
        let name = try #require(frames.first?.1.name)
        #expect(name == String(repeating: "é", count: 32))
        let bell = ReceiverAnnouncement(id: ReceiverID(rawValue: "r1"), name: "a\u{7}b\nc")
        #expect(decode(bell.bytes + BeastFrame(frame).bytes).frames.first?.1.name == "abc")
    }

    @Test func receiverIDsAreCanonicalUUIDsOrPrintableNames() {
        #expect(ReceiverID.uuid("0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9")?.rawValue == uuid)
        #expect(ReceiverID.uuid("0a1b2c3d")?.rawValue == "0a1b2c3d-0000-0000-0000-000000000000")
        #expect(ReceiverID.uuid("0a1b2c") == nil)
        #expect(ReceiverID.uuid("xyz") == nil)
        #expect(ReceiverID(rawValue: "") == nil)
        #expect(ReceiverID(rawValue: "has space") == nil)
        #expect(ReceiverID(rawValue: "tab\there") == nil)
        #expect(ReceiverID(rawValue: String(repeating: "a", count: 65)) == nil)
        #expect(ReceiverID.peer("192.0.2.7").rawValue == "peer-192.0.2.7")
        #expect(ReceiverID.uuid(high: 0x0102_0304_0506_0708).rawValue == "01020304-0506-0708-0000-000000000000")
    }
}

@Suite struct FrameMergerTests {
    let a = try! Frame(hex: "8D4840D6202CC371C32CE0576098")
    let b = try! Frame(hex: "8D485020994409940838175B284F")

    /// Whether each (frame, receiver, arrival) was admitted as a first copy.
    func admitted(window: Double, _ steps: [(Frame, Int, Double)]) -> [Bool] {
        var m = FrameMerger(window: window)
        return steps.map { m.admit($0.0, receiver: $0.1, at: $0.2) }
    }

    @Test func copiesFromOtherReceiversWithinTheWindowAreDuplicates() {
        let result = admitted(window: 0.5, [(a, 0, 100.00), (a, 1, 100.10), (a, 2, 100.45), (b, 1, 100.46)])
        #expect(result == [true, false, false, true], "other bits are another transmission")
    }

    @Test func aReceiverRepeatingItsOwnFrameIsANewTransmission() {
        // An identical squitter 0.3 s later from the same receiver, then the other receiver's copy of it.
        let result = admitted(window: 0.5, [(a, 0, 10.0), (a, 0, 10.3), (a, 1, 10.35)])
        #expect(result == [true, true, false])
    }

    @Test func copiesOutsideTheWindowCountAgainAndOldGenerationsAreDropped() {
        var steps: [(Frame, Int, Double)] = [(a, 0, 10.0), (a, 1, 10.6)]
        for i in 0..<100 { steps.append((b, i % 3, 11 + Double(i))) }
        steps.append((a, 2, 10.6 + 200))
        let result = admitted(window: 0.5, steps)
        #expect(result.prefix(2) == [true, true])
        #expect(result.last == true)
    }

    @Test func windowZeroCountsEveryCopy() {
        #expect(admitted(window: 0, [(a, 0, 1), (a, 1, 1)]) == [true, true])
    }
}
