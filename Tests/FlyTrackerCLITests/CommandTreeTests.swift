import ArgumentParser
import Testing
@testable import FlyTrackerCLI

/// The command tree names itself: a command without `commandName` gets one from its type's
/// name, by `String(describing:)` and reflection, at every start of the program, and those
/// searched the runtime's conformance tables: 6–9 ms of CPU a start (`stats --random`, perf
/// and timed).
struct CommandTreeTests {
    @Test("every command, nested ones too, gives its own name, distinct among its siblings")
    func everyCommandIsNamed() {
        var unnamed: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: String) {
            let configuration = command.configuration
            guard let name = configuration.commandName else { unnamed.append("\(path) › \(command)"); return }
            let children = configuration.subcommands
            let names = children.compactMap { $0.configuration.commandName }
            #expect(Set(names).count == names.count, "\(path) \(name): \(names)")
            for child in children { visit(child, path: path + " " + name) }
        }
        visit(FlyTracker.self, path: "")
        #expect(unnamed.isEmpty, "\(unnamed)")
    }
}
