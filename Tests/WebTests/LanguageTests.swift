import Foundation
import Hummingbird
import HummingbirdTesting
import Localization
import Store
import Testing
@testable import Web

/// The page speaks the user's language: its catalogue is served, and every text the page
/// shows has a key in the English catalogue (which every other language covers: see
/// `LocalizationTests`).
@Suite("Web: languages")
struct LanguageTests {
    static var english: [String: String] { MessageCatalogues.shipped.catalogue("en")?.messages ?? [:] }
    static func page(_ name: String) throws -> String { String(buffer: try #require(StaticFiles.bundled().files[name]).body) }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            String(text[Range(m.range(at: 1), in: text)!])
        }
    }

    @Test("GET /api/languages lists English first, then German and French, each by its own name")
    func lists() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/languages", method: .get) { response in
                #expect(response.status == .ok)
                let languages = try #require(try response.json()["languages"] as? [[String: String]])
                #expect(languages.first == ["code": "en", "name": "English"])
                #expect(languages.contains(["code": "de", "name": "Deutsch"]))
                #expect(languages.contains(["code": "fr", "name": "Français"]))
            }
        }
    }

    @Test("GET /api/languages/{code} is that catalogue (code matched without case); an unknown code is 404")
    func catalogue() async throws {
        try await Sky.app().test(.router) { client in
            try await client.execute(uri: "/api/languages/DE", method: .get) { response in
                #expect(response.status == .ok)
                let doc = try response.json()
                #expect(doc["code"] as? String == "de")
                let messages = try #require(doc["messages"] as? [String: String])
                #expect(messages["list.type"] == "Typ")
                #expect(messages["kind.firstSeen"] == "Zuerst gesehen")
                #expect(messages.count == Self.english.count)
            }
            for unknown in ["xx", "..%2Fen", "en.json"] {
                try await client.execute(uri: "/api/languages/\(unknown)", method: .get) { response in
                    #expect(response.status == .notFound, "\(unknown)")
                }
            }
        }
    }

    @Test("the journal's what and where are in the reader's language and units; its numbers stay in NM and ft")
    func journalTexts() throws {
        let event = JournalEventRecord(id: 1, userId: 1, watchRuleId: nil, visitId: nil, address: 0x4840D6, time: 0, kind: .closestApproach,
                                       callsign: "KLM601", latitude: 52.1, longitude: 4.2, altitude: 3000, distance: 4.25, ruleLabel: "flight KL601")
        var reader = UserRecord(username: "ada", passwordHash: "-", units: .metric, language: "de", createdAt: 0)
        var doc = try JSONSerialization.jsonObject(with: Data(AccountController<BasicRequestContext>.journalDocument([event], for: reader).utf8)) as? [String: Any]
        var item = try #require((doc?["events"] as? [[String: Any]])?.first)
        #expect(item["what"] as? String == "Größte Annäherung: flight KL601")
        #expect(item["where"] as? String == "7.9 km 914 m 52.1000,4.2000")
        #expect(item["distance"] as? Double == 4.25 && item["alt"] as? Int == 3000)
        reader.units = .imperial
        reader.language = "en"
        doc = try JSONSerialization.jsonObject(with: Data(AccountController<BasicRequestContext>.journalDocument([event], for: reader).utf8)) as? [String: Any]
        item = try #require((doc?["events"] as? [[String: Any]])?.first)
        #expect(item["what"] as? String == "Closest approach: flight KL601")
        #expect(item["where"] as? String == "4.9 mi 3000 ft 52.1000,4.2000")
    }

    @Test("every key index.html names (text, placeholder, aria-label, alt) is in the English catalogue")
    func htmlKeysExist() throws {
        let html = try Self.page("index.html")
        let keys = Self.matches(#"data-i18n(?:-[a-z-]+)?="([^"]+)""#, in: html)
        #expect(keys.count >= 140)
        for key in keys { #expect(Self.english[key] != nil, "index.html names '\(key)'") }
    }

    @Test("no text of index.html a reader sees is left without a key")
    func htmlTextsAllKeyed() throws {
        let html = try Self.page("index.html")
        // Texts that are the same in every language: the name, unit symbols, ranges, the close sign.
        let fixed: Set = ["FlyTracker", "ft · kt · NM", "m · km/h · km", "ft · mph · mi", "25 NM", "50 NM", "100 NM", "200 NM", "300 NM", "English", "×"]
        // An element's own text (between its opening tag and the next tag), with that opening tag.
        for (tag, text) in zip(Self.matches(#"(<[a-z0-9]+[^<>]*>)[^<>]*[A-Za-z][^<>]*<"#, in: html),
                               Self.matches(#"<[a-z0-9]+[^<>]*>([^<>]*[A-Za-z][^<>]*)<"#, in: html)) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if fixed.contains(trimmed) { continue }
            #expect(tag.contains("data-i18n=\""), "index.html shows '\(trimmed)' without a key")
        }
        for attribute in ["placeholder", "aria-label", "alt"] {
            for tag in Self.matches(#"(<[a-z]+[^<>]* \#(attribute)="[^"]*"[^<>]*>)"#, in: html) where !tag.contains("D-AIUP") && !tag.contains("52.37,4.89") && !tag.contains("\"A388\"") {
                #expect(tag.contains("data-i18n-\(attribute)="), "\(tag) has a \(attribute) without a key")
            }
        }
    }

    @Test("every key the page's modules ask for, literal or built from a known family, is in the English catalogue")
    func scriptKeysExist() throws {
        let script = StaticFiles.bundled().scripts.values.joined(separator: "\n")
        // Literal keys: every quoted 'area.name' string that is not a storage key or a selector.
        let literals = Self.matches(#"'([a-z]+\.[a-zA-Z_.]+)'"#, in: script)
            .filter { !$0.hasPrefix("flytracker.") && !$0.hasSuffix(".") && $0 != "ul.comments" }
        #expect(literals.count >= 50)
        for key in literals { #expect(Self.english[key] != nil, "the page asks for '\(key)'") }
        // Keys built at run time: t('field.' + key) and the like, for every value the data has.
        let detailKeys = Self.matches(#"'([a-zA-Z_]+)'"#, in: try #require(script.components(separatedBy: "const detailKeys = [").last?
            .components(separatedBy: "];").first))
        #expect(detailKeys.count > 30)
        let profileFields = Self.matches(#"'([a-z_]+)'"#, in: try #require(script.components(separatedBy: "const profileFields = [").last?
            .components(separatedBy: "];").first))
        let families: [String: [String]] = [
            "field.": detailKeys,
            "watch.": WatchKind.allCases.map(\.rawValue),
            "groups.role.": GroupRole.allCases.map(\.rawValue),
            "profile.field.": profileFields,
            "profile.visibility.": ["public", "friends", "me"],
            "profile.stat.": ["aircraft", "types", "first_sighting", "last_sighting", "longest_distance_nm"],
        ]
        for (prefix, values) in families {
            #expect(script.contains("t('\(prefix)' + "), "the page builds no '\(prefix)' key")
            for value in values { #expect(Self.english[prefix + value] != nil, "no '\(prefix)\(value)'") }
        }
    }
}
