import Foundation
import Testing
@testable import FlyTrackerCLI

/// Drives the `flytracker decode` I/O loop with files, as the command runs it.
struct DecodeRunnerTests {
    struct Outcome {
        var ok: Bool
        var stdout: [String]
        var stderr: [String]
    }

    func decode(_ input: Data) throws -> Outcome {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("in"), outURL = dir.appendingPathComponent("out"), errURL = dir.appendingPathComponent("err")
        try input.write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let inFD = open(inURL.path, O_RDONLY), outFD = open(outURL.path, O_WRONLY), errFD = open(errURL.path, O_WRONLY)
        defer { close(inFD); close(outFD); close(errFD) }
        let ok = DecodeRunner(reference: nil).run(input: inFD, output: outFD, errors: errFD, inputName: "in")
        let lines = { (url: URL) in
            (try? String(contentsOf: url, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        return Outcome(ok: ok, stdout: lines(outURL), stderr: lines(errURL))
    }

    @Test func goodFramesGiveOneJSONObjectEach() throws {
        let outcome = try decode(Data("*8D4840D6202CC371C32CE0576098;\n5D484FDEA248F5\n\n@000000000001A000083E202CC371C31DE0AA1CCF;\n".utf8))
        #expect(outcome.ok)
        #expect(outcome.stderr.isEmpty)
        #expect(outcome.stdout.count == 3)
        for line in outcome.stdout {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["hex"] != nil)
        }
    }

    @Test func malformedLinesAreReportedWithTheirNumberAndDecodingGoesOn() throws {
        let text = "8D4840D6\nnot hex at all\n*8D4840D6202CC371C32CE0576098\n8D4840D6202CC371C32CE0576098\n8D4840D6202CC371C32CE057609B\n"
        let outcome = try decode(Data(text.utf8))
        #expect(outcome.ok)
        #expect(outcome.stdout.count == 1)
        #expect(outcome.stderr.count == 4)
        #expect(outcome.stderr[0].hasPrefix("flytracker: line 1: "))
        #expect(outcome.stderr[1].hasPrefix("flytracker: line 2: "))
        #expect(outcome.stderr[2] == "flytracker: line 3: missing ';' at the end of an AVR frame")
        #expect(outcome.stderr[3].hasPrefix("flytracker: line 5: "))
    }

    @Test func randomBytesAndHugeLinesNeverStopDecoding() throws {
        var generator = SystemRandomNumberGenerator()
        var data = Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        data.append(Data("\n".utf8))
        data.append(Data(repeating: UInt8(ascii: "A"), count: 10_000_000))
        data.append(Data("\n8D4840D6202CC371C32CE0576098\n".utf8))
        let outcome = try decode(data)
        #expect(outcome.ok)
        #expect(outcome.stderr.contains { $0.hasSuffix(": line of 10000000 bytes is too long for a frame") })
        #expect(outcome.stderr.allSatisfy { $0.hasPrefix("flytracker: line ") })
        let last = try #require(outcome.stdout.last)
        #expect(last.contains("\"flight\":\"KLM1023\""))
    }

    @Test func aTruncatedLastLineWithoutNewlineIsStillDecoded() throws {
        let outcome = try decode(Data("5D484FDEA248F5".utf8))
        #expect(outcome.stdout.count == 1)
    }

    @Test func unreadableInputFailsTheRun() throws {
        let dirFD = open(FileManager.default.temporaryDirectory.path, O_RDONLY)
        defer { close(dirFD) }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        #expect(DecodeRunner(reference: nil).run(input: dirFD, output: devNull, errors: devNull, inputName: "dir") == false)
    }

    @Test func referenceOptionParsesAndRejectsOutOfRange() {
        #expect(ReferenceOption(argument: "52.3,4.76")?.coordinate.latitude == 52.3)
        #expect(ReferenceOption(argument: "91,0") == nil)
        #expect(ReferenceOption(argument: "1,2,3") == nil)
        #expect(ReferenceOption(argument: "abc") == nil)
    }
}

/// `decode --max-range`: the range the checks allow around `--ref`.
struct DecodeCommandOptionTests {
    @Test(arguments: [["--max-range", "0"], ["--max-range", "nan"], ["--max-range", "5000"]])
    func rangesOutsideOneToAThousandNMAreRejected(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try DecodeCommand.parse(arguments) }
    }

    @Test func theRangeDefaultsToTheUnambiguousLocalRangeAndIsPassedOn() throws {
        #expect(try DecodeCommand.parse([]).maxRange == 180)
        #expect(try DecodeCommand.parse(["--ref", "52,4", "--max-range", "300"]).maxRange == 300)
    }
}
