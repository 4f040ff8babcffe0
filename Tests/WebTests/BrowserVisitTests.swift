import Foundation
import ModeS
import Store
import Testing
import Tracking
@testable import Web

/// The details panel shows an aircraft's visits and the profile of one in a real browser
/// (issue 27 item 5). Runs only with `FLYTRACKER_BROWSER=1`.
extension BrowserTests {
    static let visitSteps = #"""
      await js(`document.querySelector('#list tbody tr[data-hex="4840d6"]').click()`);
      await sleep(2000);
      out.shown = await js(`!${$('visit-path')}.hidden`);
      out.choices = await js(`${$('visit-choice')}.options.length`);
      out.summary = await js(`${$('visit-summary')}.textContent`);
      out.profile = await js(`${$('visit-profile')}.querySelectorAll('polyline').length`);
    """# + "\n"

    @Test("Selecting an aircraft shows its visits and the latest one's distance, duration and altitude profile")
    func visitProfile() async throws {
        let database = try AppDatabase.inMemory()
        let recorder = try SightingRecorder(store: database)
        let t0 = Sky.now - 3000
        for i in 0..<6 {
            let p = Geodesy.destination(from: Coordinate(latitude: 52, longitude: 4), bearing: 90, distance: Double(2 * i))
            let seen = Observation(key: 0x4840D6, callsign: "KLM1023", typeCode: "B738", altitude: 20000 + 500 * i, position: p,
                                   positionTime: t0 + Double(20 * i), track: 90, groundSpeed: 360, messages: 10 * (i + 1),
                                   lastSeen: t0 + Double(20 * i))
            try recorder.record([seen], at: t0 + Double(20 * i))
        }
        try recorder.finish(at: t0 + 400)
        var sources = try Sky.sources()
        sources.statistics = database
        let output = try await Self.drive(Self.driver(Self.visitSteps), sources: sources)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(result["shown"] as? Bool == true)
        #expect(result["choices"] as? Int == 1)
        #expect((result["summary"] as? String)?.contains("flown") == true, "\(result)")
        #expect(result["profile"] as? Int == 1)
    }
}
