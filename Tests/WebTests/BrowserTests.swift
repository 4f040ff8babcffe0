import Foundation
import Testing
@testable import Web

/// The page in a real browser: headless Chromium (Debian's `chromium`) loads it from a
/// running server and the rendered DOM must hold aircraft rows and map symbols. Runs only
/// with `FLYTRACKER_BROWSER=1` (needs `chromium` on the PATH); the screenshot goes to
/// `FLYTRACKER_SCREENSHOT` (default: the temporary directory) for a person to look at.
@Suite("Web: browser", .serialized, .enabled(if: ProcessInfo.processInfo.environment["FLYTRACKER_BROWSER"] == "1"))
struct BrowserTests {
    static func chromium(_ arguments: [String]) async throws -> String {
        try await Task.detached {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let profile = NSTemporaryDirectory() + "flytracker-chromium-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: profile) }
            process.arguments = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=4000",
                                 "--user-data-dir=\(profile)"] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }.value
    }

    @Test("Chromium renders aircraft rows and map symbols; a screenshot is kept")
    func page() async throws {
        let server = WebServer()
        let port = try await server.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        defer { Task { await server.stop() } }
        let url = "http://127.0.0.1:\(port)/"
        let dom = try await Self.chromium(["--dump-dom", url])
        for hex in ["4840d6", "3c66b0", "a061d9", "~00abcd"] {
            #expect(dom.contains("<tr data-hex=\"\(hex)\""), "row \(hex)")
        }
        // Aircraft with positions are drawn on the scope; the Mode S-only one is not.
        for hex in ["4840d6", "3c66b0", "~00abcd"] {
            #expect(dom.contains("class=\"plane\" transform=\"translate(") && dom.contains("data-hex=\"\(hex)\"><path"), "symbol \(hex)")
        }
        #expect(!dom.contains("data-hex=\"a061d9\"><path"))
        #expect(dom.contains("KLM1023"))
        #expect(dom.contains("rotate(45)"))
        let directory = ProcessInfo.processInfo.environment["FLYTRACKER_SCREENSHOT"] ?? NSTemporaryDirectory()
        let shot = URL(fileURLWithPath: directory).appendingPathComponent("flytracker-page.png").path
        _ = try await Self.chromium(["--screenshot=\(shot)", "--window-size=1400,900", url])
        #expect(FileManager.default.fileExists(atPath: shot))
    }

    @Test("A German browser gets the page in German: headings, controls, the status line and field names")
    func german() async throws {
        let server = WebServer()
        let port = try await server.start(sources: try Sky.sources(), configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        defer { Task { await server.stop() } }
        let dom = try await Self.chromium(["--lang=de-DE", "--accept-lang=de-DE,de", "--dump-dom", "http://127.0.0.1:\(port)/"])
        #expect(dom.contains("<html lang=\"de\""), "\(dom.prefix(300))")
        #expect(dom.contains(">Rufzeichen</th>") && dom.contains(">Höhe</th>") && dom.contains(">Entf.</th>"))
        #expect(dom.contains(">Einheiten</span>") && dom.contains(">Anmelden</button>"))
        #expect(dom.contains("placeholder=\"Suche: KLM"))
        #expect(dom.contains("<option value=\"de\">Deutsch</option>") && dom.contains("<option value=\"fr\">Français</option>"))
        #expect(dom.range(of: #"id="status"[^>]*>\d+ Flugzeuge<"#, options: .regularExpression) != nil, "the status line")
        #expect(!dom.contains(">Callsign</th>"))
    }
}
