import Testing
import ModeS
@testable import Feeds

@Suite struct BeastWireTests {
    /// FORMATS.md worked example: a short frame with escaped bytes in the signal and payload.
    static let worked: [UInt8] = [0x1a, 0x32, 0x08, 0x3e, 0x27, 0xb6, 0xcb, 0x6a, 0x1a, 0x1a, 0x00,
                                  0xa1, 0x84, 0x1a, 0x1a, 0xc3, 0xb3, 0x1d]

    @Test func workedExampleParsesToItsTimestampSignalAndMessage() throws {
        var decoder = BeastDecoder()
        let frames = decoder.decode(Self.worked)
        #expect(frames.count == 1)
        guard case .modeS(let frame, let ts, let sig) = try #require(frames.first) else {
            Issue.record("not a Mode S frame"); return
        }
        #expect(ts == 0x083E27B6CB6A)
        #expect(sig == 0x1A)
        #expect(frame.hex == "00A1841AC3B31D")
    }

    @Test func workedExampleIsWhatTheEncoderWrites() throws {
        let frame = try #require(Frame(bytes: [0x00, 0xA1, 0x84, 0x1A, 0xC3, 0xB3, 0x1D]))
        let beast = BeastFrame.modeS(frame: frame, timestamp: 0x083E27B6CB6A, signal: 0x1A)
        #expect(beast.bytes == Self.worked)
    }

    @Test func workedExampleSplitAtEveryOffsetStillParses() {
        for cut in 0...Self.worked.count {
            var decoder = BeastDecoder()
            var frames = decoder.decode(Self.worked[..<cut])
            frames += decoder.decode(Self.worked[cut...])
            #expect(frames.count == 1, "cut at \(cut)")
            #expect(frames.first?.timestamp == 0x083E27B6CB6A)
        }
    }

    @Test func longFrameHeaderTypeAndLength() throws {
        let frame = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        let bytes = BeastFrame.modeS(frame: frame, timestamp: 1, signal: 200).bytes
        #expect(bytes.count == 2 + 6 + 1 + 14)
        #expect(bytes[0] == 0x1A && bytes[1] == 0x33)
        #expect(Array(bytes[2..<8]) == [0, 0, 0, 0, 0, 1])
        #expect(bytes[8] == 200)
        #expect(Array(bytes[9...]) == [0x8D, 0x48, 0x40, 0xD6, 0x20, 0x2C, 0xC3, 0x71, 0xC3, 0x2C, 0xE0, 0x57, 0x60, 0x98])
    }

    @Test func heartbeatIsAnAllZeroModeACFrame() {
        #expect(BeastFrame.heartbeat.bytes == [0x1A, 0x31, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// sig = round(sqrt(power)·255): full scale 255; −6 dBFS is amplitude 0.5012 → 128; −40 dBFS is 0.01 → 2.55 → 3.
    @Test(arguments: [(0.0, UInt8(255)), (3.0, UInt8(255)), (-6.0, UInt8(128)),
                      (-40.0, UInt8(3)), (-48.1308, UInt8(1)), (-120.0, UInt8(1))])
    func signalByteFromDBFS(dBFS: Double, expected: UInt8) {
        #expect(BeastFrame.signalByte(dBFS: dBFS) == expected)
    }

    @Test func signalByteUnknownIsZeroAndReadsBackAsUnknown() {
        #expect(BeastFrame.signalByte(dBFS: nil) == 0)
        #expect(BeastFrame.dBFS(signalByte: 0) == nil)
        let full = BeastFrame.dBFS(signalByte: 255)
        #expect(full == 0)
    }

    @Test func roundTripWrittenThenReadBackIdentical() throws {
        var rng = SystemRandomNumberGenerator()
        var written: [BeastFrame] = []
        var stream: [UInt8] = []
        for i in 0..<500 {
            let long = i % 2 == 0
            var bytes = (0..<(long ? 14 : 7)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Force plenty of 0x1A and a DF consistent with the length.
            if i % 3 == 0 { bytes[bytes.count - 1] = 0x1A; bytes[2] = 0x1A }
            bytes[0] = long ? 0x8D : 0x5D
            let frame = try #require(Frame(bytes: bytes))
            let ts = UInt64.random(in: 0...0xFFFF_FFFF_FFFF, using: &rng) | (i % 5 == 0 ? 0x1A1A1A : 0)
            let f = BeastFrame.modeS(frame: frame, timestamp: ts & 0xFFFF_FFFF_FFFF, signal: UInt8.random(in: 1...255, using: &rng))
            written.append(f)
            f.encode(into: &stream)
        }
        var decoder = BeastDecoder()
        var read: [BeastFrame] = []
        var offset = 0
        while offset < stream.count {
            let n = Int.random(in: 1...37, using: &rng)
            read += decoder.decode(stream[offset..<min(stream.count, offset + n)])
            offset += n
        }
        #expect(read == written)
        #expect(decoder.garbageBytes == 0 && decoder.resyncs == 0)
    }

    @Test func receivedFrameRoundTripKeepsFrameTimestampAndSignalByte() throws {
        let frame = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        let received = ReceivedFrame(frame: frame, timestamp: 0x123456789ABC, signal: -13.5)
        var decoder = BeastDecoder()
        let back = try #require(decoder.decode(BeastFrame(received).bytes).first?.received)
        #expect(back.frame == frame && back.timestamp == received.timestamp)
        #expect(BeastFrame.signalByte(dBFS: back.signal) == BeastFrame.signalByte(dBFS: received.signal))
        #expect(abs((back.signal ?? 0) - (-13.5)) < 0.1)
    }

    @Test func resyncsOnLoneEscapeInsideAHalfFrame() {
        var stream = Array(Self.worked[..<10])   // half a frame
        stream += [0x55, 0x66]                   // garbage
        stream += Self.worked                    // lone 0x1A + '2': a new frame starts
        var decoder = BeastDecoder()
        let frames = decoder.decode(stream)
        #expect(frames.count == 1)
        #expect(frames.first?.timestamp == 0x083E27B6CB6A)
        #expect(decoder.resyncs == 1)
    }

    @Test func statusFramesAndUnknownTypesAreIgnored() throws {
        var stream: [UInt8] = [0x1A, 0x34] + [UInt8](repeating: 0, count: 21)
        stream += [0x1A, 0x39, 1, 2, 3]
        stream += Self.worked
        var decoder = BeastDecoder()
        let frames = decoder.decode(stream)
        #expect(frames.count == 1)
        #expect(decoder.dropped == 1)
    }

    @Test func randomBytesNeverCrashAndTheDecoderRecovers() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var decoder = BeastDecoder()
            let noise = (0..<Int.random(in: 0...600, using: &rng)).map { _ in
                Bool.random(using: &rng) ? UInt8(0x1A) : UInt8.random(in: 0...255, using: &rng)
            }
            _ = decoder.decode(noise)
            // After any garbage, two good frames: at least the second is read.
            let frames = decoder.decode(Self.worked + Self.worked)
            #expect(frames.count >= 1)
            #expect(frames.last?.timestamp == 0x083E27B6CB6A)
        }
    }

    @Test func mlatTimestampIsRecognised() throws {
        let frame = try Frame(hex: "8D4840D6202CC371C32CE0576098")
        #expect(BeastFrame.modeS(frame: frame, timestamp: 0xFF004D4C4154, signal: 1).isMLAT)
    }

    @Test func clientCommandsAreRead() {
        var reader = BeastCommandReader()
        var commands: [BeastCommand] = []
        reader.push([0x00, 0x1A, 0x31, 0x4A, 0x1A, 0x31] + [0x76, 0x1A, 0x31, 0x6A, 0x1A, 0x31, 0x56]) { commands.append($0) }
        #expect(commands == [.modeAC(true), .verbatim(false), .modeAC(false), .verbatim(true)])
    }
}
