import Foundation
import Store
import Services
import Testing
@testable import Web

/// The Places view in a real browser (`FLYTRACKER_BROWSER=1`): a user tracks KLM1023 of the
/// test sky, saves a place 60 NM ahead of it with the form, and the view counts down to the
/// pass; the predicted point is drawn on the scope; a reminder that comes due while the page
/// is open shows in a banner.
extension BrowserTests {
    static let placesSteps = #"""
      await js(`${$('account-button')}.click()`);
      await js(`${$('login-name')}.value = 'pat'; ${$('login-password')}.value = 'correct horse'; ${$('register')}.click()`);
      await sleep(1500);
      await js(`${$('watch-kind')}.value = 'callsign'; ${$('watch-value')}.value = 'KLM1023'; ${$('watch-form')}.requestSubmit()`);
      await sleep(800);
      await js(`${$('place-name')}.value = 'Ahead <b>'; ${$('place-where')}.value = '${process.env.AHEAD}'; ${$('place-form')}.requestSubmit()`);
      await sleep(2500);
      out.places = await js(`[...document.querySelectorAll('#places li strong')].map((e) => e.textContent)`);
      out.countdown = await js(`(document.querySelector('#places li[data-place]:not([data-place="receiver"]) .countdown') || {}).textContent`);
      out.etaHex = await js(`(document.querySelector('#places .eta') || {dataset: {}}).dataset.hex`);
      out.predictedOnScope = await js(`document.querySelectorAll('#places-layer .predicted').length`);
      out.markup = await js(`document.querySelectorAll('#places b').length`);
      await sleep(2200);
      out.countdownLater = await js(`(document.querySelector('#places li[data-place]:not([data-place="receiver"]) .countdown') || {}).textContent`);
      // A reminder written to the journal meanwhile (by the test) shows in the banner.
      await sleep(8000);
      out.bannerShown = await js(`!${$('reminder-banner')}.hidden`);
      out.banner = await js(`${$('reminder-banner')}.textContent`);
      out.bannerMarkup = await js(`${$('reminder-banner')}.querySelectorAll('*').length`);
    """# + "\n"

    @Test("Places view: a saved place shows the tracked aircraft heading for it with a live countdown, and its predicted point")
    func places() async throws {
        var sources = try Sky.sources()
        let database = try AppDatabase.inMemory()
        sources.accounts = WebAccounts(database: database, bcryptCost: 4)
        sources.receiver.position = Sky.receiver
        let ahead = PlacesAPITests.ahead
        // While the page is open, a reminder comes due (as ReminderService writes it).
        let reminder = Task.detached {
            try await Task.sleep(for: .seconds(9))
            let user = try await #require(try database.accounts.user(named: "pat"))
            var batch = SightingBatch()
            batch.events = [(VisitKey(address: 0x4840D6, firstSeen: -1),
                             JournalEventRecord(userId: user.id!, watchRuleId: nil, visitId: nil, address: 0x4840D6, time: Sky.now, kind: .reminder,
                                                callsign: "KLM1023", note: "KLM1023 passes Ahead <b> in 4 min"))]
            _ = try await database.write(batch)
        }
        let steps = Self.placesSteps.replacingOccurrences(of: "${process.env.AHEAD}", with: String(format: "%.5f,%.5f", ahead.latitude, ahead.longitude))
        let output = try await Self.drive(Self.driver(steps), sources: sources)
        try await reminder.value
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(result["places"] as? [String] == ["Receiver", "Ahead <b>"], "\(result)")
        #expect(result["markup"] as? Int == 0, "a place name is text, never markup")
        #expect(result["etaHex"] as? String == "4840d6")
        // The test sky's clock stands still (a replay's would move on): 237.6 s → "in 4 min".
        #expect(result["countdown"] as? String == "in 4 min", "\(result)")
        #expect(result["predictedOnScope"] as? Int == 1)
        #expect(result["countdownLater"] as? String != nil)
        #expect(result["bannerShown"] as? Bool == true, "\(result)")
        #expect(result["banner"] as? String == "KLM1023 passes Ahead <b> in 4 min")
        #expect(result["bannerMarkup"] as? Int == 0, "a note is text, never markup")
    }
}
