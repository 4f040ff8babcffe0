import Foundation

/// Why a catalogue could not be read.
public enum MessageCatalogueError: Error, Equatable, CustomStringConvertible {
    /// The file is not one JSON object of strings.
    case malformed(file: String, reason: String)
    /// No `en.json`: English is every other language's fallback.
    case missingEnglish(directory: String)
    /// A language code FlyTracker has no catalogue for.
    case unknownLanguage(String, known: [String])

    public var description: String {
        switch self {
        case .malformed(let file, let reason): "message catalogue \(file) is not a JSON object of strings: \(reason)"
        case .missingEnglish(let directory): "no English message catalogue (en.json) in \(directory)"
        case .unknownLanguage(let code, let known): "unknown language '\(code)': FlyTracker speaks \(known.joined(separator: ", "))"
        }
    }
}

/// The languages FlyTracker speaks: one catalogue per file in `Catalogues/`, the file named by
/// its code (`de.json`). A translator adds a language by adding a file: nothing else lists the
/// languages. English (`en.json`) is complete by definition; a text missing from another
/// catalogue falls back to English, and a key missing from both is shown as the key (the
/// suite holds every shipped catalogue to every English key).
public struct MessageCatalogues: Sendable {
    public static let english = "en"

    /// Code → catalogue.
    public let catalogues: [String: MessageCatalogue]

    public init(_ catalogues: [MessageCatalogue]) {
        self.catalogues = Dictionary(catalogues.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The catalogues shipped in this module's `Catalogues` resource directory; English alone
    /// (and empty) if the directory cannot be read, which the suite rules out.
    public static let shipped: MessageCatalogues = {
        guard let directory = shippedDirectory,
              let loaded = try? load(directory: directory) else { return MessageCatalogues([MessageCatalogue(code: english, messages: [:])]) }
        return loaded
    }()

    /// Where the shipped catalogues are: this module's `Catalogues` resource directory.
    public static var shippedDirectory: URL? { Bundle.module.url(forResource: "Catalogues", withExtension: nil) }

    /// Every `<code>.json` in `directory`.
    public static func load(directory: URL) throws(MessageCatalogueError) -> MessageCatalogues {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }
        var catalogues: [MessageCatalogue] = []
        for name in names.sorted() {
            let code = String(name.dropLast(".json".count))
            let data: Data
            do { data = try Data(contentsOf: directory.appendingPathComponent(name)) } catch {
                throw .malformed(file: name, reason: "\(error.localizedDescription)")
            }
            let messages: [String: String]
            do { messages = try JSONDecoder().decode([String: String].self, from: data) } catch {
                throw .malformed(file: name, reason: "\(error)")
            }
            catalogues.append(MessageCatalogue(code: code, messages: messages))
        }
        guard catalogues.contains(where: { $0.code == english }) else { throw .missingEnglish(directory: directory.path) }
        return MessageCatalogues(catalogues)
    }

    /// The codes, English first, then alphabetical.
    public var codes: [String] {
        [Self.english] + catalogues.keys.filter { $0 != Self.english }.sorted()
    }

    /// The catalogue of `code`, matched without regard to case (`pt-br` finds `pt-BR`).
    public func catalogue(_ code: String) -> MessageCatalogue? {
        catalogues[code] ?? catalogues.values.first { $0.code.caseInsensitiveCompare(code) == .orderedSame }
    }

    /// The code as the catalogue spells it, or `unknownLanguage`: what a setting is checked with.
    public func validate(language code: String) throws(MessageCatalogueError) -> String {
        guard let catalogue = catalogue(code) else { throw .unknownLanguage(code, known: codes) }
        return catalogue.code
    }

    /// The text of `key` in `language` (English where that language lacks it, or for a code
    /// without a catalogue), its placeholders filled from `arguments`.
    public func text(_ key: String, language: String, _ arguments: [String: String] = [:]) -> String {
        let template = catalogue(language)?.messages[key] ?? catalogues[Self.english]?.messages[key] ?? key
        return MessageCatalogue.fill(template, arguments)
    }
}
