import ArgumentParser
import Foundation
import Testing
@testable import FlyTrackerCLI

/// The command line before parsing (issue 27): negative numbers are taken as written after
/// every option that takes one, and a wrong command line is one `flytracker:` line.
struct CommandLineArgumentsTests {
    @Test("an option followed by a negative number gets it as its value; other arguments are left alone")
    func attaching() {
        let a = CommandLineArguments.attachingNegativeNumbers
        #expect(a(["run", "--lat", "-33.9", "--lon", "-73.8"]) == ["run", "--lat=-33.9", "--lon=-73.8"])
        #expect(a(["places", "add", "home", "--at", "-33.9,151.2"]) == ["places", "add", "home", "--at=-33.9,151.2"])
        #expect(a(["run", "--ppm", "-5", "--quiet"]) == ["run", "--ppm=-5", "--quiet"])
        #expect(a(["run", "--lon=-73.8"]) == ["run", "--lon=-73.8"], "already joined")
        #expect(a(["run", "--lon", "4.7", "-q"]) == ["run", "--lon", "4.7", "-q"], "a short option is not a number")
        #expect(a(["decode", "--", "--x", "-5"]) == ["decode", "--", "--x", "-5"], "nothing after --")
        #expect(!CommandLineArguments.isNegativeNumber("-h") && !CommandLineArguments.isNegativeNumber("-"))
        #expect(CommandLineArguments.isNegativeNumber("-.5") && !CommandLineArguments.isNegativeNumber("-5,x"))
    }

    /// Every command option that takes a coordinate (or another signed number), written the
    /// way a user west of Greenwich or south of the equator writes it.
    @Test("negative coordinates parse on every option that takes them", arguments: [
        (["run", "--simulate", "--lat", "-33.9", "--lon", "-73.8"], -33.9, -73.8),
        (["simulate", "-o", "/tmp/x.bin", "--lat", "-33.9", "--lon", "-73.8"], -33.9, -73.8),
        (["eta", "--user", "ann", "--lat", "-33.9", "--lon", "-73.8"], -33.9, -73.8),
    ])
    func negativeCoordinates(arguments: [String], lat: Double, lon: Double) throws {
        let command = try FlyTracker.parseAsRoot(CommandLineArguments.attachingNegativeNumbers(arguments))
        let parsed: (Double?, Double?)
        switch command {
        case let run as RunCommand: parsed = (run.lat, run.lon)
        case let simulate as SimulateCommand: parsed = (simulate.lat, simulate.lon)
        case let eta as EtaCommand: parsed = (eta.lat, eta.lon)
        default: parsed = (nil, nil)
        }
        #expect(parsed.0 == lat && parsed.1 == lon, "\(arguments[0])")
    }

    @Test("places add --at takes a coordinate pair that starts south")
    func placesAt() throws {
        let command = try FlyTracker.parseAsRoot(CommandLineArguments.attachingNegativeNumbers(
            ["places", "add", "--user", "ann", "home", "--at", "-33.9,151.2"]))
        #expect(Mirror(reflecting: command).children.contains { "\($0.value)".contains("-33.9,151.2") })
    }

    @Test("a wrong command line is one line naming the help to read")
    func usageLine() {
        let arguments = ["run", "--bogus"]
        do {
            _ = try FlyTracker.parseAsRoot(arguments)
            Issue.record("--bogus parsed")
        } catch {
            let line = FlyTracker.usageLine(for: error, arguments: arguments)
            #expect(!line.contains("\n"))
            #expect(line.contains("--bogus") && line.hasSuffix("(see flytracker run --help)"))
        }
    }

    @Test("--db and --no-db together are refused")
    func dbAndNoDb() {
        #expect(throws: (any Error).self) { try RunCommand.parse(["--simulate", "--db", "x.sqlite", "--no-db"]) }
    }
}
