import Foundation
import Testing
import Tracking
@testable import FlyTrackerCLI

/// `run`'s options for feeding aggregators (issue 26): reduced Beast and the receiver's UUID.
struct FeedCommandOptionsTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-uuid-\(UUID().uuidString)").path
    }

    @Test("--uuid-file: a missing file gets a new UUID that the next run reads back; a file that is not a UUID is an error")
    func uuidFile() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let made = try ReceiverUUIDFile.read(path)
        #expect(ReceiverID.uuid(made.rawValue) == made)
        #expect(try ReceiverUUIDFile.read(path) == made, "the same id on the next start")
        try "0B5B7C9E58A84E4B9D8E1C2F3A4B5C6D\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ReceiverUUIDFile.read(path).rawValue == "0b5b7c9e-58a8-4e4b-9d8e-1c2f3a4b5c6d")
        try "hello\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ReceiverUUIDFile.Failure.self) { try ReceiverUUIDFile.read(path) }
    }

    @Test("a uuid file feeds the announcement; reduce port and interval reach the feed options")
    func optionsReachTheFeeds() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try RunCommand.parse([
            "--simulate", "--uuid-file", path, "--net-beast-reduce-out-port", "30006", "--net-beast-reduce-interval", "0.5",
            "--net-connector", "127.0.0.1:30004:beast_reduce_plus_out",
        ])
        let options = try command.network.feedOptions()
        #expect(options.beastReduceOutPorts == [30006] && options.beastReduceInterval == 0.5)
        #expect(options.announcement?.id == (try ReceiverUUIDFile.read(path)))
    }

    @Test(arguments: [
        ["--net-connector", "h:30004:beast_reduce_plus_out"],
        ["--net-connector", "h:30004:beast_reduce_plus_out", "--receiver-id", "my-station"],
        ["--net-beast-reduce-interval", "20"],
        ["--uuid-file", "/tmp/x", "--receiver-id", "abc"],
    ])
    func badFeedOptionsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try RunCommand.parse(["--simulate"] + arguments) }
    }
}
