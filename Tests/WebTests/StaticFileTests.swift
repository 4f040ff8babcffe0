import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Web

/// The page is served from the bundle; nothing else on disk can be reached.
@Suite("Web: static files")
struct StaticFileTests {
    @Test("The bundle holds the page, its script, style and the OpenAPI document")
    func bundled() {
        let names = Set(StaticFiles.bundled().files.keys)
        #expect(names.isSuperset(of: ["index.html", "app.js", "sky.js", "account.js", "places.js", "social.js", "i18n.js", "units.js",
                                      "api.js", "dom.js", "session.js", "style.css", "openapi.yaml"]))
    }

    @Test("/ is index.html with a restrictive Content-Security-Policy; files have their types", arguments: [
        ("/", "text/html", "<svg id=\"scope\""),
        ("/index.html", "text/html", "<table id=\"list\""),
        ("/app.js", "text/javascript", "import { startSky } from './sky.js';"),
        ("/units.js", "text/javascript", "localStorage"),
        ("/style.css", "text/css", "html.dark"),
        ("/api/openapi.yaml", "application/yaml", "openapi: 3"),
    ])
    func serves(path: String, type: String, contains: String) async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix(type) == true)
                #expect(response.text.contains(contains))
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                if type == "text/html" {
                    #expect(response.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'self'") == true)
                }
            }
        }
    }

    @Test("The page's script is ES modules: loaded as a module, each importing only bundled modules, no import cycle, no global written")
    func esModules() throws {
        let files = StaticFiles.bundled()
        let html = String(buffer: try #require(files.files["index.html"]).body)
        #expect(html.contains(#"<script type="module" src="app.js"></script>"#))
        let scripts = files.scripts
        var imports: [String: [String]] = [:]
        for (name, text) in scripts {
            let found = text.components(separatedBy: "from './").dropFirst().map { String($0.prefix { $0 != "'" }) }
            imports[name] = found
            for target in found { #expect(scripts[target] != nil, "\(name) imports \(target), which is not bundled") }
            #expect(!text.contains("'use strict'"), "\(name): modules are strict already")
            for line in text.split(separator: "\n") where line.hasPrefix("var ") || line.contains("globalThis") || line.contains("window.state") {
                Issue.record("\(name) writes a global: \(line)")
            }
        }
        // Every module is reached from app.js, and no module reaches itself again.
        var reached: Set<String> = []
        func visit(_ name: String, _ path: [String]) {
            if path.contains(name) { Issue.record("import cycle: \((path + [name]).joined(separator: " → "))"); return }
            reached.insert(name)
            for target in imports[name] ?? [] { visit(target, path + [name]) }
        }
        visit("app.js", [])
        #expect(reached == Set(scripts.keys), "modules app.js never loads: \(Set(scripts.keys).subtracting(reached))")
    }

    @Test("The page uses no external resources")
    func noExternalResources() throws {
        for (name, file) in StaticFiles.bundled().files where name != "openapi.yaml" {
            let text = String(buffer: file.body)
            #expect(!text.contains("http://") || name == "dom.js", "\(name)")
            #expect(!text.contains("https://"), "\(name)")
            #expect(!text.contains("//cdn"), "\(name)")
        }
        // dom.js names the SVG namespace URI only (not a fetch).
        let script = String(buffer: try #require(StaticFiles.bundled().files["dom.js"]).body)
        #expect(script.components(separatedBy: "http://").count == 2)
        #expect(script.contains("'http://www.w3.org/2000/svg'"))
    }

    static let traversals = [
        "/../Package.swift", "/..%2FPackage.swift", "/%2e%2e/%2e%2e/etc/passwd", "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/..%5c..%5cPackage.swift", "/Public/index.html", "/Web_Web.resources/Public/app.js", "/./app.js/..",
        "/app.js/..", "/app.js/../../Package.swift", "//etc/passwd", "/etc/passwd", "/.hidden", "/index.html%00.js",
        "/static/../app.js", "/api/../app.js", "/data/../../Package.swift", "/api/openapi.yaml/../../Package.swift",
        "/%252e%252e/Package.swift", "/....//....//etc/passwd", "/Sources/Web/WebServer.swift",
    ]

    @Test("Path traversal and other paths are 404", arguments: traversals)
    func traversal(path: String) async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .notFound, "\(path): \(response.text.prefix(80))")
                #expect(!response.text.contains("swift-tools-version"))
                #expect(!response.text.contains("root:"))
            }
        }
    }

    @Test("Unknown routes are 404 with a JSON error", arguments: ["/api/nothing", "/data/nothing.json", "/api", "/data", "/nothing", "/api/aircraft/4840d6/extra"])
    func unknown(path: String) async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .notFound)
                let errorDoc = try response.json()
                #expect(errorDoc["error"] as? String == "Not Found")
            }
        }
    }

    @Test("Only plain names are servable")
    func servableNames() {
        for good in ["index.html", "app.js", "a-b_c.1.css"] { #expect(StaticFiles.isServable(good), "\(good)") }
        for bad in ["", ".hidden", "..", "a/b", "a\\b", "%2e", "a b", "é.js"] { #expect(!StaticFiles.isServable(bad), "\(bad)") }
    }
}
