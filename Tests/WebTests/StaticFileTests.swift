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
        #expect(names.isSuperset(of: ["index.html", "app.js", "style.css", "openapi.yaml"]))
    }

    @Test("/ is index.html with a restrictive Content-Security-Policy; files have their types", arguments: [
        ("/", "text/html", "<svg id=\"scope\""),
        ("/index.html", "text/html", "<table id=\"list\""),
        ("/app.js", "text/javascript", "localStorage"),
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

    @Test("The page uses no external resources")
    func noExternalResources() throws {
        for (name, file) in StaticFiles.bundled().files where name != "openapi.yaml" {
            let text = String(buffer: file.body)
            #expect(!text.contains("http://") || name == "app.js", "\(name)")
            #expect(!text.contains("https://"), "\(name)")
            #expect(!text.contains("//cdn"), "\(name)")
        }
        // app.js names the SVG namespace URI only (not a fetch).
        let script = String(buffer: try #require(StaticFiles.bundled().files["app.js"]).body)
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
