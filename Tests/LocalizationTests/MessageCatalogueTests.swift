import Foundation
import Localization
import Testing

@Suite("Message catalogues")
struct MessageCatalogueTests {
    /// The shipped catalogues, read with the throwing loader (a malformed file fails here, where
    /// `MessageCatalogues.shipped` would quietly fall back to English).
    static func shipped() throws -> MessageCatalogues {
        let directory = try #require(MessageCatalogues.shippedDirectory)
        return try MessageCatalogues.load(directory: directory)
    }

    @Test("English and at least two more languages ship, English first")
    func languagesShipped() throws {
        let catalogues = try Self.shipped()
        #expect(catalogues.codes.first == "en")
        #expect(Set(catalogues.codes).isSuperset(of: ["en", "de", "fr"]))
        #expect(catalogues.catalogue("de")?.name == "Deutsch")
        #expect(catalogues.catalogue("fr")?.name == "Français")
    }

    @Test("every language's catalogue has every English key, no other key, and the same placeholders")
    func everyCatalogueComplete() throws {
        let catalogues = try Self.shipped()
        let english = try #require(catalogues.catalogue("en")).messages
        #expect(english.count > 200)
        for code in catalogues.codes where code != "en" {
            let messages = try #require(catalogues.catalogue(code)).messages
            for key in english.keys.sorted() {
                guard let text = messages[key] else { Issue.record("\(code).json lacks '\(key)'"); continue }
                #expect(!text.isEmpty, "\(code).json: '\(key)' is empty")
                #expect(MessageCatalogue.placeholders(in: text) == MessageCatalogue.placeholders(in: english[key]!),
                        "\(code).json: '\(key)' has other placeholders than English")
            }
            for key in messages.keys where english[key] == nil { Issue.record("\(code).json has '\(key)', which English lacks") }
        }
    }

    @Test("placeholders are filled by name; one without an argument is left as written")
    func fillsPlaceholders() {
        #expect(MessageCatalogue.placeholders(in: "{who} lands at {place} {when}") == ["who", "place", "when"])
        #expect(MessageCatalogue.placeholders(in: "no { placeholder } here {}") == [])
        #expect(MessageCatalogue.fill("{who} lands at {place}", ["who": "KLM12", "place": "EHAM"]) == "KLM12 lands at EHAM")
        #expect(MessageCatalogue.fill("{who} at {x}", ["who": "A"]) == "A at {x}")
        #expect(MessageCatalogue.fill("open { brace", ["a": "b"]) == "open { brace")
    }

    @Test("a text is in the asked language, English where that language lacks it, the key where both do")
    func fallsBackToEnglish() {
        let catalogues = MessageCatalogues([
            MessageCatalogue(code: "en", messages: ["a": "one {n}", "b": "two"]),
            MessageCatalogue(code: "nl", messages: ["a": "een {n}"]),
        ])
        #expect(catalogues.text("a", language: "nl", ["n": "1"]) == "een 1")
        #expect(catalogues.text("b", language: "nl") == "two")
        #expect(catalogues.text("c", language: "nl") == "c")
        #expect(catalogues.text("a", language: "xx", ["n": "2"]) == "one 2")
    }

    @Test("a language code is matched without case; an unknown one is refused, naming the known")
    func validatesCodes() throws {
        let catalogues = try Self.shipped()
        #expect(try catalogues.validate(language: "DE") == "de")
        #expect(throws: MessageCatalogueError.unknownLanguage("xx", known: catalogues.codes)) { try catalogues.validate(language: "xx") }
        #expect(throws: MessageCatalogueError.self) { try catalogues.validate(language: "") }
    }

    @Test("a translator adds a language by adding a file; a malformed file or no English is an error")
    func loadsDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalogues-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: MessageCatalogueError.missingEnglish(directory: directory.path)) { try MessageCatalogues.load(directory: directory) }
        try Data(#"{"language.name": "English", "hello": "Hello {name}"}"#.utf8).write(to: directory.appendingPathComponent("en.json"))
        try Data(#"{"language.name": "Nederlands", "hello": "Hallo {name}"}"#.utf8).write(to: directory.appendingPathComponent("nl.json"))
        let loaded = try MessageCatalogues.load(directory: directory)
        #expect(loaded.codes == ["en", "nl"])
        #expect(loaded.text("hello", language: "nl", ["name": "Ada"]) == "Hallo Ada")
        try Data(#"{"hello": 3}"#.utf8).write(to: directory.appendingPathComponent("sv.json"))
        #expect { try MessageCatalogues.load(directory: directory) } throws: { error in
            guard case MessageCatalogueError.malformed(let file, _) = error else { return false }
            return file == "sv.json"
        }
    }
}
