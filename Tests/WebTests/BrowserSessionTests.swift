import Foundation
import Store
import Testing
@testable import Web

/// Logging in and tracking a flight in a real browser: headless Chromium driven over the
/// DevTools protocol by a small Node script (Node ≥ 20 with `--experimental-websocket`).
/// Runs only with `FLYTRACKER_BROWSER=1`.
extension BrowserTests {
    /// A Node script driving the page over the DevTools protocol: `js(expression)` evaluates
    /// in it; `body` fills `out`, printed as one JSON line.
    static func driver(_ body: String) -> String { preamble + body + epilogue }

    static let preamble = #"""
    const fs = require('fs');
    const [, , profile, url] = process.argv;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    setTimeout(() => { console.error('timed out'); process.exit(2); }, 30000);
    (async () => {
      let port;
      for (let i = 0; i < 100 && !port; i++) {
        try { port = fs.readFileSync(profile + '/DevToolsActivePort', 'utf8').split('\n')[0]; } catch (_) { await sleep(100); }
      }
      const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
      const ws = new WebSocket(targets.find((t) => t.type === 'page').webSocketDebuggerUrl);
      await new Promise((r) => { ws.onopen = r; });
      let id = 0; const pending = new Map();
      ws.onmessage = (m) => { const msg = JSON.parse(m.data); if (msg.id && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id); } };
      const call = (method, params = {}) => new Promise((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
      const js = async (expression) => (await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })).result.result.value;
      const $ = (id) => `document.getElementById('${id}')`;
      await call('Page.enable');
      await call('Page.navigate', { url });
      await sleep(2500);
      const out = {};
    """# + "\n"

    static let epilogue = #"""
      console.log(JSON.stringify(out));
      ws.close();
      process.exit(0);
    })().catch((e) => { console.error(String(e)); process.exit(1); });
    """#

    static let sessionSteps = #"""
      out.rows = await js(`document.querySelectorAll('#list tbody tr').length`);
      out.symbols = await js(`document.querySelectorAll('#aircraft-layer .plane').length`);
      await js(`${$('account-button')}.click()`);
      await js(`${$('login-name')}.value = 'ann'; ${$('login-password')}.value = 'correct horse'; ${$('register')}.click()`);
      await sleep(1500);
      out.user = await js(`${$('user-name')}.textContent`);
      await js(`${$('watch-kind')}.value = 'registration'; ${$('watch-value')}.value = 'PH-BXA'; ${$('watch-form')}.requestSubmit()`);
      await sleep(1000);
      out.watchlist = await js(`${$('watchlist')}.textContent`);
      await js(`${$('logout')}.click()`);
      await sleep(700);
      out.loginShownAfterLogout = await js(`!${$('login-form')}.hidden`);
      await js(`${$('login-name')}.value = 'ann'; ${$('login-password')}.value = 'correct horse'; ${$('login-form')}.requestSubmit()`);
      await sleep(1500);
      out.watchlistAfterLogin = await js(`${$('watchlist')}.textContent`);
      // A change of language draws the tracked list again in German from what was fetched.
      const fetches = `performance.getEntriesByType('resource').filter((e) => e.name.endsWith('api/me/watchlist')).length`;
      out.watchlistFetchesBefore = await js(fetches);
      await js(`${$('language')}.value = 'de'; ${$('language')}.dispatchEvent(new Event('change'))`);
      await sleep(1500);
      out.watchlistInGerman = await js(`${$('watchlist')}.textContent`);
      out.watchlistFetchesAfter = await js(fetches);
    """# + "\n"

    static func run(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.standardError = FileHandle.nullDevice
        return process
    }

    @Test("Register, track PH-BXA, log out and back in: the tracked list is the user's (the Store keeps registrations without dashes)")
    func session() async throws {
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: try AppDatabase.inMemory(), bcryptCost: 4)
        let output = try await Self.drive(Self.driver(Self.sessionSteps), sources: sources)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(result["rows"] as? Int == 4)
        #expect(result["symbols"] as? Int == 3)
        #expect(result["user"] as? String == "ann")
        #expect((result["watchlist"] as? String)?.contains("Registration PHBXA") == true, "\(result)")
        #expect(result["loginShownAfterLogout"] as? Bool == true)
        #expect((result["watchlistAfterLogin"] as? String)?.contains("Registration PHBXA") == true)
        #expect((result["watchlistInGerman"] as? String)?.contains("Kennzeichen PHBXA") == true, "\(result)")
        #expect(result["watchlistFetchesAfter"] as? Int == result["watchlistFetchesBefore"] as? Int, "nothing fetched again for a change of language")
    }

    /// Runs `script` (a `driver`) against a server over `sources` in headless Chromium; its output.
    static func drive(_ driverScript: String, sources: WebSources) async throws -> String {
        let server = WebServer()
        let port = try await server.start(sources: sources, configuration: WebConfiguration(host: "127.0.0.1", port: 0))
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flytracker-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("driver.js")
        try driverScript.write(to: script, atomically: true, encoding: .utf8)
        let profile = directory.appendingPathComponent("profile").path
        let browser = try Self.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
                                                "--user-data-dir=\(profile)", "about:blank"])
        try browser.run()
        let output = try await Task.detached { () throws -> String in
            let node = try Self.run("node", ["--experimental-websocket", script.path, profile, "http://127.0.0.1:\(port)/"])
            let pipe = Pipe()
            node.standardOutput = pipe
            try node.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            node.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }.value
        browser.terminate()
        browser.waitUntilExit()
        await server.stop()
        try? FileManager.default.removeItem(at: directory)

        return output
    }
}
