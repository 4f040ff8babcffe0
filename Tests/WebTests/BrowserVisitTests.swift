import Foundation
import Testing
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
        let database = try await VisitPathAPITests.databaseWithAVisit(ago: 3000)
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
