import Foundation
import Hummingbird
import Store
import Testing
import Tracking
@testable import Web

/// `/api/openapi.yaml` is kept true: its paths are exactly the API routes.
@Suite("Web: OpenAPI document")
struct OpenAPITests {
    /// The keys directly under `paths:` (two-space indented lines ending in `:`).
    static func documentedPaths(_ yaml: String) -> Set<String> {
        var inPaths = false
        var paths: Set<String> = []
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths, line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") else { continue }
            var key = line.dropFirst(2).dropLast()
            if key.hasPrefix("\"") && key.hasSuffix("\"") { key = key.dropFirst().dropLast() }
            paths.insert(String(key))
        }
        return paths
    }

    /// The methods documented under one path (`get:`, `post:`… four spaces in).
    static func documentedMethods(_ yaml: String, path: String) -> Set<String> {
        var inPath = false
        var methods: Set<String> = []
        for line in yaml.split(separator: "\n") {
            if line.hasPrefix("  ") && !line.hasPrefix("   ") {
                inPath = line == "  \(path):"
            } else if !line.hasPrefix(" ") {
                inPath = false
            } else if inPath, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                methods.insert(line.trimmingCharacters(in: .whitespaces).dropLast().uppercased())
            }
        }
        return methods
    }

    @Test("Every /api and /data route is in openapi.yaml with its method, and every documented path is a route")
    func routesDocumented() throws {
        let files = StaticFiles.bundled()
        let yaml = String(buffer: try #require(files.files["openapi.yaml"]).body)
        let documented = Self.documentedPaths(yaml)
        #expect(documented.count >= 6)
        let accounts = WebAccounts(database: try AppDatabase.inMemory())
        let router = buildRouter(sources: WebSources(live: SnapshotPublisher(), accounts: accounts), staticFiles: files)
        let staticPaths = Set(files.files.keys.filter { $0 != "openapi.yaml" }.map { "/" + $0 } + ["/"])
        var apiRoutes: Set<String> = []
        for route in router.routes where !staticPaths.contains(route.path.description) {
            let path = route.path.description
            apiRoutes.insert(path)
            #expect(documented.contains(path), "route \(route) is not in openapi.yaml")
            #expect(Self.documentedMethods(yaml, path: path).contains(route.method.rawValue), "\(route): method not documented")
        }
        #expect(documented.subtracting(apiRoutes).isEmpty, "documented but not routed: \(documented.subtracting(apiRoutes))")
    }

    @Test("openapi.yaml is a valid OpenAPI 3.0.3 document (openapi-spec-validator)")
    func validOpenAPI303() throws {
        let files = StaticFiles.bundled()
        let yaml = String(buffer: try #require(files.files["openapi.yaml"]).body)
        #expect(yaml.hasPrefix("openapi: 3.0.3\n"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-openapi-\(UUID().uuidString).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let validator = Process()
        validator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        validator.arguments = ["python3", "-m", "openapi_spec_validator", "--schema", "3.0", path]
        let output = Pipe()
        validator.standardOutput = output
        validator.standardError = output
        try validator.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        #expect(validator.terminationStatus == 0, "\(text.prefix(2000))")
        #expect(text.contains("OK"))
    }

    @Test("Every API path the page's script calls is documented (and so routed)")
    func pageCallsDocumentedPaths() throws {
        let files = StaticFiles.bundled()
        let yaml = String(buffer: try #require(files.files["openapi.yaml"]).body)
        let documented = Self.documentedPaths(yaml)
        let script = files.scripts.values.joined(separator: "\n")
        var called: Set<String> = []
        for piece in script.components(separatedBy: "'").dropFirst() where piece.hasPrefix("api/") || piece.hasPrefix("data/") {
            let path = "/" + piece.prefix { $0.isLetter || $0 == "/" || $0 == "." || $0 == "_" }
            called.insert(path)
        }
        #expect(called.isSuperset(of: ["/api/aircraft", "/api/trails", "/data/receiver.json", "/api/auth/login", "/api/me/watchlist"]))
        for path in called {
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            let ok = documented.contains(trimmed) || documented.contains { $0.hasPrefix(path) && $0.dropFirst(path.count).hasPrefix("{") }
            #expect(ok, "the page calls \(path), which openapi.yaml does not document")
        }
    }

    @Test("The line parser reads paths and methods")
    func parser() {
        let yaml = "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      summary: x\n    post:\n  \"/b/{id}\":\n    get:\ncomponents:\n  /c:\n"
        #expect(Self.documentedPaths(yaml) == ["/a", "/b/{id}"])
        #expect(Self.documentedMethods(yaml, path: "/a") == ["GET", "POST"])
    }
}
