import Foundation
import Store
import Testing
@testable import Web

/// The social panel in a real browser (`FLYTRACKER_BROWSER=1`): a post with markup shows as
/// text and runs nothing; a goal shows its progress bar; the profile pane loads.
extension BrowserTests {
    static let socialSteps = #"""
      await js(`${$('account-button')}.click()`);
      await js(`${$('login-name')}.value = 'eve'; ${$('login-password')}.value = 'correct horse'; ${$('register')}.click()`);
      await sleep(1500);
      out.socialShown = await js(`!${$('social-button')}.hidden`);
      await js(`${$('social-button')}.click()`);
      await sleep(800);
      await js(`${$('post-text')}.value = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"><b>bold</b> & more'; ${$('post-form')}.requestSubmit()`);
      await sleep(1500);
      out.postText = await js(`(document.querySelector('#feed li .text') || {}).textContent`);
      out.markup = await js(`document.querySelectorAll('#feed b, #feed img, #feed script').length`);
      out.pwned = await js(`window.pwned === undefined ? 'no' : 'yes'`);
      await js(`document.querySelector('#social-tabs button[data-tab="goals"]').click()`);
      await sleep(800);
      await js(`${$('goal-name')}.value = 'Two A380s'; ${$('goal-type')}.value = 'A388'; ${$('goal-target')}.value = '2'; ${$('goal-form')}.requestSubmit()`);
      await sleep(1200);
      out.goals = await js(`${$('goals')}.textContent`);
      out.bars = await js(`document.querySelectorAll('#goals .progress span').length`);
      await js(`document.querySelector('#social-tabs button[data-tab="profile"]').click()`);
      await sleep(1000);
      out.visibilitySelects = await js(`document.querySelectorAll('#profile-visibility select').length`);
    """# + "\n"

    @Test("Social panel: a post with markup is shown as text and runs nothing; goals show progress; the profile loads")
    func social() async throws {
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: try AppDatabase.inMemory(), bcryptCost: 4)
        let output = try await Self.drive(Self.driver(Self.socialSteps), sources: sources)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(result["socialShown"] as? Bool == true)
        #expect(result["postText"] as? String == #"<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"><b>bold</b> & more"#, "\(result)")
        #expect(result["markup"] as? Int == 0)
        #expect(result["pwned"] as? String == "no")
        #expect((result["goals"] as? String)?.contains("Two A380s") == true && (result["goals"] as? String)?.contains("0/2") == true, "\(result)")
        #expect(result["bars"] as? Int == 1)
        #expect(result["visibilitySelects"] as? Int == 5)
    }
}
