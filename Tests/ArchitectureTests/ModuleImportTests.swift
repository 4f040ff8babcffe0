import Foundation
import Testing

/// `docs/ARCHITECTURE.md` is the map of the modules: every `Sources/` folder imports only
/// what its row of the module table allows, and every folder has a row.
@Suite("Architecture: module imports")
struct ModuleImportTests {
    /// The package root (this file is `Tests/ArchitectureTests/ModuleImportTests.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The module table: module name → the modules it may import. A row names its modules
    /// in backticks in the first column (several for one row: `CMagickWand`, `CImageShim`)
    /// and what they may import in backticks in the last.
    static func allowed() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var table: [String: Set<String>] = [:]
        var inModules = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inModules = line == "## Modules" }
            guard inModules, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let names = backticked(cells[1])
            let imports = Set(backticked(cells[cells.count - 2]))
            for name in names { table[name] = imports }
        }
        return table
    }

    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
    }

    /// The modules the Swift files under `folder` import (any access level, `@testable`,
    /// `@preconcurrency`; submodules by their top module).
    static func imports(of folder: URL) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [:] }
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first) {
                    words.removeFirst()
                }
                guard words.count >= 2, words[0] == "import" else { continue }
                var module = words[1]
                if ["struct", "class", "enum", "func", "var", "let", "protocol", "typealias"].contains(module), words.count >= 3 { module = words[2] }
                module = String(module.split(separator: ".").first ?? Substring(module))
                found[module, default: []].append(file.lastPathComponent)
            }
        }
        return found
    }

    @Test("Every Sources folder has a row in the module table, and every row a folder")
    func everyModuleIsMapped() throws {
        let table = try Self.allowed()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }
        #expect(!folders.isEmpty)
        #expect(Set(folders) == Set(table.keys), "folders without a row: \(Set(folders).subtracting(table.keys)); rows without a folder: \(Set(table.keys).subtracting(folders))")
    }

    @Test("No module imports what docs/ARCHITECTURE.md does not allow it")
    func importsFollowTheMap() throws {
        let table = try Self.allowed()
        #expect(table["ModeS"] == ["RealModule"], "the pure core imports no Foundation")
        for (module, allowed) in table.sorted(by: { $0.key < $1.key }) {
            let folder = Self.root.appendingPathComponent("Sources").appendingPathComponent(module)
            for (imported, files) in try Self.imports(of: folder).sorted(by: { $0.key < $1.key }) where imported != module {
                #expect(allowed.contains(imported), "\(module) imports \(imported) (in \(Set(files).sorted().joined(separator: ", "))), which docs/ARCHITECTURE.md does not allow")
            }
        }
    }

    @Test("The reader finds imports in every form Swift allows")
    func readerFindsEveryForm() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            import Foundation
            @testable import Store
            public import NIOCore
            @preconcurrency import Dispatch
            import struct GRDB.Row
            let x = 1 // import Nothing
            """.write(to: dir.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        #expect(Set(try Self.imports(of: dir).keys) == ["Foundation", "Store", "NIOCore", "Dispatch", "GRDB"])
    }
}
